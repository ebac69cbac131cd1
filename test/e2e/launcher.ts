// `npm start` as a person runs it, for the suites that drive the launcher itself
// (detach, codeReplaced): a home of its own with "a display", a stand-in browser that
// records the page it was asked to open and exits 0 once told (a closed window), the
// launcher's output, and the detached daemon it starts ended by its pid afterwards.
import { spawn, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pidAlive } from '../../bench/procs';

/** A "browser" that records the page it was asked to open and exits 0 once `close` exists, or once `dir` is gone (a failed test never writes `close`). */
export function fakeBrowser(dir: string): string {
  const file = path.join(dir, 'browser.sh');
  fs.writeFileSync(
    file,
    `#!/bin/sh\nfor a in "$@"; do case "$a" in --app=file://*) cp "\${a#--app=file://}" "${dir}/opened.html";; esac; done\nwhile [ ! -e "${dir}/close" ] && [ -d "${dir}" ]; do sleep 0.05; done\nrm -f "${dir}/close" "${dir}/opened.html"\nexit 0\n`,
    { mode: 0o755 },
  );
  return file;
}

/** The environment of a person whose home is `dir`, with a display and `fakeBrowser` as the browser. */
export function desktopEnv(dir: string, shell = '/bin/bash'): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: dir,
    SHELL: shell,
    LANG: 'C.UTF-8',
    DISPLAY: ':0', // a display is said to exist; the "browser" is the window
    PANE_BROWSER: fakeBrowser(dir),
    XDG_RUNTIME_DIR: path.join(dir, 'run'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_DATA_HOME: path.join(dir, 'data'),
    XDG_STATE_HOME: path.join(dir, 'state'),
  };
}

/** Runs `npm start`'s entry (`start`, a dist/start.mjs); resolves with the process, its output so far, and the page URL the window was given. */
export async function npmStart(start: string, env: NodeJS.ProcessEnv, dir: string): Promise<{ proc: ChildProcess; url: string; out: () => string }> {
  const proc = spawn(process.execPath, [start], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const opened = path.join(dir, 'opened.html');
  const end = Date.now() + 30_000;
  while (!fs.existsSync(opened) || !/url=/.test(fs.readFileSync(opened, 'utf8'))) {
    if (Date.now() > end || proc.exitCode !== null) throw new Error(`no window was opened: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = /url=([^"]+)"/.exec(fs.readFileSync(opened, 'utf8'))![1]!.replace(/&amp;/g, '&');
  return { proc, url, out: () => out };
}

/** Waits (bounded) until the launcher has said `re`: it opens the window while the daemon is still starting, and says how that went after. */
export async function said(out: () => string, re: RegExp): Promise<string> {
  const end = Date.now() + 30_000;
  while (!re.test(out())) {
    if (Date.now() > end) throw new Error(`the launcher never said ${re}: ${out()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return out();
}

/** The process's exit code, whether it has exited already or not yet. */
export function exited(p: ChildProcess): Promise<number | null> {
  return p.exitCode !== null || p.signalCode !== null ? Promise.resolve(p.exitCode) : new Promise((r) => p.once('exit', r));
}

/** `pane stop`, then the daemon the test started (detached) made sure of by its pid, and `dir` removed. */
export async function endDaemon(dir: string, pane: (...args: string[]) => SpawnSyncReturns<string>): Promise<void> {
  pane('stop', '--yes');
  const pidFile = path.join(dir, 'state', 'pane', 'daemon.pid');
  const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : NaN;
  for (let i = 0; pid > 0 && pidAlive(pid) && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
  if (pid > 0 && pidAlive(pid)) process.kill(pid, 'SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
