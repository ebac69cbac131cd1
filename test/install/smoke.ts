// Drives an installed `pane` (a prefix's bin/pane, /usr/bin/pane) the way a user
// does: through its shebang, from outside the checkout, against its own server on
// a private socket, HOME and runtime dir, so it never meets the checkout's servers.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv, until, type Run } from '../cli/harness';

/** How long an installed server may take to come up on a loaded machine. */
const SERVE_START_MS = 30_000;

export interface Installed {
  dir: string;
  socket: string;
  env: Record<string, string>;
  /** `BIN --socket S ARGS...` run to its end. */
  pane(args: string[], opts?: { input?: string; env?: Record<string, string> }): Run;
  server: ChildProcess;
  serverLog(): string;
  stop(): Promise<void>;
}

/** A fresh temp dir for one installed run (HOME, runtime dir, socket). */
export function sandboxEnv(dir: string, pathFirst: string): Record<string, string> {
  const runtime = path.join(dir, 'run');
  fs.mkdirSync(runtime, { recursive: true, mode: 0o700 });
  return cleanEnv({ HOME: dir, XDG_RUNTIME_DIR: runtime, PATH: `${pathFirst}:${process.env.PATH ?? '/usr/bin:/bin'}`, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
}

/** Starts `BIN serve` (plus flags) on a private socket, cwd outside the checkout, and waits for it. */
export async function serveInstalled(bin: string, flags: string[] = []): Promise<Installed> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-installed-'));
  const socket = path.join(dir, 's.sock');
  const env = sandboxEnv(dir, path.dirname(bin));
  const server = spawn(bin, ['serve', '--socket', socket, ...flags], { env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr?.on('data', (c) => (log += c));
  // The "listening on SOCKET [and URL]" line comes once everything is up.
  await until(`${bin} serve to listen`, () => / listening on /.test(log) || server.exitCode !== null, SERVE_START_MS);
  if (server.exitCode !== null) throw new Error(`${bin} serve exited ${server.exitCode}: ${log}`);
  const pane: Installed['pane'] = (args, opts = {}) => {
    const r = spawnSync(bin, ['--socket', socket, ...args], { env: opts.env ?? env, cwd: dir, input: opts.input ?? '', encoding: 'utf8', timeout: 30_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return {
    dir,
    socket,
    env,
    pane,
    server,
    serverLog: () => log,
    async stop() {
      if (server.exitCode === null) {
        server.kill('SIGTERM');
        await until('the installed server to stop', () => server.exitCode !== null || server.signalCode !== null, 10_000).catch(() => server.kill('SIGKILL'));
      }
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

/** serve → new → send → screen → ls → stop, through the installed bin; returns what it saw. */
export async function smoke(p: Installed): Promise<void> {
  const ok = (args: string[]): string => {
    const r = p.pane(args);
    if (r.status !== 0) throw new Error(`pane ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return r.stdout;
  };
  const id = ok(['new', '--', 'bash', '--norc', '--noprofile']).trim();
  if (!/^[0-9]+$/.test(id)) throw new Error(`pane new printed ${JSON.stringify(id)}, not a pane id`);
  ok(['send', '-t', id, 'echo installed-$((6*7))']);
  await until('the echo on the new pane’s screen', () => ok(['screen', '-t', id]).includes('installed-42'), 15_000);
  const ls = ok(['ls']);
  if (!new RegExp(`^${id}\\s`, 'm').test(ls)) throw new Error(`pane ls does not list pane ${id}:\n${ls}`);
  ok(['stop']);
  await until('the server to exit after pane stop', () => p.server.exitCode !== null || p.server.signalCode !== null, 15_000);
}
