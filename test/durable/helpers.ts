// Shared by the durability tests: a temp home with a state dir, servers started on it
// in turn (in-process, real PTYs, or the `pane` bin as a process to kill -9), and
// bounded polling.
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkResults, Connection } from '../../kits/client/index';
import { connectUnix } from '../../kits/node/socketTransport';
import { startServer, type RunningServer } from '../../server/main';

export interface Home {
  dir: string;
  stateDir: string;
  env: Record<string, string>;
  start(o?: { warn?: (m: string) => void }): Promise<RunningServer>;
  cleanup(): void;
}

export function home(): Home {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-durable-'));
  const stateDir = path.join(dir, 'state', 'pane');
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', PS1: '$ ', BASH_ENV: '' };
  fs.mkdirSync(path.join(dir, 'config'), { recursive: true });
  return {
    dir,
    stateDir,
    env,
    start: (o = {}) =>
      startServer({ socketPath: null, host: 'testhost', shell: '/bin/bash', env, dataDir: path.join(dir, 'data'), configDir: path.join(dir, 'config'), stateDir, ...(o.warn ? { warn: o.warn } : {}) }),
    cleanup: () => {
      // Programs killed a moment ago (shell history, agent logs) may still be writing: retry, then leave it.
      try {
        fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch (e) {
        console.warn(`could not remove ${dir}: ${(e as Error).message}`);
      }
    },
  };
}

/** Polls `f` until it returns a truthy value; fails naming `what`. */
export async function until<T>(what: string, f: () => T | Promise<T>, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await f();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A `pane serve --state` process on a home, and a client of it, to kill -9 and start again. */
export interface Daemon {
  proc: ChildProcess;
  c: Connection;
  log: () => string;
}

/**
 * Starts the built `pane` bin as `pane serve --state` on `hm` (dist/ must be built),
 * records it in `procs` for the test's own cleanup, and says hello as `client`.
 */
export async function startDaemon(hm: Home, procs: ChildProcess[], client: string, extraEnv: Record<string, string> = {}): Promise<Daemon> {
  const socket = path.join(hm.dir, 's.sock');
  const bin = path.resolve(__dirname, '../../dist/pane.cjs');
  const proc = spawn(process.execPath, [bin, 'serve', '--socket', socket, '--host', 'testhost', '--state', hm.stateDir], {
    env: { ...hm.env, SHELL: '/bin/sh', XDG_CONFIG_HOME: path.join(hm.dir, 'config'), XDG_DATA_HOME: path.join(hm.dir, 'data'), ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  procs.push(proc);
  let out = '';
  proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  await until(`the server to listen (${out})`, () => /listening/.test(out) || proc.exitCode !== null, 30_000);
  if (proc.exitCode !== null) throw new Error(`server exited: ${out}`);
  const c = new Connection(await connectUnix(socket), { checkResult: checkResults });
  await c.hello({ client: { name: client, kind: 'test' }, capabilities: ['read', 'write', 'attach', 'admin'] });
  return { proc, c, log: () => out };
}

/** A `pane serve` of the built bin run as a process on home `hm` (its state dir, a socket in it), to be killed -9 and started again. */
export interface BinDaemon {
  env: Record<string, string>;
  socket: string;
  /** `pane ARGS` against it, waited for. */
  pane(args: string[], o?: { env?: Record<string, string>; input?: string }): SpawnSyncReturns<string>;
  /** Starts it (again); resolves once it listens. */
  start(): Promise<{ proc: ChildProcess; out: () => string }>;
}

export function binDaemon(hm: Home, bin: string, binDir: string, root: string, procs: ChildProcess[]): BinDaemon {
  const socket = path.join(hm.dir, 's.sock');
  const env = { ...hm.env, PATH: `${binDir}:${path.dirname(process.execPath)}:${hm.env.PATH}`, SHELL: '/bin/sh', XDG_CONFIG_HOME: path.join(hm.dir, 'config'), XDG_DATA_HOME: path.join(hm.dir, 'data'), PANE_SOCKET: socket, PANE_APPS_DIR: path.join(root, 'apps') };
  return {
    env,
    socket,
    pane: (args, o = {}) => spawnSync(process.execPath, [bin, ...args], { env: { ...env, ...o.env }, encoding: 'utf8', timeout: 15_000, input: o.input ?? '' }),
    async start() {
      const proc = spawn(process.execPath, [bin, 'serve', '--socket', socket, '--host', 'testhost', '--state', hm.stateDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      procs.push(proc);
      let out = '';
      proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
      await until(`the server to listen: ${out}`, () => /listening/.test(out), 30_000);
      return { proc, out: () => out };
    },
  };
}
