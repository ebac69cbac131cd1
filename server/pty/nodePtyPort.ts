// The real PtyPort on node-pty (as @lydell/node-pty: the same library with
// prebuilt per-platform binaries, decision 032): bytes in and out (encoding null),
// and an exit that is reported only after the output stream reached its end,
// because on Linux node-pty can lose the last kilobytes at exit (node-pty issue #726).
import { execFile } from 'node:child_process';
import { constants as fsConstants, readFileSync, readlinkSync, readSync, write as fdWrite, writeSync } from 'node:fs';
import { readIntoOwnBuffer } from '../../kits/node/ownReads';
import { statOffMounts } from '../../kits/node/safeFile';
import path from 'node:path';
import * as nodePty from '@lydell/node-pty';
import type { ForegroundInfo, PtyPort, PtyProcess, PtySpawnOptions } from './ptyPort';

/**
 * After the child exited, how long the output must stay quiet (while not paused)
 * before we give up on end-of-file. Needed when a background grandchild still
 * holds the terminal open, so EOF never comes; short enough that such a pane is
 * seen as exited promptly, long enough that a busy event loop is not mistaken
 * for silence (a final check also runs after one more I/O poll).
 */
export const EXIT_IDLE_MS = 150;
/**
 * Upper bound, in unpaused time after the child exited, on waiting for EOF while
 * something keeps writing into the terminal. Time spent paused by flow control
 * does not count: those bytes are waiting for us in the kernel, not lost.
 */
export const EXIT_DRAIN_MAX_MS = 5_000;

type ExitStatus = { code: number | null; signal: number | null };

/**
 * The parts of node-pty's UnixTerminal we reach into (unixTerminal.js). Input is
 * written through `_socket` (@lydell/node-pty 1.1.0, node-pty 1.0) or through a
 * `_writeStream` with its own queue (node-pty 1.1.0): both are read.
 */
interface UnixTerminalInternals {
  _socket?: import('node:net').Socket;
  _fd?: number;
  _writeStream?: { _writeQueue?: { buffer: Buffer; offset: number }[]; dispose?: () => void };
}

/**
 * When the terminal takes no more input (EAGAIN: the program is not reading), how long
 * the next try waits, doubling from the first to the last. Input waiting here is
 * bounded by MAX_INPUT_QUEUE (terminal.ts); the waits keep a program that never reads
 * from costing a core of retries.
 */
export const INPUT_RETRY_FIRST_MS = 1;
export const INPUT_RETRY_MAX_MS = 50;

/** Read size for the final synchronous drain; the kernel holds at most tens of KiB per pty. */
const DRAIN_CHUNK = 64 << 10;

/**
 * Bytes per read from a terminal, into one buffer every pane shares (libuv's own read
 * size; a pty hands over at most a few KiB at once). One is enough: reads run one at a
 * time on the main thread, and each is copied into its pane's ring before the next.
 */
export const PTY_READ_BYTES = 64 << 10;
let sharedReadBuffer: Buffer | null = null;
const ptyReadBuffer = (): Buffer => (sharedReadBuffer ??= Buffer.allocUnsafe(PTY_READ_BYTES));

export class NodePtyPort implements PtyPort {
  spawn(opts: PtySpawnOptions): PtyProcess {
    checkCwd(opts.cwd);
    const file = resolveProgram(opts.file, opts.env.PATH ?? process.env.PATH ?? '', opts.cwd);
    let p: nodePty.IPty;
    try {
      p = nodePty.spawn(file, opts.args, {
        name: opts.env.TERM ?? 'xterm-256color',
        cols: opts.cols,
        rows: opts.rows,
        cwd: opts.cwd,
        env: opts.env,
        encoding: null,
      });
    } catch (e) {
      throw new Error(`cannot start ${opts.file}: ${(e as Error).message}`, { cause: e });
    }
    return new NodePtyProcess(p);
  }
}

class NodePtyProcess implements PtyProcess {
  readonly pid: number;
  private dataCbs: ((d: Buffer) => void)[] = [];
  private exitCbs: ((s: ExitStatus) => void)[] = [];
  private status: ExitStatus | null = null;
  private eof = false;
  private reported = false;
  private isPaused = false;
  /** Reads that came while paused, delivered at resume (at most one: reading stops after it). */
  private held: Buffer[] = [];
  private bytesSeen = 0;
  private drainTimer: NodeJS.Timeout | null = null;
  private forceDestroy: (() => void) | null = null;

  constructor(private readonly p: nodePty.IPty) {
    this.pid = p.pid;
    // encoding: null delivers Buffers; the typings say string. Only until the reads below are our own.
    p.onData((d) => this.deliver(d as unknown as Buffer));
    const sock = (p as unknown as UnixTerminalInternals)._socket;
    if (sock) readIntoOwnBuffer(sock, ptyReadBuffer(), (chunk) => this.ownRead(chunk));
    p.onExit(({ exitCode, signal }) => {
      this.status = signal ? { code: null, signal } : { code: exitCode, signal: null };
      this.finish();
    });
    this.guardSocket();
  }

  /**
   * Two ways the tail gets lost, both closed here:
   * 1. libuv (libuv#4992, unfixed in Node 20) takes POLLHUP after a partial read
   *    as end-of-file, while a Linux pty master may still hold data: on 'end' we
   *    read the fd dry ourselves before the stream closes it.
   * 2. node-pty, on the child's exit, waits only 200 ms for its read stream to
   *    close, then destroys it with whatever the kernel still holds (all of it
   *    if paused). We defer that destroy until the stream ends by itself (EIO or
   *    EOF once every writer closed the terminal), or until the output stayed
   *    quiet while flowing (EXIT_IDLE_MS), or EXIT_DRAIN_MAX_MS.
   */
  private guardSocket(): void {
    const internals = this.p as unknown as UnixTerminalInternals;
    const sock = internals._socket;
    if (!sock || typeof sock.destroy !== 'function') return; // another node-pty: keep its own behaviour
    sock.once('close', () => {
      this.eof = true;
      // Input still queued (the child stopped reading) would be written to a closed, maybe reused, fd.
      const ws = internals._writeStream;
      if (Array.isArray(ws?._writeQueue)) ws._writeQueue.length = 0;
      ws?.dispose?.();
      this.dropInput();
      this.finish();
    });
    const fd = internals._fd;
    if (typeof fd === 'number') sock.once('end', () => this.drainFd(fd));
    const destroy = sock.destroy.bind(sock);
    this.forceDestroy = () => {
      this.forceDestroy = null;
      destroy();
    };
    sock.destroy = ((err?: Error) => {
      // Stream internals destroy with an error (EIO) or after 'end'; let those through.
      if (err !== undefined || sock.readableEnded || sock.destroyed || !this.forceDestroy) return destroy(err);
      this.watchDrain(); // node-pty's post-exit timer: wait for the real end instead
      return sock;
    }) as typeof sock.destroy;
  }

  /** Reads what the kernel still holds after a premature EOF; stops at EIO (all writers gone) or EAGAIN. */
  private drainFd(fd: number): void {
    const buf = Buffer.allocUnsafe(DRAIN_CHUNK);
    for (;;) {
      let n = 0;
      try {
        n = readSync(fd, buf, 0, buf.byteLength, null);
      } catch {
        return;
      }
      if (n <= 0) return;
      this.deliver(Buffer.from(buf.subarray(0, n)));
    }
  }

  private watchDrain(): void {
    if (this.drainTimer || this.eof) return;
    let flowingMs = 0;
    let lastSeen = this.bytesSeen;
    const tick = () => {
      this.drainTimer = null;
      if (this.eof || !this.forceDestroy) return;
      if (!this.isPaused) flowingMs += EXIT_IDLE_MS;
      const quiet = !this.isPaused && this.bytesSeen === lastSeen;
      lastSeen = this.bytesSeen;
      if (flowingMs >= EXIT_DRAIN_MAX_MS) return this.forceDestroy();
      if (!quiet) return void (this.drainTimer = setTimeout(tick, EXIT_IDLE_MS));
      // A timer can fire before the poll phase reads bytes that arrived while the
      // loop was busy; look once more after that phase.
      setImmediate(() => {
        if (this.eof || !this.forceDestroy) return;
        if (this.bytesSeen === lastSeen && !this.isPaused) this.forceDestroy();
        else this.drainTimer = setTimeout(tick, EXIT_IDLE_MS);
      });
    };
    this.drainTimer = setTimeout(tick, EXIT_IDLE_MS);
  }

  private finish(): void {
    if (this.reported || !this.status) return;
    // Without access to the socket we cannot see EOF; node-pty's own exit is all we have.
    if (!this.eof && this.forceDestroy) return;
    this.reported = true;
    if (this.drainTimer) clearTimeout(this.drainTimer);
    this.drainTimer = null;
    const s = this.status;
    for (const cb of this.exitCbs) cb(s);
  }

  /** Output to every onData reader, counted for the exit's drain watch. */
  private deliver(buf: Buffer): void {
    this.bytesSeen += buf.byteLength;
    for (const cb of this.dataCbs) cb(buf);
  }

  onData(cb: (data: Buffer) => void): void {
    this.dataCbs.push(cb);
  }

  onExit(cb: (status: ExitStatus) => void): void {
    this.exitCbs.push(cb);
  }

  write(data: string | Buffer): void {
    // Once the stream closed its fd, a write would hit EBADF (or a reused fd number).
    if (this.status || this.eof) return;
    const fd = (this.p as unknown as UnixTerminalInternals)._fd;
    // Typed for strings, but handed to the terminal's socket as is: bytes go through unchanged.
    if (typeof fd !== 'number') return void this.p.write(data as string);
    // Our own queue, written to the (non-blocking) master fd: the library's socket
    // writes to a pty master retry EAGAIN in a loop on the main thread (libuv's
    // blocking-writes fallback for a tty it cannot reopen), so 64 KiB to a program in
    // raw mode that stopped reading froze the server and every pane (issue 23).
    const bytes = Buffer.from(data); // a copy: the caller's bytes may be a view into a reused read buffer
    if (bytes.byteLength === 0) return;
    this.input.push({ bytes, at: 0 });
    this.inputQueued += bytes.byteLength;
    if (!this.inputBusy) this.writeInput(fd);
  }

  private readonly input: { bytes: Buffer; at: number }[] = [];
  private inputQueued = 0;
  /** A write is in flight or a retry is waiting. */
  private inputBusy = false;
  private inputRetryMs = 0;

  private writeInput(fd: number): void {
    this.inputBusy = true;
    if (this.nonBlocking(fd)) {
      // Written here and now: the master is non-blocking, so a full terminal answers
      // EAGAIN at once instead of blocking. A keystroke then reaches the program in
      // this turn of the loop, not after a trip through libuv's thread pool and back
      // (~0.1-0.3 ms of every echo on a loaded 2-core machine; bench: keystroke echo).
      for (let head = this.input[0]; head && !this.status && !this.eof; head = this.input[0]) {
        let n: number;
        try {
          n = writeSync(fd, head.bytes, head.at, head.bytes.byteLength - head.at);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return this.dropInput();
          return this.retryInput(fd);
        }
        this.took(head, n);
      }
      this.inputBusy = false;
      return;
    }
    const head = this.input[0];
    if (!head || this.status || this.eof) {
      this.inputBusy = false;
      return;
    }
    fdWrite(fd, head.bytes, head.at, head.bytes.byteLength - head.at, null, (err, n) => {
      if (this.eof) return this.dropInput(); // the fd closed meanwhile: nothing more goes to it
      if (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return this.dropInput();
        return this.retryInput(fd);
      }
      this.took(head, n);
      this.writeInput(fd);
    });
  }

  /** EAGAIN: the program is not reading; try again after a wait that doubles up to INPUT_RETRY_MAX_MS. */
  private retryInput(fd: number): void {
    this.inputRetryMs = Math.min(INPUT_RETRY_MAX_MS, this.inputRetryMs ? this.inputRetryMs * 2 : INPUT_RETRY_FIRST_MS);
    setTimeout(() => this.writeInput(fd), this.inputRetryMs).unref();
  }

  private took(head: { bytes: Buffer; at: number }, n: number): void {
    this.inputRetryMs = 0;
    head.at += n;
    this.inputQueued -= n;
    if (head.at >= head.bytes.byteLength) this.input.shift();
  }

  /** Whether the master fd is O_NONBLOCK (node-pty makes it so), read once from /proc; elsewhere or unsure, writes stay in the thread pool. */
  private nonBlockingFd: boolean | null = null;
  private nonBlocking(fd: number): boolean {
    if (this.nonBlockingFd !== null) return this.nonBlockingFd;
    try {
      const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
      this.nonBlockingFd = flags !== undefined && (parseInt(flags, 8) & fsConstants.O_NONBLOCK) !== 0;
    } catch {
      this.nonBlockingFd = false;
    }
    return this.nonBlockingFd;
  }

  private dropInput(): void {
    this.input.length = 0;
    this.inputQueued = 0;
    this.inputBusy = false;
  }

  queuedInput(): number {
    if (this.inputQueued > 0 || this.input.length > 0) return this.inputQueued;
    const internals = this.p as unknown as UnixTerminalInternals;
    const q = internals._writeStream?._writeQueue;
    if (!Array.isArray(q)) return internals._socket?.writableLength ?? 0;
    let n = 0;
    for (const t of q) n += (t.buffer?.byteLength ?? 0) - (t.offset ?? 0);
    return n;
  }

  resize(cols: number, rows: number): void {
    if (this.status || this.eof) return; // resizing a closed terminal throws in node-pty
    try {
      this.p.resize(cols, rows);
    } catch {
      // The fd can close between the child's exit and our hearing of it.
    }
  }

  pause(): void {
    this.isPaused = true;
    this.p.pause();
  }

  resume(): void {
    this.isPaused = false;
    for (const chunk of this.held.splice(0)) this.deliver(chunk);
    // Those bytes may have paused the stream again (a client that fell behind).
    if (!this.isPaused) this.p.resume();
  }

  /**
   * A read into the shared buffer: passed on, or, while paused, copied to wait for
   * resume() with reading stopped. Only the first read can land while paused: pause()
   * stops the handle, but not one that has not begun reading (node-pty's stream starts
   * on the tick after its creation).
   */
  private ownRead(chunk: Buffer): boolean {
    if (!this.isPaused) {
      this.deliver(chunk);
      return true;
    }
    this.held.push(Buffer.from(chunk));
    return false;
  }

  kill(signal?: string): void {
    if (this.status) return; // the pid may already belong to someone else
    this.p.kill(signal);
  }

  foregroundPgid(): number | null {
    return readTpgid(this.pid);
  }

  foreground(): ForegroundInfo | null {
    if (this.status) return null;
    const pgid = readTpgid(this.pid);
    return pgid === null ? null : processInfo(pgid);
  }

  readsLines(): Promise<boolean | undefined> {
    const pts = (this.p as unknown as { ptsName?: string }).ptsName;
    if (this.status || !pts) return Promise.resolve(undefined);
    // Node has no tcgetattr: stty reads the terminal's modes (it opens the pts without making it anyone's controlling terminal).
    return new Promise((resolve) => {
      execFile('stty', ['-F', pts, '-a'], { timeout: STTY_TIMEOUT_MS, encoding: 'utf8' }, (err, out) => {
        if (err) return resolve(undefined);
        const words = out.split(/\s+/);
        resolve(words.includes('icanon') ? true : words.includes('-icanon') ? false : undefined);
      });
    });
  }
}

/** How long reading a terminal's modes with stty may take (a few ms; more means a loaded machine, and the caller waits its own way). */
const STTY_TIMEOUT_MS = 500;

/** A process's command (argv[0]'s base name, else /proc comm) and cwd, read from /proc; null when it is gone. */
export function processInfo(pid: number): ForegroundInfo | null {
  let command = '';
  try {
    const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    // A login shell's argv[0] is "-bash".
    command = path.basename(argv0.replace(/^-/, ''));
  } catch {
    return null;
  }
  if (command === '') {
    try {
      command = readFileSync(`/proc/${pid}/comm`, 'latin1').trim();
    } catch {
      return null;
    }
  }
  let cwd: string | null = null;
  try {
    cwd = readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    // another user's process, or gone: the cwd stays unknown
  }
  return { pgid: pid, command, cwd };
}

/**
 * The command of `pid`'s newest child (argv[0]'s base name, as processInfo reads it), from
 * /proc/PID/task/PID/children: null when it has no child, undefined when that cannot be
 * told (no such file: another OS, a kernel without it, the process gone).
 */
export function newestChildCommand(pid: number): string | null | undefined {
  let kids: string[];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim().split(' ').filter((k) => k !== '');
  } catch {
    return undefined;
  }
  if (kids.length === 0) return null;
  const info = processInfo(Number(kids.at(-1)));
  return info && info.command !== '' ? info.command : undefined;
}

/** Field 8 (tpgid) of /proc/<pid>/stat: the foreground process group of the process's terminal. */
export function readTpgid(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // comm (field 2) is in parentheses and may hold spaces or ')': split after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const tpgid = Number(rest[5]); // rest[0] is field 3 (state)
    return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : null;
  } catch {
    return null;
  }
}

function checkCwd(cwd: string): void {
  const r = statOffMounts(cwd);
  // On pane's own /pane mount this thread must not look (the mount would ask this
  // server, which waits in the stat); the child's own chdir can.
  if (r === 'mount') return;
  if (r === null || !r.st.isDirectory()) throw new Error(`cannot start in ${cwd}: not a directory`);
}

/**
 * node-pty forks first and execs later, so a missing program shows up as a
 * child printing "execvp(3) failed" and exiting 1. Resolve it here instead, so
 * the caller gets a clear error and no pane full of noise.
 */
export function resolveProgram(file: string, pathEnv: string, cwd: string): string {
  // Looked at without touching pane's own /pane mount (see checkCwd); a program there is not found.
  const executable = (p: string) => {
    const r = statOffMounts(p);
    return r !== null && r !== 'mount' && r.st.isFile() && (r.st.mode & 0o111) !== 0;
  };
  if (file.includes('/')) {
    const abs = path.resolve(cwd, file);
    if (!executable(abs)) throw new Error(`cannot start ${file}: no executable file at ${abs}`);
    return abs;
  }
  for (const dir of pathEnv.split(':')) {
    if (!dir) continue;
    const candidate = path.resolve(cwd, dir, file);
    if (executable(candidate)) return candidate;
  }
  throw new Error(`cannot start ${file}: not found in PATH`);
}
