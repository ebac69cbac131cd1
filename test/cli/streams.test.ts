// The stream commands end to end against a real server and real shells: send
// reaches the PTY, output reads by offset and follows to the exit, screen shows
// the screen, watch prints events as JSON lines.
import { describe, expect, it } from 'vitest';
import { bashSession, collect, okWith, servePerFile, until } from './harness';

const srv = servePerFile();

const ok = okWith(srv);
const shell = (name: string): string => bashSession(srv, name);

describe('pane send', () => {
  it('types the text and presses Enter, so the shell runs it', async () => {
    const n = shell('snd1');
    ok('send', '-t', n, 'echo', 'marker-$((6*7))');
    await until('the shell to print marker-42', () => ok('output', '-t', n).includes('marker-42'));
  });

  it('leaves Enter off with --no-newline, and sends bytes untranslated with --raw', async () => {
    const n = shell('snd2');
    ok('send', '-t', n, '--no-newline', 'echo part-$((1+1))');
    ok('send', '-t', n, '--raw', '--', '-and-more\r');
    await until('the joined line to run', () => ok('output', '-t', n).includes('part-2-and-more'));
  });

  it('reads the bytes from stdin with -', async () => {
    const n = shell('snd3');
    const r = srv.pane(['send', '-t', n, '-'], { input: 'echo from-$((2*3))-stdin\n' });
    expect(r.status).toBe(0);
    await until('stdin text to run', () => ok('output', '-t', n).includes('from-6-stdin'));
  });

  it('can stop a running program with a raw Ctrl-C', async () => {
    const n = shell('snd4');
    ok('send', '-t', n, 'sleep 600; echo after-sleep');
    await until('sleep to start', () => ok('output', '-t', n).includes('sleep 600'));
    ok('send', '-t', n, '--raw', '\x03');
    ok('send', '-t', n, 'echo interrupted-$((3*3))');
    await until('the shell to be back', () => ok('output', '-t', n).includes('interrupted-9'));
    expect(ok('output', '-t', n)).not.toMatch(/\nafter-sleep\r\n/);
  });
});

describe('pane output', () => {
  it('prints everything held, and from an offset exactly the suffix', async () => {
    const n = ok('new', '--session', 'out1', '--', 'printf', 'abcdefghij').trim();
    await until('the program to finish', () => ok('output', '-t', n) === 'abcdefghij' || undefined);
    expect(ok('output', '-t', n, '--from', '4')).toBe('efghij');
    expect(ok('output', '-t', n, '--from', '10')).toBe('');
  });

  it('writes bytes unchanged, escape sequences and all', async () => {
    const n = ok('new', '--session', 'out2', '--', 'printf', '\\033[31mred\\033[0m').trim();
    await until('the program to finish', () => ok('output', '-t', n).includes('red'));
    expect(ok('output', '-t', n)).toBe('\x1b[31mred\x1b[0m');
  });

  it('--follow streams new output and exits 0 when the pane’s program exits, losing nothing', async () => {
    const n = ok('new', '--session', 'out3', '--', 'sh', '-c', 'echo one; sleep 1; echo two; sleep 0.3; printf three').trim();
    const f = collect(srv.spawnPane(['output', '-t', n, '--follow']));
    expect(await f.exit).toBe(0);
    expect(f.out()).toBe('one\r\ntwo\r\nthree');
    // stdout is the program's bytes alone; how it ended goes to stderr (it had stopped without a word).
    expect(f.err()).toMatch(/^pane: \[sh exited 0 at [0-9:]+\]\n$/);
  });

  it('--follow --status exits with the program’s status, so a script can tell a failed build', async () => {
    const n = ok('new', '--session', 'out6', '--', 'sh', '-c', 'sleep 0.5; echo building; exit 3').trim();
    const f = collect(srv.spawnPane(['output', '-t', n, '--follow', '--status']));
    expect(await f.exit).toBe(3);
    expect(f.out()).toBe('building\r\n');
    expect(f.err()).toMatch(/^pane: \[sh exited 3 at [0-9:]+\]\n$/);
    // Killed by a signal: 128+N, as a shell reports it.
    const k = ok('new', '--session', 'out6', '--', 'sh', '-c', 'sleep 0.5; kill -TERM $$').trim();
    const g = collect(srv.spawnPane(['output', '-t', k, '--follow', '--status']));
    expect(await g.exit).toBe(143);
    expect(g.err()).toMatch(/\[sh killed \(SIGTERM\) at /);
    // Without --follow there is no end to report.
    const u = srv.pane(['output', '-t', n, '--status']);
    expect(u.status).toBe(2);
    expect(u.stderr).toMatch(/--status is the status of a program followed to its end: give --follow too/);
  });

  it('--follow on a pane that already exited prints what it held and exits', async () => {
    const n = ok('new', '--session', 'out4', '--', 'printf', 'done').trim();
    await until('the pane to exit', () => ok('ls', '--session', 'out4').includes('exited'));
    const f = collect(srv.spawnPane(['output', '-t', n, '--follow', '--from', '2']));
    expect(await f.exit).toBe(0);
    expect(f.out()).toBe('ne');
  });

  it('--follow stops on Ctrl-C with exit 0', async () => {
    const n = ok('new', '--session', 'out5', '--', 'sh', '-c', 'echo waiting; sleep 600').trim();
    const child = srv.spawnPane(['output', '-t', n, '--follow']);
    const f = collect(child);
    await until('the first line', () => f.out().includes('waiting'));
    child.kill('SIGINT');
    expect(await f.exit).toBe(0);
  });
});

describe('pane screen', () => {
  it('prints the screen as text', async () => {
    const n = shell('scr1');
    ok('send', '-t', n, 'echo screen-$((5*5))');
    await until('the screen to show the result', () => /^screen-25$/m.test(ok('screen', '-t', n)));
  });

  it('ends with how and when the program ended, once it has (not in --ansi, which replays the terminal)', async () => {
    const n = ok('new', '--session', 'scr3', '--', 'sh', '-c', 'echo done-$((4*4)); kill -TERM $$').trim();
    const screen = await until('the exit line', () => {
      const s = ok('screen', '-t', n);
      return /\[sh killed \(SIGTERM\) at \d\d:\d\d:\d\d\]\n$/.test(s) ? s : undefined;
    });
    expect(screen).toMatch(/^done-16\n/m);
    expect(ok('screen', '-t', n, '--ansi')).not.toContain('killed');
  });

  it('prints the serialized terminal state with --ansi', async () => {
    const n = ok('new', '--session', 'scr2', '--', 'printf', '\\033[1mbold\\033[0m').trim();
    await until('the bold text', () => ok('screen', '-t', n).includes('bold'));
    expect(ok('screen', '-t', n, '--ansi')).toMatch(/\x1b\[[0-9;]*1[0-9;]*mbold/);
  });
});

describe('pane watch', () => {
  it('prints each event of the chosen families as one JSON line', async () => {
    const child = srv.spawnPane(['watch', 'pane', 'focus', '--state']);
    const w = collect(child);
    await until('the state line', () => w.out().includes('"event":"state"'));
    const n = ok('new', '--session', 'wt1', '--', 'sleep', '600').trim();
    ok('tag', '-t', n, '--name', 'watched');
    ok('close', '-t', n);
    await until('the close event', () => w.out().includes('"event":"pane/closed"'));
    child.kill('SIGINT');
    expect(await w.exit).toBe(0);
    const lines = w.out().trimEnd().split('\n').map((l) => JSON.parse(l) as { event: string; rev: number; data: Record<string, unknown> });
    expect(lines[0]?.event).toBe('state');
    const events = lines.slice(1);
    for (const e of events) expect(Object.keys(e)).toEqual(['event', 'rev', 'data']);
    const names = events.map((e) => e.event);
    expect(names).toContain('pane/created');
    expect(names).toContain('pane/tag-changed');
    expect(names).toContain('focus/changed');
    expect(names.some((x) => x.startsWith('layout/') || x.startsWith('session/'))).toBe(false);
    const revs = events.map((e) => e.rev);
    expect(revs).toEqual([...revs].sort((a, b) => a - b));
    expect(w.err()).toBe('');
  });

  it('exits quietly when its reader goes away', async () => {
    const child = srv.spawnPane(['watch']);
    const w = collect(child);
    child.stdout?.destroy();
    // It finds its reader gone at its first write. On a loaded machine it may subscribe only after a
    // pane or two were made (their events then never reach it), so panes are made until it has ended.
    for (let i = 0; i < 20 && child.exitCode === null && child.signalCode === null; i++) {
      ok('new', '--session', 'wt2', '--', 'sleep', '600');
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(await w.exit).toBe(0);
    expect(w.err()).toBe('');
  });
});
