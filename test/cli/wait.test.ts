// `pane wait` end to end: the real bundle against a real `pane serve`, with real
// shells in real PTYs. A line typed with `pane send` is waited for until it has
// finished (not just until the key was taken), a program's end and status, a quiet
// spell, a line printed (matched here, in the CLI), and each refusal and timeout.
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { servePerFile } from './harness';

const srv = servePerFile();

function ok(...args: string[]): string {
  const r = srv.pane(args);
  if (r.status !== 0) throw new Error(`pane ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}
/** A new pane in session `name` running a shell (or `argv`); its number. */
const fresh = (name: string, ...argv: string[]): string => ok('new', '--session', name, ...(argv.length ? ['--', ...argv] : [])).trim();

/** The exit code, stdout and stderr of a `pane` started without waiting, once it ends. */
function ended(p: ChildProcess): Promise<{ code: number | null; out: string; err: string }> {
  let out = '';
  let err = '';
  p.stdout!.on('data', (b: Buffer) => (out += String(b)));
  p.stderr!.on('data', (b: Buffer) => (err += String(b)));
  return new Promise((r) => p.once('exit', (code) => r({ code, out, err })));
}

describe('pane wait', () => {
  it('waits for the line pane send typed to finish, not for the key to be taken, and times out naming what still runs', () => {
    const n = fresh('w-idle');
    // Nothing runs yet: met at once, and said to have been so already.
    expect(JSON.parse(ok('wait', '-t', n, '--json'))).toMatchObject({ met: true, already: true, what: 'at its prompt: nothing but its shell runs' });
    ok('send', '-t', n, 'sleep 1.5; echo finished-$((40+2))');
    const t0 = Date.now();
    const r = srv.pane(['wait', '-t', n]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('sleep finished: its shell is at its prompt\n');
    expect(JSON.parse(ok('wait', '-t', n, '--json')).already).toBe(true);
    expect(Date.now() - t0).toBeGreaterThan(800);
    expect(ok('screen', '-t', n)).toMatch(/^finished-42$/m);
    // Busy past the timeout: 124, naming the program.
    ok('send', '-t', n, 'sleep 30');
    const late = srv.pane(['wait', '-t', n, '--timeout', '600ms']);
    expect(late.status).toBe(124);
    expect(late.stdout).toBe('');
    expect(late.stderr).toMatch(new RegExp(`^pane ${n}: timed out after 0\\.6 s: sleep still runs\\n$`));
    ok('send', '-t', n, '--raw', '\x03');
    expect(srv.pane(['wait', '-t', n, '--timeout', '10s']).status).toBe(0);
  });

  it('waits for a program to end and exits with its status; an ended one answers at once', () => {
    const n = fresh('w-exit', 'sh', '-c', 'sleep 0.8; exit 3');
    const r = srv.pane(['wait', '-t', n, '--exit']);
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('exited 3\n');
    const json = JSON.parse(ok('wait', '-t', n, '--json')) as { met: boolean; exit: { code: number } };
    expect(json).toMatchObject({ met: true, exit: { code: 3 } });
  });

  it('waits for a quiet spell: returns once the pane stops printing for that long', () => {
    const n = fresh('w-quiet');
    ok('send', '-t', n, 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo tick $i; sleep 0.1; done');
    const r = JSON.parse(ok('wait', '-t', n, '--quiet', '500ms', '--json')) as { met: boolean; what: string; waitedMs: number };
    expect(r).toMatchObject({ met: true, what: 'quiet for 0.5 s' });
    expect(ok('screen', '-t', n)).toMatch(/^tick 12$/m);
    expect(r.waitedMs).toBeGreaterThanOrEqual(500);
  });

  it('--match prints the first line that matches, escape sequences out, a prompt with no newline too; a program that ends first and a timeout are said', async () => {
    const n = fresh('w-match');
    const waiting = ended(srv.spawnPane(['wait', '-t', n, '--match', 'listening on [0-9]+$']));
    await new Promise((r) => setTimeout(r, 400));
    ok('send', '-t', n, "printf 'noise\\n\\033[1;32mlistening on %d\\033[0m\\n' $((8000+80))");
    const got = await waiting;
    expect(got.code, got.err).toBe(0);
    expect(got.out).toBe('listening on 8080\n');
    // A prompt that ends no line.
    const asking = ended(srv.spawnPane(['wait', '-t', n, '--match', '^Pass[w]ord: $', '--timeout', '10s']));
    await new Promise((r) => setTimeout(r, 400));
    ok('send', '-t', n, "printf 'Pass''word: '; read x");
    expect((await asking).out).toBe('Password: \n');
    ok('send', '-t', n, 'x');
    // From an offset: what was printed before the wait began.
    const from = (JSON.parse(ok('wait', '-t', n, '--quiet', '300ms', '--json')) as { offset: number }).offset;
    ok('send', '-t', n, 'echo early-$((2*21))');
    expect(ok('wait', '-t', n, '--match', '^early-42$', '--from', String(from))).toBe('early-42\n');
    // From the last key: a line printed before the wait began is seen, and the command's own echo is not (it holds the pattern too).
    ok('send', '-t', n, 'echo mark-$((6*7)); echo after-mark');
    expect(ok('wait', '-t', n, '--timeout', '10s')).toBe('at its prompt: nothing but its shell runs\n');
    expect(ok('wait', '-t', n, '--match', 'mark-', '--since-input', '--timeout', '5s')).toBe('mark-42\n');
    expect(ok('wait', '-t', n, '--match', 'after-mark', '--since-input', '--timeout', '5s')).toBe('after-mark\n');
    // Text and Enter in one write (--raw): the shell echoes the command after the key, on the line it was typed on, left out.
    ok('send', '-t', n, '--raw', 'echo raw-$((6*7))\r');
    expect(ok('wait', '-t', n, '--timeout', '10s')).toMatch(/finished|at its prompt/);
    expect(ok('wait', '-t', n, '--match', 'raw-', '--since-input', '--timeout', '5s')).toBe('raw-42\n');
    // Nothing matches: the timeout.
    const none = srv.pane(['wait', '-t', n, '--match', 'never-printed', '--timeout', '500ms']);
    expect(none.status).toBe(124);
    expect(none.stderr).toMatch(/timed out after 0\.5 s: no line matching \/never-printed\//);
    // The program ends first.
    const short = fresh('w-match-end', 'sh', '-c', 'sleep 0.5; echo bye');
    const gone = srv.pane(['wait', '-t', short, '--match', 'never', '--timeout', '10s']);
    expect(gone.status).toBe(1);
    expect(gone.stderr).toMatch(/its program ended \(exited 0\) before it printed a line matching \/never\//);
    // Ended before the wait began: what it printed is still read (from 0), and then its end is said at once, not at the timeout.
    expect(ok('wait', '-t', short, '--match', '^bye$', '--from', '0', '--timeout', '10s')).toBe('bye\n');
    const t1 = Date.now();
    const late = srv.pane(['wait', '-t', short, '--match', 'never', '--timeout', '10s']);
    expect(late.status).toBe(1);
    expect(late.stderr).toMatch(/its program ended \(exited 0\)/);
    expect(Date.now() - t1).toBeLessThan(5_000);
  });

  it('refuses what it cannot wait for, by name', () => {
    const n = fresh('w-bad');
    const cases: [string[], number, RegExp][] = [
      [['--idle', '--exit'], 2, /--idle, --exit: wait for one of them at a time/],
      [['--match', '('], 2, /--match: Invalid regular expression/],
      [['--agent', '--state', 'sleeping'], 2, /--state: "sleeping" is not an agent state/],
      [['--state', 'done'], 2, /--state goes with --agent/],
      [['--since-input'], 2, /--since-input goes with --match/],
      [['--match', 'x', '--since-input', '--from', '0'], 2, /since-input.*from|from.*since-input/],
      [['--match', 'x', '--since-input'], 1, new RegExp(`you have sent pane ${n} no key since it started`)],
      [['--quiet', '50ms'], 2, /--quiet: at least 100 ms/],
      [['--quiet', 'soon'], 2, /--quiet: "soon" is not a duration/],
      [['--timeout', '2d'], 2, /--timeout: 2d is longer than a day/],
      [['--agent'], 1, new RegExp(`pane ${n} runs no agent pane knows the state of`)],
      [['-t', '999'], 1, /999/],
    ];
    for (const [flags, code, msg] of cases) {
      const r = srv.pane(['wait', ...(flags[0] === '-t' ? [] : ['-t', n]), ...flags]);
      expect(r.status, flags.join(' ')).toBe(code);
      expect(r.stderr, flags.join(' ')).toMatch(msg);
    }
  });

  it('a pane closed while waited for ends the wait, saying so', async () => {
    const n = fresh('w-closed', 'sleep', '600');
    const waiting = ended(srv.spawnPane(['wait', '-t', n, '--exit']));
    await new Promise((r) => setTimeout(r, 400));
    ok('close', '-t', n);
    const r = await waiting;
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`pane ${n} was closed while it was waited for`));
  });
});
