// Finding the per-user daemon on its socket, or starting it (detached, not the caller's
// child, logging to $XDG_STATE_HOME/pane/daemon.log): the window (electron/start.ts) and
// `pane serve --stdio` (server/stdioServe.ts) both attach to it this way, so panes
// outlive the window and the connection alike.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Endpoint } from '../kits/protocol/endpoint';
import { isStoppedFault } from '../kits/protocol/fault';
import { dial } from '../kits/node/endpoint';
import { reachServer } from '../kits/node/cli/reach';
import { checkStateDir, stateDir } from '../kits/node/paths';
import { daemonEnv } from '../kits/node/daemonEnv';
import { distDir } from './distDir';

/** How long a freshly spawned daemon may take to answer on its socket (resurrecting many panes included). */
const DAEMON_START_MS = 20_000;
/** How often a starting daemon's socket is tried: a connect to a missing socket costs microseconds, and each wait is start-up latency. */
const DAEMON_POLL_MS = 10;
/** The log is moved aside to daemon.log.1 past this size when a daemon starts, so it cannot grow without end. */
const LOG_ROTATE_BYTES = 5 << 20;

/** Whether a pane server accepts connections at `where` (a socket path or endpoint; a stale socket file does not). */
export async function serverAnswers(where: string | Endpoint): Promise<boolean> {
  try {
    (await dial(typeof where === 'string' ? { kind: 'unix', path: where } : where, { dropOnClose: true })).close('only looking');
    return true;
  } catch {
    return false;
  }
}

/**
 * How long a server that closed a watcher's connection may take to answer again before
 * the watcher calls it stopped: a daemon restarted in place (systemd's Restart=, a crash
 * under the user unit) answers well inside it; one that was stopped never does.
 */
export const SERVER_BACK_MS = 5_000;
/** How often that is tried: a connect to a missing socket costs microseconds. */
const SERVER_BACK_POLL_MS = 100;

/**
 * Settles once the pane server at `where` has stopped: a connection held open to it
 * (one hello, then silence: no timer here, no wakeup while it runs) closes, and either
 * the server said as it closed that a client stopped it (`pane stop`: for good, so at
 * once, with its words) or it does not answer again within SERVER_BACK_MS (undefined).
 * A server that answers but refuses the watcher's hello cannot be watched: then this
 * never settles, as before there was a watch.
 */
export async function serverStopped(where: string | Endpoint): Promise<string | undefined> {
  // A path is a socket's, as serverAnswers reads it (never parsed as an endpoint's string form).
  const endpoint: Endpoint = typeof where === 'string' ? { kind: 'unix', path: where } : where;
  for (;;) {
    try {
      const c = await reachServer(endpoint, { client: { name: 'pane-start', kind: 'other' }, capabilities: ['read'] });
      let said: string | undefined;
      c.onError((e) => {
        if (isStoppedFault(e)) said = e.message;
      });
      await new Promise<void>((resolve) => c.onClose(() => resolve()));
      if (said !== undefined) return said;
    } catch {
      if (await serverAnswers(endpoint)) return new Promise<never>(() => undefined);
    }
    // A beat first: the server that just closed the watch is still taking its socket down.
    await sleep(SERVER_BACK_POLL_MS);
    if (!(await answersWithin(endpoint, SERVER_BACK_MS, SERVER_BACK_POLL_MS))) return undefined;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Whether the daemon at `socketPath` runs code an update replaced on disk since it started
 * (server/codeOnDisk.ts), so a window of the new code would talk to the old server; false
 * when it cannot say (an older daemon, no answer).
 */
export async function daemonCodeReplaced(socketPath: string): Promise<boolean> {
  try {
    const c = await reachServer({ kind: 'unix', path: socketPath }, { client: { name: 'pane-start', kind: 'other' }, capabilities: ['read'] });
    try {
      return (await c.call('server/info', {})).codeReplaced === true;
    } finally {
      c.close();
    }
  } catch {
    return false;
  }
}

/**
 * Whether a pane server answers at `where` within `ms`: tried at once, then every
 * `pollMs`; `gaveUp` (checked after each try) ends the wait early, as a started
 * daemon that has exited.
 */
async function answersWithin(where: string | Endpoint, ms: number, pollMs: number, gaveUp: () => boolean = () => false): Promise<boolean> {
  for (const end = Date.now() + ms; ; await sleep(pollMs)) {
    if (await serverAnswers(where)) return true;
    if (gaveUp() || Date.now() >= end) return false;
  }
}

/** dist/start.mjs: this bundle, or the entry beside the split chunk (dist/chunks/) or other bundle this code runs from. */
export function startScript(): string {
  const self = fileURLToPath(import.meta.url);
  return path.basename(self) === 'start.mjs' ? self : path.join(distDir(), 'start.mjs');
}

export function daemonLog(): string {
  return path.join(stateDir(), 'daemon.log');
}

export interface Ensured {
  started: boolean;
  pid?: number;
  log: string;
}

/** The daemon on `socketPath`: the running one, or a new one started detached and waited for. */
export async function ensureDaemon(socketPath: string): Promise<Ensured> {
  const log = daemonLog();
  if (await serverAnswers(socketPath)) return { started: false, log };
  // The daemon refuses a state directory that is not the user's own 0700 one; say so here, before writing its log there.
  const wrong = checkStateDir(path.dirname(log));
  if (wrong) throw new Error(wrong);
  try {
    const st = fs.lstatSync(log);
    // Not a regular file (a link, a FIFO): moved off, never followed or waited on; the daemon's sweep sets it aside.
    if (!st.isFile()) fs.renameSync(log, `${log}.not-a-file-${Date.now()}`);
    else if (st.size > LOG_ROTATE_BYTES) fs.renameSync(log, `${log}.1`);
  } catch {
    // no log yet
  }
  const fd = fs.openSync(log, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK, 0o600);
  const child = spawn(process.execPath, [startScript(), '--daemon', '--socket', socketPath], {
    detached: true, // its own session: a closing terminal or window does not take it along
    stdio: ['ignore', fd, fd],
    // Inside Electron, execPath is Electron itself: this makes it run the script as Node.
    env: daemonEnv(process.env, process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
  });
  fs.closeSync(fd);
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? 1;
  });
  child.unref();
  if (await answersWithin(socketPath, DAEMON_START_MS, DAEMON_POLL_MS, () => exited !== null)) {
    return { started: true, ...(child.pid !== undefined ? { pid: child.pid } : {}), log };
  }
  const tail = readTail(log, 800);
  throw new Error(`the pane daemon did not start${exited !== null ? ` (exit ${exited})` : ` within ${DAEMON_START_MS / 1000} s`}; its log ${log} ends:\n${tail}`);
}

function readTail(file: string, bytes: number): string {
  try {
    const t = fs.readFileSync(file, 'utf8');
    return t.slice(-bytes).trimEnd();
  } catch {
    return '(no log)';
  }
}

