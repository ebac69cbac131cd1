// The state directory's lock, and a daemon that is left alone sleeping. The lock is
// refreshed rarely (LOCK_STALE_MS: its refresh is a disk write and a wakeup), so a
// daemon killed with -9 must not hold its state until the lock goes stale: the next
// daemon finds the socket daemon.socket names silent and takes the state at once, on
// the same socket or another. A live daemon's state is still refused, naming it.
// And an idle daemon (a pane, the hook door, state kept) makes no wakeups of its
// own: no interval polls config files, hosts, agents or deadlines while nothing
// happens (issue 35; tmux's idle server makes none).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { wakeups } from '../../bench/procs';
import { checkResults, Connection } from '../../kits/client/index';
import { connectUnix } from '../../kits/node/socketTransport';
import { LOCK_STALE_MS } from '../../server/persist/service';
import { ensureBuilt } from '../e2e/shell';
import { home, until, type Home } from './helpers';

const BIN = path.resolve(__dirname, '../../dist/pane.cjs');
/** How long the wakeups of an idle daemon are counted. */
const IDLE_SPELL_MS = 10_000;
/** The spell is read in windows this long: a timer that fires every second or faster wakes the daemon in half of them. */
const IDLE_WINDOW_MS = 500;
/**
 * Windows of the spell's 20 in which the daemon's main thread may wake at all. What may
 * fall in them on a busy machine: the heap trimmer's checks (every 4 s for a couple of
 * minutes after start, decision 051) and one of its passes, a lock refresh, a late
 * prompt's output and its flush. Before decision 052 it woke in every window (about 130
 * wakeups in 10 s: config polls, host and agent heartbeats, the hook door's deadline
 * check, each on its own timer). Windows, not context switches: one trimmer pass is a
 * full collection whose helper threads the main thread waits for, 4 to 8 switches in
 * one window on a quiet machine; a loaded CI once counted 25 switches in the spell
 * (cause not seen again: 40 spells beside a CI run here woke at most 10 times, in at
 * most 5 windows). A 1 s interval wakes it in 11 windows.
 */
const IDLE_WINDOWS_MAX = 8;

let h: Home | undefined;
const procs: ChildProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  h?.cleanup();
  h = undefined;
});

interface Served {
  proc: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

/** `pane serve` of the built bin on `hm`'s state, listening on `sock` (a name in its dir); resolves once it listens or exits. */
async function serve(hm: Home, sock: string): Promise<Served> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--socket', path.join(hm.dir, sock), '--host', 'testhost', '--state', hm.stateDir], {
    env: { ...hm.env, SHELL: '/bin/sh', XDG_CONFIG_HOME: path.join(hm.dir, 'config'), XDG_DATA_HOME: path.join(hm.dir, 'data') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  procs.push(proc);
  let out = '';
  proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  await until(`pane serve on ${sock} to listen or exit (${out})`, () => /listening/.test(out) || proc.exitCode !== null, 30_000);
  return { proc, out: () => out, exited };
}

async function connect(hm: Home, sock: string): Promise<Connection> {
  const c = new Connection(await connectUnix(path.join(hm.dir, sock)), { checkResult: checkResults });
  await c.hello({ client: { name: 'lock-test', kind: 'test' }, capabilities: ['read', 'write', 'attach', 'admin'] });
  return c;
}

const killed = (s: Served) => {
  s.proc.kill('SIGKILL');
  return s.exited;
};

describe('the state lock', () => {
  it('names the pid in daemon.pid (a pid file, as ever) and the socket in daemon.socket', async () => {
    ensureBuilt();
    h = home();
    const a = await serve(h, 'a.sock');
    expect(fs.readFileSync(path.join(h.stateDir, 'daemon.pid'), 'utf8')).toBe(`${a.proc.pid}\n`);
    expect(fs.readFileSync(path.join(h.stateDir, 'daemon.socket'), 'utf8')).toBe(`${path.join(h.dir, 'a.sock')}\n`);
  }, 60_000);

  it('passes a daemon killed with -9 to the next at once, on another socket, with its panes', async () => {
    ensureBuilt();
    h = home();
    const a = await serve(h, 'a.sock');
    const c = await connect(h, 'a.sock');
    await c.call('session/new', { name: 'kept' });
    await c.call('state/save', {});
    c.close();
    await killed(a);
    const t0 = Date.now();
    const b = await serve(h, 'b.sock');
    expect(b.proc.exitCode, b.out()).toBe(null);
    // Long before the lock could go stale: the silence of a.sock said its holder was gone.
    expect(Date.now() - t0).toBeLessThan(LOCK_STALE_MS / 4);
    const c2 = await connect(h, 'b.sock');
    expect((await c2.call('session/list', {})).sessions.map((s) => s.name)).toContain('kept');
    c2.close();
  }, 60_000);

  it('refuses a live daemon’s state to a second on another socket, naming the first', async () => {
    ensureBuilt();
    h = home();
    const a = await serve(h, 'a.sock');
    const b = await serve(h, 'b.sock');
    expect(await b.exited).not.toBe(0);
    expect(b.out()).toMatch(new RegExp(`in use by another pane daemon \\(pid ${a.proc.pid}\\)`));
    expect(a.proc.exitCode).toBe(null);
    const c = await connect(h, 'a.sock');
    expect((await c.call('session/list', {})).sessions.length).toBeGreaterThan(0);
    c.close();
  }, 60_000);
});

describe('an idle daemon', () => {
  it(`wakes in at most ${IDLE_WINDOWS_MAX} of ${IDLE_SPELL_MS / IDLE_WINDOW_MS} windows of ${IDLE_WINDOW_MS} ms with a pane, the hook door and its state`, async () => {
    ensureBuilt();
    h = home();
    const a = await serve(h, 'a.sock');
    const c = await connect(h, 'a.sock');
    // Settled: the shell's prompt printed and flushed, the window of a new client passed.
    await c.call('pane/list', {});
    c.close();
    await new Promise((r) => setTimeout(r, 3_000));
    const perWindow: number[] = [];
    let last = wakeups(a.proc.pid!);
    for (let i = 0; i < IDLE_SPELL_MS / IDLE_WINDOW_MS; i++) {
      await new Promise((r) => setTimeout(r, IDLE_WINDOW_MS));
      const now = wakeups(a.proc.pid!);
      perWindow.push(now - last);
      last = now;
    }
    const woken = perWindow.filter((n) => n > 0).length;
    expect(woken, `the daemon's main thread woke in ${woken} of ${perWindow.length} windows of ${IDLE_WINDOW_MS} ms with nothing to do (wakeups in each: ${perWindow.join(' ')})`).toBeLessThanOrEqual(IDLE_WINDOWS_MAX);
  }, 60_000);
});
