// Every `pane` command end to end: the real bundle as a child process against a
// real `pane serve` on a temp socket, checking the state the server reports after.
import { describe, expect, it } from 'vitest';
import type { Pane, Session } from '../../kits/protocol/model';
import { BIN, cleanEnv, serve, servePerFile, until } from './harness';

const srv = servePerFile();

/** Runs a command that must succeed; returns its stdout. */
function ok(...args: string[]): string {
  const r = srv.pane(args);
  if (r.status !== 0) throw new Error(`pane ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}
const panes = (session?: string): Pane[] => JSON.parse(ok('ls', '--json', ...(session ? ['--session', session] : []))) as Pane[];
/** `session save` prints a state file (version 2) holding the one session. */
const saved = (session: string): { session: Session; panes: Pane[] } => {
  const f = JSON.parse(ok('session', 'save', session)) as { version: number; sessions: Session[]; panes: Pane[] };
  expect(f.version).toBe(2);
  return { session: f.sessions[0]!, panes: f.panes };
};
const leavesOf = (n: Session['layout']): number[] => (n === null ? [] : n.type === 'leaf' ? [n.pane] : [...leavesOf(n.a), ...leavesOf(n.b)]);
/** A fresh session with one pane running a quiet program; returns the pane number. */
function fresh(name: string): number {
  return Number(ok('new', '--session', name, '--', 'sleep', '600').trim());
}

describe('pane ls', () => {
  it('prints a fixed-width table with the nine columns and the first session’s shell', () => {
    const lines = ok('ls', '--session', 'main').trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+SESSION\s+SIGNATURE\s+OWNER\s+QUADRANT\s+STATE\s+PID\s+CWD\s+TAG$/);
    const cols = lines[1]!.split(/\s{2,}/);
    expect(cols.slice(0, 3)).toEqual(['1', 'main', 'com.pane.terminal']);
    // Every column starts at the same place on every line.
    const at = lines[0]!.indexOf('STATE');
    expect(lines[1]!.slice(at)).toMatch(/^running\s/);
  });

  it('prints the Pane objects with --json', () => {
    const ps = panes('main');
    expect(ps[0]).toMatchObject({ n: 1, signature: 'com.pane.terminal', kind: 'terminal', state: 'running' });
    expect(typeof ps[0]!.pid).toBe('number');
  });
});

describe('pane new', () => {
  it('creates the session named by --session when there is none, with the program as its first pane', () => {
    const n = fresh('n1');
    const ps = panes('n1');
    expect(ps.map((p) => p.n)).toEqual([n]);
    expect(ps[0]!.launch).toMatchObject({ program: 'sleep', args: ['600'] });
  });

  it('splits the focused pane when the session exists, applying --name and --sig, and prints the new id', () => {
    const first = fresh('n2');
    const out = ok('new', '--session', 'n2', '--name', 'helper', '--sig', 'com.example.helper', '--', 'sleep', '601');
    const n = Number(out.trim());
    expect(out).toBe(`${n}\n`);
    const ps = panes('n2');
    expect(ps.map((p) => p.n)).toEqual([first, n]);
    expect(ps[1]).toMatchObject({ signature: 'com.example.helper', tag: { name: 'helper' } });
  });

  it('creates a first session when the server has none, naming its pane with --name', async () => {
    const empty = await serve(['--empty']);
    try {
      const r = empty.pane(['new', '--name', 'first', '--', 'sleep', '600']);
      expect(r.status).toBe(0);
      const list = JSON.parse(empty.pane(['ls', '--json']).stdout) as Pane[];
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ n: Number(r.stdout.trim()), tag: { name: 'first' }, launch: { program: 'sleep' } });
      expect(empty.pane(['session', 'ls']).stdout).toMatch(/\nmain\s+1\s/);
    } finally {
      await empty.stop();
    }
  });

  it('resolves --cwd against the caller’s directory', () => {
    const n = Number(ok('new', '--session', 'n3', '--cwd', '/tmp', '--', 'sleep', '602').trim());
    expect(panes('n3').find((p) => p.n === n)?.cwd).toBe('/tmp');
  });

  it('opens a floating pane with --float', () => {
    fresh('n4');
    const n = Number(ok('new', '--session', 'n4', '--float', '--', 'sleep', '603').trim());
    expect(saved('n4').session.floating.map((f) => f.pane)).toEqual([n]);
  });
});

describe('pane split', () => {
  it('splits the target with direction and ratio, running PROGRAM ARGS as argv', () => {
    const a = fresh('s1');
    const b = Number(ok('split', '-t', String(a), '-d', 'v', '-r', '30', '--', 'sleep', '604').trim());
    const s = saved('s1').session;
    expect(s.layout).toMatchObject({ type: 'split', direction: 'vertical', ratio: 30, a: { pane: a }, b: { pane: b } });
    expect(panes('s1').find((p) => p.n === b)?.launch).toMatchObject({ program: 'sleep', args: ['604'] });
  });

  it('takes HOST:N as the target', () => {
    const a = fresh('s2');
    const host = panes('s2')[0]!.host;
    const b = Number(ok('split', '-t', `${host}:${a}`, '--', 'sleep', '605').trim());
    expect(leavesOf(saved('s2').session.layout)).toEqual([a, b]);
  });

  it('refuses a split that leaves a sliver, saying why, exits 1 and changes nothing', () => {
    // A headless session is 160 columns: the newest pane halved four times is 10 wide, and a fifth would leave 5.
    let last = fresh('s3');
    for (let i = 0; i < 4; i++) last = Number(ok('split', '-t', String(last), '-d', 'h', '--', 'sleep', '609').trim());
    const before = saved('s3').session.layout;
    const r = srv.pane(['split', '-t', String(last), '-d', 'h', '--', 'sleep', '609']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`pane ${last} has no room to split side by side: the new pane would be 5×\\d+ cells, and a split leaves at least 6×2`));
    expect(saved('s3').session.layout).toEqual(before);
    expect(panes('s3')).toHaveLength(5);
    // Stacked, the same pane still splits.
    ok('split', '-t', String(last), '-d', 'v', '--', 'sleep', '609');
  });
});

describe('layout commands', () => {
  it('focus moves to a pane by id and by direction', () => {
    const a = fresh('f1');
    const b = Number(ok('split', '-t', String(a), '--', 'sleep', '606').trim());
    expect(saved('f1').session.focused).toBe(b);
    ok('focus', '-t', String(a));
    expect(saved('f1').session.focused).toBe(a);
    ok('focus', '-t', String(a), '-d', 'right');
    expect(saved('f1').session.focused).toBe(b);
    // The direction alone, as a person types it.
    ok('focus', '-t', String(b), 'left');
    expect(saved('f1').session.focused).toBe(a);
  });

  it('focus last goes back to the pane focused before, and closing the focused pane goes back there too', () => {
    const a = fresh('f2');
    const b = Number(ok('split', '-t', String(a), '--', 'sleep', '606').trim());
    const c = Number(ok('split', '-t', String(b), '--', 'sleep', '606').trim());
    ok('focus', '-t', String(a));
    ok('focus', '-t', String(a), 'last');
    expect(saved('f2').session.focused).toBe(c);
    ok('focus', '-t', String(c), '-d', 'last');
    expect(saved('f2').session.focused).toBe(a);
    // a's neighbour in reading order is b; the pane focused before it is c.
    ok('close', '-t', String(a));
    expect(saved('f2').session.focused).toBe(c);
    expect(saved('f2').session.recent).toEqual([b]);
    const lone = fresh('f3');
    const r = srv.pane(['focus', '-t', String(lone), 'last']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`no pane was focused before pane ${lone}`));
  });

  it('layout lays the session’s tiles out in a preset, next by default, and says which', () => {
    const a = fresh('l1');
    const b = Number(ok('split', '-t', String(a), '--', 'sleep', '606').trim());
    const c = Number(ok('split', '-t', String(b), '-d', 'v', '--', 'sleep', '606').trim());
    expect(ok('layout', '-t', String(a), 'even-vertical')).toBe('even-vertical\n');
    const stacked = saved('l1').session.layout as { type: string; direction: string };
    expect(stacked.direction).toBe('vertical');
    expect(leavesOf(saved('l1').session.layout)).toEqual([a, b, c]);
    // Next after even-vertical, with the focused tile (c, the last split) as the main one; --session names it.
    expect(ok('layout', '--session', 'l1')).toBe('main-horizontal\n');
    expect(saved('l1').session.layout).toMatchObject({ direction: 'vertical', a: { type: 'leaf', pane: c } });
    const bad = srv.pane(['layout', '-t', String(a), 'diagonal']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/PRESET: 'diagonal' is not one of even-horizontal, even-vertical, main-horizontal, main-vertical, tiled, spread, next/);
  });

  it('move takes a pane, its program running on, into another session or one of its own, and the session it left ends with its last pane', () => {
    const a = fresh('m1');
    const b = Number(ok('split', '-t', String(a), '--', 'sh', '-c', 'echo moved-along; exec sleep 613').trim());
    const pid = panes('m1').find((p) => p.n === b)!.pid;
    // Out into a session of its own (break-pane), named.
    expect(ok('move', '-t', String(b), '--new', 'm1-own')).toBe('m1-own\n');
    expect(panes('m1').map((p) => p.n)).toEqual([a]);
    expect(panes('m1-own')).toMatchObject([{ n: b, pid }]);
    expect(saved('m1-own').session.focused).toBe(b);
    expect(ok('screen', '-t', String(b))).toContain('moved-along');
    // Back in beside m1's focused tile, stacked (join-pane); m1-own had no other pane, so it ends.
    expect(ok('move', '-t', String(b), '-d', 'v', 'm1')).toBe('m1\n');
    expect(leavesOf(saved('m1').session.layout)).toEqual([a, b]);
    expect(saved('m1').session.layout).toMatchObject({ direction: 'vertical' });
    expect(ok('session', 'ls')).not.toMatch(/^m1-own\s/m);
    expect(panes('m1').find((p) => p.n === b)!.pid).toBe(pid);
    // Refused, naming why, with nothing moved.
    const same = srv.pane(['move', '-t', String(b), 'm1']);
    expect([same.status, same.stderr]).toEqual([1, expect.stringMatching(new RegExp(`pane ${b} is in session m1 already`))]);
    const lone = fresh('m2');
    const only = srv.pane(['move', '-t', String(lone), '--new']);
    expect(only.stderr).toMatch(new RegExp(`pane ${lone} is the only pane of session m2`));
    const none = srv.pane(['move', '-t', String(b)]);
    expect([none.status, none.stderr]).toEqual([2, expect.stringMatching(/missing SESSION/)]);
    expect(leavesOf(saved('m1').session.layout)).toEqual([a, b]);
    // A session of the person's whose name holds a colon is theirs, not a joined host's: a pane moves in and out.
    expect(ok('session', 'new', 'proj:auth', '--', 'sleep', '608')).toBe('proj:auth\n');
    expect(ok('move', '-t', String(b), 'proj:auth')).toBe('proj:auth\n');
    expect(panes('proj:auth').map((p) => p.n)).toContain(b);
    expect(ok('move', '-t', String(b), 'm1')).toBe('m1\n');
    expect(leavesOf(saved('m1').session.layout)).toEqual([a, b]);
  });

  it('swap exchanges two panes, with --with and with -d', () => {
    const a = fresh('w1');
    const b = Number(ok('split', '-t', String(a), '--', 'sleep', '607').trim());
    ok('swap', '-t', String(a), '--with', String(b));
    expect(leavesOf(saved('w1').session.layout)).toEqual([b, a]);
    ok('swap', '-t', String(a), '-d', 'left');
    expect(leavesOf(saved('w1').session.layout)).toEqual([a, b]);
  });

  it('resize moves the shared edge by N cells', () => {
    const a = fresh('r1');
    const b = Number(ok('split', '-t', String(a), '--', 'sleep', '608').trim());
    const before = (saved('r1').session.layout as { ratio: number }).ratio;
    ok('resize', '-t', String(a), '-d', 'right', '-n', '16');
    const after = (saved('r1').session.layout as { ratio: number }).ratio;
    expect(after).toBeGreaterThan(before);
    // The count alone, as tmux's resize-pane -L 16 takes it: the right pane grows back to the left.
    ok('resize', '-t', String(b), '-d', 'left', '16');
    expect((saved('r1').session.layout as { ratio: number }).ratio).toBeLessThan(after);
  });

  it('zoom toggles the session’s zoomed pane', () => {
    const a = fresh('z1');
    ok('split', '-t', String(a), '--', 'sleep', '609');
    ok('zoom', '-t', String(a));
    expect(saved('z1').session.zoomed).toBe(a);
    ok('zoom', '-t', String(a));
    expect(saved('z1').session.zoomed).toBeNull();
    // --on and --off say what they want, whatever the state.
    ok('zoom', '--off', '-t', String(a));
    expect(saved('z1').session.zoomed).toBeNull();
    ok('zoom', '--on', '-t', String(a));
    ok('zoom', '--on', '-t', String(a));
    expect(saved('z1').session.zoomed).toBe(a);
    expect(srv.pane(['zoom', '--on', '--off', '-t', String(a)]).stderr).toMatch(/--on and --off contradict/);
  });

  it('close ends the pane and its sibling takes the space', () => {
    const a = fresh('c1');
    const b = Number(ok('split', '-t', String(a), '--', 'sleep', '610').trim());
    ok('close', '-t', String(b));
    expect(saved('c1').session.layout).toEqual({ type: 'leaf', pane: a });
  });

  it('restart relaunches the program in place with a new pid', () => {
    const a = fresh('rs1');
    const pid = panes('rs1')[0]!.pid;
    ok('restart', '-t', String(a));
    const now = panes('rs1')[0]!;
    expect(now.n).toBe(a);
    expect(now.pid).not.toBe(pid);
  });

  it('float toggles a pane into the floating layer, places it, arranges it, and tiles it back', () => {
    const a = fresh('fl1');
    const b = Number(ok('split', '-t', String(a), '--', 'sleep', '611').trim());
    ok('float', '-t', String(b));
    expect(saved('fl1').session.floating.map((f) => f.pane)).toEqual([b]);
    ok('float', '-t', String(b), '--x', '2', '--y', '3', '--w', '40', '--h', '10', '--z', '7', '--layer', 'top');
    expect(saved('fl1').session.floating[0]).toMatchObject({ pane: b, x: 2, y: 3, w: 40, h: 10, z: 7, layer: 'top', visible: true });
    ok('float', '-t', String(b), '--hide');
    expect(saved('fl1').session.floating[0]?.visible).toBe(false);
    ok('float', '-t', String(b), '--tile');
    const s = saved('fl1').session;
    expect(s.floating).toEqual([]);
    expect(leavesOf(s.layout).sort()).toEqual([a, b].sort());
  });

  it('float with a rectangle floats a tiled pane right there', () => {
    const a = fresh('fl2');
    const b = Number(ok('split', '-t', String(a), '--', 'sleep', '612').trim());
    ok('float', '-t', String(b), '--x', '5', '--y', '6', '--w', '20', '--h', '8');
    expect(saved('fl2').session.floating[0]).toMatchObject({ pane: b, x: 5, y: 6, w: 20, h: 8 });
  });
});

describe('tag, attr, exec', () => {
  it('tag sets and prints the name and user text', () => {
    const a = fresh('t1');
    ok('tag', '-t', String(a), '--name', 'builder', '--user', 'make all');
    ok('tag', '-t', String(a), '--append', ' -j4');
    expect(ok('tag', '-t', String(a))).toMatch(/^builder \| .* \| make all -j4\n$/);
  });

  it('attr sets, shows and deletes attrs, and ls shows the quadrant the server computed', () => {
    const a = fresh('a1');
    ok('attr', '-t', String(a), 'topic=auth');
    expect(ok('attr', '-t', String(a))).toBe('quadrant=full\ntopic=auth\n');
    expect(ok('ls', '--session', 'a1').split('\n')[1]).toMatch(/\sfull\s/);
    ok('attr', '-t', String(a), 'topic=');
    expect(ok('attr', '-t', String(a))).toBe('quadrant=full\n');
    // The quadrant is where the pane is laid out: a split moves it, a write cannot.
    ok('split', '-t', String(a), '--', 'sleep', '600');
    expect(ok('attr', '-t', String(a))).toBe('quadrant=left\n');
    const r = srv.pane(['attr', '-t', String(a), 'quadrant=top-left']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/quadrant is computed by the server/);
  });

  it('exec runs a word of the pane’s vocabulary', () => {
    const a = fresh('e1');
    ok('split', '-t', String(a), '--', 'sleep', '613');
    ok('exec', '-t', String(a), 'zoom');
    expect(saved('e1').session.zoomed).toBe(a);
  });

  it('exec prints the pane a word opened, as split does, and nothing for a word that opens none', () => {
    const a = fresh('e2');
    const id = ok('exec', '-t', String(a), 'split', 'v').trim();
    expect(id).toMatch(/^\d+$/);
    expect(panes('e2').map((p) => p.n)).toEqual(expect.arrayContaining([a, Number(id)]));
    expect(Number(id)).not.toBe(a);
    expect(ok('exec', '-t', id, 'zoom')).toBe('');
    expect(saved('e2').session.zoomed).toBe(Number(id));
  });
});

describe('pane session', () => {
  it('new prints the name; ls lists it; kill ends it', () => {
    expect(ok('session', 'new', 'sx', '--', 'sleep', '614')).toBe('sx\n');
    expect(ok('session', 'ls')).toMatch(/^NAME\s+PANES\s+FOCUSED\s+ID\n(.*\n)*sx\s+1\s+\d+\s+[0-9a-f-]{36}\n/);
    const list = JSON.parse(ok('session', 'ls', '--json')) as { name: string }[];
    expect(list.map((s) => s.name)).toContain('sx');
    ok('session', 'kill', 'sx');
    expect(ok('session', 'ls')).not.toMatch(/^sx\s/m);
  });

  it('renames a session, and refuses a name another session has', () => {
    fresh('rn1');
    fresh('rn2');
    expect(ok('session', 'rename', 'rn1', 'renamed')).toBe('renamed\n');
    expect(ok('session', 'ls')).toMatch(/^renamed\s/m);
    const r = srv.pane(['session', 'rename', 'renamed', 'rn2']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/a session named rn2 already exists/);
  });

  it('save and restore round-trip a session through a file on stdin', () => {
    const a = fresh('sv1');
    ok('split', '-t', String(a), '-d', 'v', '--', 'sleep', '615');
    const snap = ok('session', 'save', 'sv1');
    const r = srv.pane(['session', 'restore', '-', '--name', 'sv1-copy'], { input: snap });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('sv1-copy\n');
    const copy = saved('sv1-copy').session;
    expect(copy.layout).toMatchObject({ type: 'split', direction: 'vertical' });
  });

  it('restore still reads a version 1 file, and refuses a newer version naming both', () => {
    const { session, panes } = saved('sv1');
    const v1 = JSON.stringify({ version: 1, session, panes });
    const r = srv.pane(['session', 'restore', '-', '--name', 'sv1-old'], { input: v1 });
    expect([r.status, r.stdout]).toEqual([0, 'sv1-old\n']);
    const newer = srv.pane(['session', 'restore', '-'], { input: JSON.stringify({ version: 7, sessions: [], panes: [] }) });
    expect(newer.status).toBe(1);
    expect(newer.stderr).toMatch(/version 7, newer than this pane, which reads versions 1 to 2/);
  });
});

describe('server commands', () => {
  it('info prints the server’s host, version and counts', () => {
    const text = ok('info');
    expect(text).toMatch(/^host:\s+\S+\nversion:\s+\S+ \(protocol 1\)\n/);
    // For a person: the start as a local time and its age, memory in a unit, not epoch milliseconds and bytes.
    expect(text).toMatch(/^started:\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d, [\dsmhd]+ ago$/m);
    expect(text).toMatch(/^memory:\s+\d+\.\d MiB resident, /m);
    const info = JSON.parse(ok('info', '--json')) as { socket: string };
    expect(info.socket).toBe(srv.socket);
  });

  it('clients lists the CLI itself as a connected client', () => {
    expect(ok('clients')).toMatch(/^ID\s+NAME\s+KIND.*\n\S+\s+pane-cli\s+cli\s/);
  });
});

describe('the -t default', () => {
  it('uses $PANE_ID when the CLI runs inside a pane of this server', () => {
    const a = fresh('d1');
    const b = Number(ok('split', '-t', String(a), '--', 'sleep', '616').trim());
    // b is focused; $PANE_ID names a, so the command reaches a.
    const r = srv.pane(['tag', '--name', 'from-env'], { env: cleanEnv({ PANE_ID: `${panes('d1')[0]!.host}:${a}`, PANE_SOCKET: srv.socket }) });
    expect(r.status).toBe(0);
    expect(panes('d1').find((p) => p.n === a)?.tag.name).toBe('from-env');
    expect(panes('d1').find((p) => p.n === b)?.tag.name).not.toBe('from-env');
  });

  it('ignores $PANE_ID when --socket aims at a different server than $PANE_SOCKET', () => {
    fresh('d2');
    const r = srv.pane(['tag', '--name', 'x'], { env: cleanEnv({ PANE_ID: '99999', PANE_SOCKET: '/elsewhere.sock' }) });
    // Without the $PANE_ID rule this would be "pane 99999 not found".
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('reaches its own pane when run from a shell inside a pane', async () => {
    const a = Number(ok('new', '--session', 'd3').trim());
    ok('split', '-t', String(a), '--', 'sleep', '617');
    ok('send', '-t', String(a), `'${BIN}' tag --name inside-${a}`);
    await until('the inner pane command to tag its own pane', () => panes('d3').find((p) => p.n === a)?.tag.name === `inside-${a}`);
  });
});
