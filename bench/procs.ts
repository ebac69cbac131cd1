// Bench helpers: a pane server in its own process (as users run it), a client
// over its unix socket, timing of child processes, and RSS readings.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverAnswers } from '../electron/daemon';
import { Connection } from '../kits/client/connection';
import { daemonEnv } from '../kits/node/daemonEnv';
import { connectUnix } from '../kits/node/socketTransport';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const paneBin = path.join(root, 'dist', 'pane.cjs');

/** A minimal environment with its home and config under `dir`: nothing of the user's own pane setup reaches a bench's processes. */
export function isolatedEnv(dir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    LANG: 'C.UTF-8',
    SHELL: '/bin/bash',
    PS1: '$ ',
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_RUNTIME_DIR: path.join(dir, 'run'),
  };
}

export function tmpdir(tag: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `pane-bench-${tag}-`));
}

export interface ServerProc {
  proc: ChildProcess;
  socket: string;
  stop(): Promise<void>;
}

export async function startServerProc(dir: string, extra: string[] = [], env: Record<string, string> = {}): Promise<ServerProc> {
  const socket = path.join(dir, 'bench.sock');
  const proc = spawn(process.execPath, [paneBin, 'serve', '--socket', socket, '--empty', ...extra], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // As the daemon runs (electron/daemon.ts): the bench measures the server users get.
    env: daemonEnv({ ...process.env, HOME: dir, PS1: '$ ', ...env }),
  });
  let err = '';
  proc.stderr!.on('data', (d) => (err += String(d)));
  const deadline = Date.now() + 10_000;
  // The socket file appears at bind(), a moment before listen(): wait until it takes a connection.
  while (!(await serverAnswers(socket))) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`server did not start: ${err}`);
    await sleep(20);
  }
  return {
    proc,
    socket,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
      }),
  };
}

export async function client(socket: string, name = 'bench'): Promise<Connection> {
  // Results are trusted, as the one-shot CLI trusts them: the figures are the protocol's, not zod's.
  const c = new Connection(await connectUnix(socket));
  await c.hello({ client: { name, kind: 'bench' }, capabilities: ['read', 'write', 'attach', 'admin'] });
  return c;
}

/** A process's log kept by a bench, its last `lines` lines on one line (' | ' between them), for an error that says why. */
export function logTail(log: string, lines: number): string {
  return log.trim().split('\n').slice(-lines).join(' | ') || 'nothing';
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Whether a process with this pid runs (one this harness or test started). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every process below `pid` (children, theirs, ...), read from /proc: a server's pane programs. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  for (let todo = [pid]; todo.length > 0; ) {
    const next = children.get(todo.pop()!) ?? [];
    out.push(...next);
    todo.push(...next);
  }
  return out;
}

/** Ends a process this harness or test started, by pid (SIGTERM, SIGKILL after 5 s), and waits until it is gone. */
export async function endPid(pid: number): Promise<void> {
  if (!(pid > 0) || !pidAlive(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; pidAlive(pid); i++) {
    if (i === 100) process.kill(pid, 'SIGKILL');
    await sleep(50);
  }
}

/** Resident set size of a process in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

/**
 * Anonymous resident memory of a process (RssAnon): what it allocated itself (heaps,
 * stacks, buffers), without the pages of its program and libraries, which are shared
 * with every process running them and which the kernel can drop and read again. For
 * the daemon that leaves out Node's own ~40 MiB of code; for tmux, its ~1 MiB.
 */
export function anonOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /RssAnon:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

/**
 * A process's main-thread wakeups so far: its voluntary context switches (each one a
 * sleep of its event loop ended — a timer, a poll, a check with nothing to do).
 */
export function wakeups(pid: number): number {
  return Number(/^voluntary_ctxt_switches:\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8'))?.[1]);
}

export function have(cmd: string, args = ['-V']): boolean {
  return spawnSync(cmd, args).status === 0;
}

/** Wall time of one run of a command, in ms. */
export function timeCommand(cmd: string, args: string[], env?: NodeJS.ProcessEnv): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env: env ?? process.env });
  const t = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${String(r.stderr)}`);
  return t;
}

export function tmux(sock: string, ...args: string[]): string {
  return execFileSync('tmux', ['-L', sock, '-f', '/dev/null', ...args], { encoding: 'utf8' });
}

/**
 * Grows a session's tiles to `count` panes, each new one split off the roomiest tile
 * along its longer side (a cell is about twice as tall as wide), by `split(anchor,
 * direction)`: tiles stay even, and none is halved past what a split leaves
 * (MIN_SPLIT_BODY) as splitting the newest pane again and again soon is. The session's
 * panes come back in the order they were made.
 */
export async function tileEvenly(c: Connection, session: string, count: number, split: (anchor: number, direction: 'horizontal' | 'vertical') => Promise<number>): Promise<number[]> {
  const tiles = async () => (await c.call('session/get', { session })).placements.filter((p) => !p.floating);
  const panes = (await tiles()).map((p) => p.pane);
  while (panes.length < count) {
    const big = (await tiles()).reduce((a, b) => (b.cols * b.rows > a.cols * a.rows ? b : a));
    panes.push(await split(big.pane, big.cols > big.rows * 2 ? 'horizontal' : 'vertical'));
  }
  return panes;
}
