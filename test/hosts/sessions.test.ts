// A joined host's sessions, from here (issue 34, item 7): `pane session ls` lists this
// server's and then each joined host's as HOST:NAME, `--host HOST` that host's alone,
// `pane session kill HOST:NAME` / `rename` act on that host's session, and `pane session
// attach HOST:NAME` tiles it here as a local view that follows it. Through a real second
// daemon joined as a command host (`pane serve --stdio`).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce } from '../cli/harness';
import { binDirFor, eventually, startDaemon, type Daemon } from './remote';
import { REMOTE_WAIT_SLICE_MS } from '../../server/hosts/hostService';

let local: Daemon;
let box: Daemon;

beforeAll(async () => {
  buildOnce();
  local = await startDaemon('local');
  box = await startDaemon('box');
  const hosts = path.join(local.home, '.config', 'pane', 'hosts');
  fs.mkdirSync(hosts, { recursive: true });
  fs.writeFileSync(path.join(hosts, 'box.json'), JSON.stringify({ how: { via: 'command', argv: ['sh', '-c', `exec ${binDirFor(box)}/pane serve --stdio`] } }));
  await eventually('the host file read', () => /^box\s/m.test(local.pane(['host', 'ls']).stdout));
  expect(local.pane(['host', 'connect', 'box']).status).toBe(0);
  await eventually('box joined', () => /^box\s.*connected/m.test(local.pane(['host', 'ls']).stdout));
}, 120_000);
afterAll(async () => {
  await local?.stop();
  await box?.stop();
});

describe('sessions on a joined host', () => {
  it('lists them as HOST:NAME, alone with --host, and kills and renames them there', async () => {
    const made = box.pane(['new', '--session', 'work']);
    expect(made.status, made.stderr).toBe(0);
    const all = local.pane(['session', 'ls']);
    expect(all.status, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^main\s/m);
    expect(all.stdout).toMatch(/^box:work\s/m);
    const only = local.pane(['session', 'ls', '--host', 'box']);
    expect(only.stdout).toMatch(/^box:work\s/m);
    expect(only.stdout).not.toMatch(/^main\s/m);
    // Its tiles laid out in a preset there, by the session's name and by a pane's.
    const first = (JSON.parse(box.pane(['ls', '--json', '--session', 'work']).stdout) as { n: number }[])[0]!.n;
    expect(box.pane(['split', '-t', String(first), '--', 'sh']).status).toBe(0);
    const stacked = local.pane(['layout', '--session', 'box:work', 'even-vertical']);
    expect(stacked.status, stacked.stderr).toBe(0);
    expect(stacked.stdout).toBe('even-vertical\n');
    const layoutThere = () => (JSON.parse(box.pane(['session', 'save', 'work']).stdout) as { sessions: { layout: { direction?: string } }[] }).sessions[0]!.layout;
    expect(layoutThere().direction).toBe('vertical');
    expect(local.pane(['layout', '-t', `box:${first}`, 'even-horizontal']).stdout).toBe('even-horizontal\n');
    expect(layoutThere().direction).toBe('horizontal');
    const renamed = local.pane(['session', 'rename', 'box:work', 'work2']);
    expect(renamed.status, renamed.stderr).toBe(0);
    expect(box.pane(['session', 'ls']).stdout).toMatch(/^work2\s/m);
    const killed = local.pane(['session', 'kill', 'box:work2']);
    expect(killed.status, killed.stderr).toBe(0);
    expect(box.pane(['session', 'ls']).stdout).not.toMatch(/work2/);
    // A name with no joined host in front is this server's, as before.
    expect(local.pane(['session', 'kill', 'nosuch:thing']).stderr).toMatch(/not found|no session/i);
  });
});

interface LsPane {
  n: number;
  session: string;
  kind: string;
  attrs: Record<string, string>;
}
const localPanes = (): LsPane[] => JSON.parse(local.pane(['ls', '--json']).stdout) as LsPane[];
const sessionsHere = (): { id: string; name: string; panes: number }[] => JSON.parse(local.pane(['session', 'ls', '--json']).stdout);

describe('attaching a joined host\'s session', () => {
  it('tiles its panes here as a local view laid out as there, follows panes opened and closed there, and ends with it', async () => {
    const first = box.pane(['session', 'new', 'build', '--', 'sh']);
    expect(first.status, first.stderr).toBe(0);
    const boxPanes = () => (JSON.parse(box.pane(['ls', '--json']).stdout) as LsPane[]).filter((p) => p.session === buildId());
    const buildId = () => (JSON.parse(box.pane(['session', 'ls', '--json']).stdout) as { id: string; name: string }[]).find((x) => x.name === 'build')!.id;
    const firstN = boxPanes()[0]!.n;
    const split = box.pane(['split', '-t', String(firstN), '-d', 'v', '--', 'sh']);
    expect(split.status, split.stderr).toBe(0);
    await eventually('box:build listed here', () => /^box:build\s+2\s/m.test(local.pane(['session', 'ls']).stdout));

    // Outside any pane (no $PANE_ID): no window is told; a one-time URL opens one on it (the daemon opens its front for it).
    const a = local.pane(['session', 'attach', 'box:build']);
    expect(a.status, a.stderr).toBe(0);
    expect(a.stdout).toMatch(/^box:build \(2 of box’s panes tiled here\)$/m);
    const url = /open it in a browser \(the URL works once\): (\S+)/.exec(a.stdout)?.[1];
    expect(url).toBeDefined();
    expect(new URL(url!).searchParams.get('session')).toBe('box:build');
    const view = () => sessionsHere().find((x) => x.name === 'box:build');
    expect(view()?.panes).toBe(2);
    const tiles = () => localPanes().filter((p) => p.session === view()?.id);
    expect(tiles().every((p) => p.kind === 'remote')).toBe(true);
    expect(tiles().map((p) => `box:${p.attrs['remote.n']}`).sort()).toEqual(boxPanes().map((p) => `box:${p.n}`).sort());
    // Laid out as there: a vertical split of the two.
    const layout = JSON.parse(local.pane(['session', 'save', view()!.id]).stdout).sessions[0].layout;
    expect(layout.type).toBe('split');
    expect(layout.direction).toBe('vertical');

    // Attaching again tiles nothing twice; --host is the same as HOST:NAME.
    const again = local.pane(['session', 'attach', '--host', 'box', 'build']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/its panes were tiled here already/);
    expect(tiles()).toHaveLength(2);

    // A pane opened there is tiled here; one closed there leaves.
    const third = box.pane(['split', '-t', String(firstN), '--', 'sh']);
    expect(third.status, third.stderr).toBe(0);
    await eventually('the new pane tiled here', () => tiles().length === 3);
    expect(box.pane(['close', '-t', String(firstN)]).status).toBe(0);
    await eventually('the closed pane gone here', () => tiles().length === 2 && !tiles().some((p) => p.attrs['remote.n'] === String(firstN)));

    // Closing a tile here leaves its remote pane running there, and the tile closed (past a heartbeat); attaching again brings it back.
    const t0 = tiles()[0]!;
    expect(local.pane(['close', '-t', String(t0.n)]).status).toBe(0);
    expect(boxPanes().map((p) => String(p.n))).toContain(t0.attrs['remote.n']);
    await new Promise((r) => setTimeout(r, 2500));
    expect(tiles()).toHaveLength(1);
    expect(local.pane(['session', 'attach', 'box:build']).stdout).toMatch(/1 of box’s panes tiled here/);
    expect(tiles()).toHaveLength(2);

    // Ended there (from here, by name): the view ends too.
    expect(local.pane(['session', 'kill', 'box:build']).status).toBe(0);
    await eventually('the view ended', () => view() === undefined);
    expect(box.pane(['session', 'ls']).stdout).not.toMatch(/^build\s/m);
  }, 60_000);

  it('moves a host\'s pane between that host\'s sessions (pane move -t HOST:N HOST:NAME, --new), its program running on, and the views here follow', async () => {
    const boxLs = () => JSON.parse(box.pane(['ls', '--json']).stdout) as (LsPane & { pid: number })[];
    const boxSessions = () => JSON.parse(box.pane(['session', 'ls', '--json']).stdout) as { id: string; name: string }[];
    const idThere = (name: string) => boxSessions().find((x) => x.name === name)?.id;
    expect(box.pane(['session', 'new', 'mv1', '--', 'sh']).status).toBe(0);
    const a = boxLs().find((p) => p.session === idThere('mv1'))!;
    const split = box.pane(['split', '-t', String(a.n), '--', 'sh']);
    expect(split.status, split.stderr).toBe(0);
    const b = boxLs().find((p) => p.session === idThere('mv1') && p.n !== a.n)!;
    expect(box.pane(['session', 'new', 'mv2', '--', 'sh']).status).toBe(0);
    await eventually('box:mv2 listed here', () => /^box:mv2\s/m.test(local.pane(['session', 'ls']).stdout));
    for (const name of ['box:mv1', 'box:mv2']) expect(local.pane(['session', 'attach', name]).status).toBe(0);
    const viewTiles = (name: string) => {
      const v = sessionsHere().find((x) => x.name === name);
      return v ? localPanes().filter((p) => p.session === v.id).map((p) => Number(p.attrs['remote.n'])).sort((x, y) => x - y) : [];
    };
    expect(viewTiles('box:mv1')).toEqual([a.n, b.n].sort((x, y) => x - y));
    expect(viewTiles('box:mv2')).toHaveLength(1);

    // Joined into box's mv2: moved there, the same program; the tile leaves the view of mv1 and is tiled in mv2's.
    const moved = local.pane(['move', '-t', `box:${b.n}`, 'box:mv2']);
    expect(moved.status, moved.stderr).toBe(0);
    expect(moved.stdout).toBe('box:mv2\n');
    const after = boxLs().find((p) => p.n === b.n)!;
    expect(after.session).toBe(idThere('mv2'));
    expect(after.pid).toBe(b.pid);
    await eventually('the views follow the move', () => viewTiles('box:mv1').join() === String(a.n) && viewTiles('box:mv2').includes(b.n));
    expect(viewTiles('box:mv2')).toHaveLength(2);

    // A session of its own there, named as given (a host's name escaped as every name it gives).
    const alone = local.pane(['move', '-t', `box:${b.n}`, '--new', 'mv\u001b]0;x\u00073']);
    expect(alone.status, alone.stderr).toBe(0);
    expect(alone.stdout).toBe('box:mv\\e]0;x\\x073\n');
    expect(boxLs().find((p) => p.n === b.n)!.session).toBe(idThere('mv\u001b]0;x\u00073'));
    await eventually('the tile gone from mv2’s view', () => !viewTiles('box:mv2').includes(b.n));

    // Refused, naming why, with nothing moved: a bare name or another host's session for a host's pane, a host's session for a pane here.
    const bare = local.pane(['move', '-t', `box:${b.n}`, 'mv1']);
    expect(bare.status).toBe(1);
    expect(bare.stderr).toMatch(new RegExp(`pane box:${b.n} runs on box, and a program does not change machines: .*name one as box:NAME`));
    expect(local.pane(['move', '-t', `box:${b.n}`, 'elsewhere:mv1']).stderr).toMatch(/does not change machines/);
    const mine = localPanes().find((p) => p.kind !== 'remote')!;
    const here = local.pane(['move', '-t', String(mine.n), 'box:mv1']);
    expect(here.status).toBe(1);
    expect(here.stderr).toMatch(/session box:mv1 is on box, and a program does not change machines/);
    expect(boxLs().find((p) => p.n === b.n)!.session).toBe(idThere('mv\u001b]0;x\u00073'));
    expect(localPanes().find((p) => p.n === mine.n)!.session).toBe(mine.session);
    for (const name of ['mv1', 'mv2', 'mv\u001b]0;x\u00073']) box.pane(['session', 'kill', name]);
  }, 60_000);

  it('waits on a host\'s pane from here: pane wait -t HOST:N until the line sent there has finished, goes quiet, or times out', async () => {
    expect(box.pane(['session', 'new', 'wt', '--', 'sh']).status).toBe(0);
    const n = (JSON.parse(box.pane(['ls', '--json']).stdout) as LsPane[]).find((p) => p.session === (JSON.parse(box.pane(['session', 'ls', '--json']).stdout) as { id: string; name: string }[]).find((x) => x.name === 'wt')!.id)!.n;
    expect(local.pane(['send', '-t', `box:${n}`, 'sleep 1; echo there-$((40+2))']).status).toBe(0);
    const idle = local.pane(['wait', '-t', `box:${n}`, '--json']);
    expect(idle.status, idle.stderr).toBe(0);
    expect(JSON.parse(idle.stdout)).toMatchObject({ pane: n, met: true, already: false, ran: 'sleep', what: 'sleep finished: its shell is at its prompt' });
    expect(box.pane(['screen', '-t', String(n)]).stdout).toMatch(/^there-42$/m);
    expect(local.pane(['wait', '-t', `box:${n}`, '--quiet', '300ms']).stdout).toBe('quiet for 0.3 s\n');
    const late = local.pane(['wait', '-t', `box:${n}`, '--exit', '--timeout', '1s']);
    expect(late.status).toBe(124);
    expect(late.stderr).toMatch(new RegExp(`^pane ${n}: timed out after 1 s: still running$`, 'm'));
    // A pattern is matched here, on the output read through the link.
    const from = (JSON.parse(local.pane(['wait', '-t', `box:${n}`, '--quiet', '300ms', '--json']).stdout) as { offset: number }).offset;
    expect(local.pane(['send', '-t', `box:${n}`, 'echo far-$((6*7))']).status).toBe(0);
    expect(local.pane(['wait', '-t', `box:${n}`, '--match', '^far-42$', '--from', String(from), '--timeout', '10s']).stdout).toBe('far-42\n');
    // From the last key sent there (the host's pty/read says where it was), its echo left out.
    expect(local.pane(['send', '-t', `box:${n}`, '--raw', 'echo farraw-$((6*7))\r']).status).toBe(0);
    expect(local.pane(['wait', '-t', `box:${n}`, '--since-input', '--match', 'farraw-', '--timeout', '10s']).stdout).toBe('farraw-42\n');
    // Longer than one slice (REMOTE_WAIT_SLICE_MS): asked again, met in the second, one answer for the whole wait.
    expect(local.pane(['send', '-t', `box:${n}`, `sleep ${REMOTE_WAIT_SLICE_MS / 1000 + 1.5}`]).status).toBe(0);
    const long = local.pane(['wait', '-t', `box:${n}`, '--json', '--timeout', '60s']);
    expect(long.status, long.stderr).toBe(0);
    const lr = JSON.parse(long.stdout) as { met: boolean; already: boolean; waitedMs: number; ran?: string };
    expect(lr).toMatchObject({ met: true, already: false, ran: 'sleep' });
    expect(lr.waitedMs).toBeGreaterThan(REMOTE_WAIT_SLICE_MS);
    box.pane(['session', 'kill', 'wt']);
  }, 90_000);

  it('refuses a host whose command reaches this very daemon, saying so, and does not dial it again', async () => {
    // `pane serve --stdio` here, with no ssh before it: the daemon the link runs in answers.
    const hosts = path.join(local.home, '.config', 'pane', 'hosts');
    fs.writeFileSync(path.join(hosts, 'me.json'), JSON.stringify({ how: { via: 'command', argv: ['sh', '-c', `exec ${binDirFor(local)}/pane serve --stdio`] } }));
    await eventually('the host file read', () => /^me\s/m.test(local.pane(['host', 'ls']).stdout));
    const r = local.pane(['host', 'connect', 'me']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^pane: host me is not joined: me is this pane server itself, not another one: its command reached the daemon it runs in/);
    expect(local.pane(['host', 'ls']).stdout).toMatch(/^me\s.*disconnected\s.*me is this pane server itself/m);
    // None of its panes shows here twice, and box, another daemon, stays joined.
    expect(local.pane(['ls']).stdout).not.toMatch(/^me:/m);
    expect(local.pane(['host', 'ls']).stdout).toMatch(/^box\s.*connected/m);
    fs.rmSync(path.join(hosts, 'me.json'));
  });

  it('escapes a host\'s control characters in the view\'s name, and names an unknown session or host', async () => {
    const evil = 'x\u001b]0;owned\u0007y';
    expect(box.pane(['session', 'new', evil, '--', 'sh']).status).toBe(0);
    await eventually('the session listed there', () => (JSON.parse(box.pane(['session', 'ls', '--json']).stdout) as { name: string }[]).some((x) => x.name === evil));
    const a = local.pane(['session', 'attach', `box:${evil}`]);
    expect(a.status, a.stderr).toBe(0);
    expect(a.stdout).not.toContain('\u001b');
    expect(sessionsHere().map((x) => x.name)).toContain('box:x\\e]0;owned\\x07y');
    // Listed from here, the host's own name is escaped too.
    expect(local.pane(['session', 'ls']).stdout).not.toContain('\u001b');
    const none = local.pane(['session', 'attach', 'box:nosuch']);
    expect(none.status).not.toBe(0);
    expect(none.stderr).toMatch(/host box: .*nosuch/);
    const nohost = local.pane(['session', 'attach', 'nohost:thing']);
    expect(nohost.status).not.toBe(0);
    expect(nohost.stderr).toMatch(/nohost:thing/);
  }, 60_000);
});
