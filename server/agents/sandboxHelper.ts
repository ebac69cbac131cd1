// The daemon's sandbox helper (`pane sandboxd`, decision 049): one long-lived
// process holding @anthropic-ai/sandbox-runtime and its proxies, which every agent
// pane's launcher asks for its wrapped command (kits/node/sandboxHelper.ts). Started
// at the first agent launch, or at the daemon's start when agents exist (so the
// first launch of the day does not wait ~300 ms for it); ended with the daemon
// (its stdin closes). When it dies, a launch starts it again; the running agents
// lose the network its proxies carried (closed, not open), until their next launch.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { helperSocket, helperTmp, type WrapRequest } from '../../kits/node/sandboxHelper';
import { endableChild, endProcess } from '../../kits/node/ending';

/** Lines of the helper's stderr kept for the daemon's log at most, each cut to this many characters. */
const MAX_LOG_LINE = 300;
/**
 * How long the daemon's stop waits for the helper after SIGTERM (it closes its proxies
 * and exits in tens of ms), and again after SIGKILL: a stop must end.
 */
export const HELPER_STOP_MS = 2_000;

export class SandboxHelper {
  private child: ChildProcess | null = null;
  readonly socket: string;
  /** Its TMPDIR (helperTmp): the runtime's proxy sockets, bound into every sandbox. */
  readonly tmp: string;

  constructor(
    private readonly entry: string,
    runtime: string,
    private readonly env: Record<string, string | undefined>,
    private readonly log: (line: string) => void,
    /** Whether the walls of its wraps let programs make unix sockets (`pane sandboxd --unix-sockets`). */
    readonly sockets = false,
  ) {
    this.socket = helperSocket(runtime, process.pid, sockets);
    this.tmp = helperTmp(runtime, process.pid, sockets);
  }

  /** Starts the helper unless it runs; returns its socket (a launcher waits for it to listen). */
  ensure(): string {
    if (this.child !== null && this.child.exitCode === null && this.child.signalCode === null) return this.socket;
    try {
      fs.mkdirSync(path.dirname(this.socket), { recursive: true, mode: 0o700 });
      fs.mkdirSync(this.tmp, { recursive: true, mode: 0o700 });
    } catch {
      // the runtime dir is made by the daemon at start; the helper says what it cannot do
    }
    // The socket of a helper that died without closing it (killed, crashed) would answer a launcher's
    // wait for it at once, then refuse its connection: this daemon's alone (its pid names it), it goes now,
    // so launchers wait for the new helper to listen.
    try {
      fs.unlinkSync(this.socket);
    } catch {
      // none left
    }
    const child = spawn(process.execPath, [this.entry, 'sandboxd', '--listen', this.socket, ...(this.sockets ? ['--unix-sockets'] : [])], {
      stdio: ['pipe', 'ignore', 'pipe'],
      env: { ...this.env, TMPDIR: this.tmp } as NodeJS.ProcessEnv,
      // Its own session: a Ctrl-C or hang-up at the terminal the daemon was started from is the daemon's to act on,
      // never the helper's (whose end ends every agent's sandbox); it ends when the daemon says so or goes (its stdin).
      detached: true,
    });
    this.child = child;
    let err = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => {
      err += d;
      for (let nl = err.indexOf('\n'); nl >= 0; nl = err.indexOf('\n')) {
        this.log(`sandbox helper: ${err.slice(0, Math.min(nl, MAX_LOG_LINE))}`);
        err = err.slice(nl + 1);
      }
    });
    child.on('error', (e) => this.log(`sandbox helper: cannot start: ${e.message}`));
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      if (code !== 0 && signal !== 'SIGTERM') this.log(`sandbox helper: ended (${signal ?? `exit ${code}`}); the next agent launch starts it again`);
    });
    return this.socket;
  }

  /**
   * `req` with a prewrap token, the helper asked to make its wrap now: while the pane's
   * process starts, and its launcher's own ask (which names the token) then collects it
   * (~15-20 ms of a launch). `req` as it is when the helper does not listen yet (it is
   * starting: the launcher waits for it and asks); an ask the helper never had is
   * wrapped then, as before. The connection says nothing back; its errors are the
   * launcher's to meet.
   */
  prewrap(req: WrapRequest): WrapRequest {
    if (this.child === null || !fs.existsSync(this.socket)) return req;
    const ahead: WrapRequest = { ...req, prewrap: crypto.randomBytes(16).toString('base64url') };
    const conn = net.connect(this.socket);
    conn.on('error', () => undefined);
    conn.end(`prewrap ${ahead.prewrap} ${JSON.stringify(ahead)}\n`);
    conn.resume();
    return ahead;
  }

  /** Ends the helper (the daemon stops); resolves at its exit, SIGKILLing it past HELPER_STOP_MS. */
  stop(): Promise<void> {
    const c = this.child;
    this.child = null;
    // Its TMPDIR goes with it: the proxies' sockets in it listen no more.
    const clear = () => fs.rmSync(this.tmp, { recursive: true, force: true });
    if (c === null || c.exitCode !== null || c.signalCode !== null) return Promise.resolve().then(clear);
    c.stdin?.end();
    return endProcess(endableChild(c), { first: 'SIGTERM', then: 'SIGKILL', graceMs: HELPER_STOP_MS, afterMs: HELPER_STOP_MS }).then(clear);
  }
}
