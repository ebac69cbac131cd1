// End-to-end harness for the `pane` CLI: builds dist/pane.cjs, runs a real
// `pane serve` on a temp socket, and runs the CLI as child processes against it,
// executing the bin itself (through its #!/usr/bin/env node line) as a user's shell does.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built `pane`, run directly: its shebang is part of what is tested. */
export const BIN = path.join(ROOT, 'dist/pane.cjs');

/** The environment of the test run, minus anything that would aim the CLI at another server. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'PANE_ID' && k !== 'PANE_SOCKET') env[k] = v;
  return { ...env, SHELL: '/bin/bash', ...extra };
}

/** Builds the bundle if any source is newer (scripts/build.mjs checks mtimes). */
export function buildOnce(): void {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--quiet'], { cwd: ROOT, stdio: 'inherit' });
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface Served {
  dir: string;
  socket: string;
  proc: ChildProcess;
  /** Runs `pane --socket S ARGS...` and waits for it. */
  pane(args: string[], opts?: { input?: string | Buffer; env?: Record<string, string> }): Run;
  /** Starts `pane --socket S ARGS...` without waiting (watch, output --follow). */
  spawnPane(args: string[]): ChildProcess;
  stop(): Promise<void>;
}

/** Starts `pane serve` on a fresh socket and waits until it answers; `env` adds to the server's environment (the person's). */
export async function serve(flags: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-cli-e2e-'));
  const socket = path.join(dir, 's.sock');
  const proc = spawn(BIN, ['serve', '--socket', socket, ...flags], { env: cleanEnv({ ...env, HOME: dir }), stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  let log = '';
  proc.stderr?.on('data', (c) => (log += c));
  const pane: Served['pane'] = (args, opts = {}) => {
    const r = spawnSync(BIN, ['--socket', socket, ...args], {
      env: opts.env ?? cleanEnv(),
      input: opts.input ?? '',
      encoding: 'utf8',
      timeout: 20_000,
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  // Ready is the server's own word (serveCommand.ts prints it once it listens and has its first
  // session), not the socket's file: bind() makes the file a moment before listen(), and a loaded
  // machine can run a test's connect in between (flowHold's setup once met ECONNREFUSED in CI).
  const deadline = Date.now() + 15_000;
  while (!log.includes(` listening on ${socket}`)) {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`pane serve did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    dir,
    socket,
    proc,
    pane,
    spawnPane: (args) => spawn(BIN, ['--socket', socket, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] }),
    async stop() {
      if (proc.exitCode === null) {
        const gone = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        // Its stop waits for its programs: up to KILL_GRACE_MS + EXIT_AFTER_KILL_MS for one that ignores SIGHUP.
        await Promise.race([gone, new Promise((r) => setTimeout(r, 8_000))]);
        if (proc.exitCode === null) proc.kill('SIGKILL');
      }
      // Shells being killed may still write into the temp home for a moment: retry, then leave it.
      for (let i = 0; ; i++) {
        try {
          fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
          return;
        } catch (e) {
          if (i >= 2) return void process.stderr.write(`test harness: left ${dir}: ${(e as Error).message}\n`);
          await new Promise((r) => setTimeout(r, 300));
        }
      }
    },
  };
}

/**
 * One `pane serve` for a whole test file: built once, started before the file's
 * tests, stopped after them. Use it from tests (not at load time, before it runs).
 */
export function servePerFile(flags: string[] = []): Served {
  let s: Served | undefined;
  beforeAll(async () => {
    buildOnce();
    s = await serve(flags);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
  });
  const need = (): Served => {
    if (!s) throw new Error('the server starts in beforeAll: use it from tests');
    return s;
  };
  return {
    get dir() {
      return need().dir;
    },
    get socket() {
      return need().socket;
    },
    get proc() {
      return need().proc;
    },
    pane: (args, opts) => need().pane(args, opts),
    spawnPane: (args) => need().spawnPane(args),
    stop: () => need().stop(),
  };
}

/** Polls `check` until it returns a value, or fails naming what it waited for. */
export async function until<T>(what: string, check: () => T | undefined | false, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let lineSeq = 0;

/**
 * Runs one command line in the shell of pane `pane` (typed with `pane send` through `run`) and
 * returns its output and exit status: what it printed between a start mark (`MnXB`, printed by
 * printf, so the echoed line never holds it whole however the screen wraps that line) and the end
 * mark. Where the output ran past what the body keeps, the whole body before the end mark.
 */
export async function lineIn(run: (args: string[]) => { stdout: string; stderr: string }, pane: number | string, cmd: string, ms = 20_000): Promise<{ out: string; status: number }> {
  const mark = `M${++lineSeq}X`;
  const sent = run(['send', '-t', String(pane), `printf '%sB\\n' ${mark}; ${cmd}; echo ${mark}=$?`]);
  if (sent.stderr !== '') throw new Error(`pane send -t ${pane}: ${sent.stderr}`);
  const end = new RegExp(`${mark}=([0-9]+)`);
  const body = await until(`${mark} from the shell of pane ${pane}`, () => {
    const b = run(['cat', `/${pane}/body`]).stdout;
    return end.test(b) && b;
  }, ms);
  const m = end.exec(body)!;
  const before = body.slice(0, m.index);
  const start = before.lastIndexOf(`${mark}B`);
  return { out: (start < 0 ? before : before.slice(start + `${mark}B`.length)).trim(), status: Number(m[1]) };
}

/** Collects a child's stdout and exit. */
export function collect(child: ChildProcess): { out: () => string; err: () => string; exit: Promise<number | null> } {
  let out = '';
  let err = '';
  child.stdout?.on('data', (c) => (out += c));
  child.stderr?.on('data', (c) => (err += c));
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { out: () => out, err: () => err, exit };
}

/** `pane ARGS` against `srv` that must succeed: its stdout, or an error naming the command and its stderr. */
export function okWith(srv: Pick<Served, 'pane'>): (...args: string[]) => string {
  return (...args) => {
    const r = srv.pane(args);
    if (r.status !== 0) throw new Error(`pane ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return r.stdout;
  };
}

/** A fresh session NAME on `srv` running bash without rc files, so prompts are predictable; its pane's number. */
export function bashSession(srv: Pick<Served, 'pane'>, name: string): string {
  return okWith(srv)('new', '--session', name, '--', 'bash', '--norc', '--noprofile').trim();
}
