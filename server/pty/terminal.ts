// One terminal pane's runtime: its process (through the PtyPort), the byte ring
// that remembers its output, the screen model fed off the hot path, and the
// stream to attached clients with flow control. The server core drives it.
import { isSignalKey } from '../../kits/protocol/flow';
import { ATTACH_HISTORY_MAX } from '../../kits/protocol/gridLimits';
import { ECHO_WAIT_MS } from '../metrics/latency';
import { PaneFault } from '../../kits/protocol/error';
import type { ScreenSnapshot } from '../../kits/protocol/pty';
import { MAX_COLS, MAX_ROWS } from './sizeLimits';
import { Fanout, type SinkState, type StreamSink } from './fanout';
import type { ForegroundInfo, PtyPort, PtyProcess } from './ptyPort';
import { ByteRing, DEFAULT_RING_BYTES } from './ring';
import type { ScreenHost } from './screenHost';
import { endProcess, PendingSet } from '../../kits/node/ending';

export type { StreamSink } from './fanout';

/**
 * Output is coalesced for up to BATCH_MS (VS Code's TerminalDataBufferer uses
 * the same 5 ms) or BATCH_BYTES, whichever comes first: a flood then costs one
 * frame per client and one worker message per ~64 KiB instead of one per 4 KiB
 * read. But the first read after a quiet spell (no batch pending, the last flush
 * BATCH_MS or more ago) goes out at once: that is a keystroke's echo, and the
 * wait bought nothing there (keystroke → echo parsed in the page: ~9 ms median
 * with it, ~3.5 ms without). A burst costs one extra small frame at its start,
 * then batches as before. The first read after input goes out at once too, however
 * recent the last flush: it is that input's answer (a key typed 1 ms after the last
 * echo waited the whole 5 ms; a Ctrl-C's quiet in a flood, a batch).
 */
export const BATCH_MS = 5;
export const BATCH_BYTES = 64 << 10;
/**
 * After a signal key (isSignalKey: ^C, ^\, ^Z typed), every read goes out at once
 * for this long instead of being batched. What follows ^C in a flood is the
 * program's last few KiB and then the shell's prompt; batched, the prompt waited up
 * to BATCH_MS behind the flood's last read (in traces of Ctrl-C under `yes` the
 * prompt reached the page 3-10 ms after the block before it). Long enough for the
 * program to die and the shell to print on a loaded machine; a program that ignores
 * the signal costs its clients at most this much of unbatched frames.
 */
export const SIGNAL_ANSWER_MS = 50;
/**
 * Most bytes of one pane handed to the screen worker and not yet parsed. The
 * worker's queue is shared by all panes, so this bounds how long a flood in one
 * pane delays another's snapshot: ~125 ms at xterm's slowest parse rate (4 MiB/s).
 */
export const SCREEN_INFLIGHT = 512 << 10;
/** Bytes handed to the worker per message when catching up from the ring. */
const SCREEN_CHUNK = 128 << 10;
/**
 * Beyond that, the screen model's lag waits in the ring, so bursts run at PTY
 * speed. A sustained flood outruns xterm's parser (4-22 MiB/s against 50+ MiB/s
 * from the PTY), and tmux, which parses in C, would then be faster. So instead of
 * pausing the program to the parser's pace, when the unparsed part outgrows 3/4
 * of the ring the screen model skips ahead and parses only the newest 1/2 of the
 * ring (1 MiB by default). What it loses is the middle of the flood, which a
 * 10,000-line scrollback could not hold anyway unless lines average over ~100
 * bytes; what it may get wrong is a mode switched inside the skipped part (e.g.
 * an alternate screen entered mid-flood). Clients still receive every byte: only
 * flow-controlled clients ever pause the PTY.
 */
const SCREEN_LAG_HIGH = 3 / 4;
/**
 * While a window's xterm is being streamed a pane, the screen model is fed only
 * after this much quiet, or when a snapshot or read needs it (issue 14): the
 * page already parses every byte, and parsing each twice at once on a 2-core
 * machine takes CPU from the page. A flood longer than the ring's lag bound is
 * then parsed from its tail only (the skip below), which is all the screen shows.
 * Short enough that a read after output stops rarely has to wait for a catch-up.
 */
export const SCREEN_DEFER_MS = 100;
const SCREEN_LAG_LOW = 1 / 2;
/**
 * Principals whose last input a pane remembers (`pane wait --since-input` looks after
 * the caller's own): the person, the agents and guests typing into one pane are a few;
 * past this the one that typed least recently is forgotten, and is told it sent nothing.
 */
export const INPUT_PRINCIPALS_MAX = 32;
/**
 * A pane quiet this long, with every client and the screen model holding all of its
 * output, gives back its ring (issue 14: twenty idle panes each held the ~1 MiB their
 * last flood grew it to). What is kept is RING_IDLE_KEEP: a reconnecting window
 * re-attaches with a snapshot, not from the ring, so only `pty/read` of older offsets
 * notices (it reads a gap, as after any flood). Long enough that a burst and a pause
 * in one program's output do not reallocate the ring each time.
 */
export const RING_IDLE_MS = 10_000;
/** What a quiet pane keeps of its ring: its last screenful or two of output. */
export const RING_IDLE_KEEP = 64 << 10;
/** Scrollback lines an attach snapshot carries unless the attach asks fewer (kits/protocol/gridLimits.ts says why). */
export const ATTACH_HISTORY = ATTACH_HISTORY_MAX;
/**
 * Input bytes that may wait for a program that does not read them (the kernel
 * takes ~4 KiB, node-pty queues the rest in our memory). 1 MiB is a very large
 * paste; past it a write is refused with a `busy` error instead of growing the
 * server without bound.
 */
export const MAX_INPUT_QUEUE = 1 << 20;
/** After SIGHUP on restart or close, how long a program may take before SIGKILL. */
export const KILL_GRACE_MS = 2_000;
/**
 * After that SIGKILL, how long a close (and so the daemon's stop) still waits to hear
 * of the exit: a program in uninterruptible sleep (a dead NFS mount) cannot be waited
 * for without bound, and a stop must end.
 */
export const EXIT_AFTER_KILL_MS = 1_000;
/**
 * Put into the stream when a pane restarts, so the new program does not inherit
 * a dead one's modes: leave the alternate screen (1047: 1049's cursor restore would put
 * the cursor at the top-left, and the new program's first lines over the old output),
 * soft reset (DECSTR), new line.
 * It goes through the ring like output, so every view sees the same bytes.
 */
const RESTART_RESET = '\x1b[?1047l\x1b[!p\r\n';

export interface TerminalLaunch {
  program: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

export interface TerminalOptions {
  n: number;
  launch: TerminalLaunch;
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  port: PtyPort;
  screen: ScreenHost;
  ringBytes?: number;
  onOutput?: (end: number) => void;
  /** Seconds from input written to the program to its next output (its echo), within ECHO_WAIT_MS. */
  onEcho?: (seconds: number) => void;
  onExit?: (s: { code: number | null; signal: number | null }) => void;
  onTitle?: (t: string) => void;
  /** BEL, or (with `via`) a desktop notification the program asked for (OSC 9/99/777), with its text. */
  onBell?: (via?: 'osc9' | 'osc99' | 'osc777', text?: string) => void;
  /** OSC 7 from the program: the raw file:// URI of its working directory. */
  onCwd?: (uri: string) => void;
  onSpawn?: (pid: number) => void;
  /** A monotonic clock in ms (default performance.now); injected by tests. */
  now?: () => number;
  /** How long a client may hold a pause without acking (default ACK_STALL_MS, fanout.ts). */
  ackStallMs?: number;
  /** A client (by sink id) stopped acknowledging and no longer pauses this terminal. */
  onStall?: (sinkId: string) => void;
}

export interface AttachResult {
  snapshot?: ScreenSnapshot;
  /** The offset the first output frame to this sink starts at. */
  from: number;
  /** True when the asked offset had already left the ring. */
  gap: boolean;
  streamStart: number;
  streamEnd: number;
}

export interface ReadResult {
  from: number;
  to: number;
  gap: boolean;
  data: Buffer;
  streamStart: number;
  streamEnd: number;
}

export class Terminal {
  readonly n: number;
  private proc: PtyProcess | null = null;
  private readonly ring: ByteRing;
  private readonly fanout: Fanout;
  private readonly batchBytes: number;
  private flushed = 0;
  private batchTimer: NodeJS.Timeout | null = null;
  /** When output last went out (clock ms); an output after BATCH_MS of quiet is not held back. */
  private lastFlush = -Infinity;
  private readonly now: () => number;
  private ptyPaused = false;
  /** Stream offset up to which output was handed to the screen worker. */
  private screenPos = 0;
  /** Bytes the screen model skipped during floods (see SCREEN_LAG_HIGH). */
  screenSkipped = 0;
  private readonly lagHigh: number;
  /** Gives the ring back once the pane has been quiet RING_IDLE_MS (see there). */
  private idleTimer: NodeJS.Timeout | null = null;
  /** Pending deferred screen feed (see SCREEN_DEFER_MS). */
  private screenTimer: NodeJS.Timeout | null = null;
  private readonly lagLow: number;
  private disposed = false;
  /** A process retired by a restart whose respawn failed: its exit is then the pane's exit. */
  private orphan: PtyProcess | null = null;
  private cols: number;
  private rows: number;

  constructor(private readonly o: TerminalOptions) {
    this.n = o.n;
    this.cols = Math.min(o.cols, MAX_COLS);
    this.rows = Math.min(o.rows, MAX_ROWS);
    this.now = o.now ?? (() => performance.now());
    this.ring = new ByteRing(o.ringBytes ?? DEFAULT_RING_BYTES);
    // A ring smaller than a batch would drop bytes before they were ever sent.
    this.batchBytes = Math.max(1, Math.min(BATCH_BYTES, this.ring.capacity >> 1));
    this.lagHigh = Math.floor(this.ring.capacity * SCREEN_LAG_HIGH);
    this.lagLow = Math.floor(this.ring.capacity * SCREEN_LAG_LOW);
    this.fanout = new Fanout(o.n, this.ring, () => this.updatePause(), {
      now: this.now,
      ...(o.ackStallMs !== undefined ? { stallMs: o.ackStallMs } : {}),
      onStall: (id) => this.disposed || o.onStall?.(id),
    });
    o.screen.open(o.n, {
      cols: this.cols,
      rows: this.rows,
      onTitle: (t) => this.disposed || o.onTitle?.(t),
      onBell: (via, text) => this.disposed || o.onBell?.(via, text),
      onCwd: (uri) => this.disposed || o.onCwd?.(uri),
      onBacklog: () => this.feedSoon(),
    });
  }

  get pid(): number | null {
    return this.proc?.pid ?? null;
  }
  get running(): boolean {
    return this.proc !== null;
  }
  /** Whether the PTY is paused (a client or the screen model is behind). */
  get paused(): boolean {
    return this.ptyPaused;
  }
  /** The terminal's foreground process group (what the user is running in it), where the OS tells. */
  foregroundPgid(): number | null {
    return this.proc?.foregroundPgid() ?? null;
  }
  /** The foreground process group's command and cwd, where the OS tells; null when nothing runs. */
  /** Whether its program reads whole lines (the kernel's line editor) rather than each key; undefined where that cannot be told. */
  readsLines(): Promise<boolean | undefined> {
    return this.proc?.readsLines?.() ?? Promise.resolve(undefined);
  }

  foreground(): ForegroundInfo | null {
    return this.proc?.foreground() ?? null;
  }
  get streamStart(): number {
    return this.ring.streamStart;
  }
  get streamEnd(): number {
    return this.ring.streamEnd;
  }

  /** Spawns the program; throws a clear Error when it cannot be started. */
  start(): void {
    if (this.disposed) throw new Error(`terminal ${this.n} is closed`);
    if (this.proc) throw new Error(`terminal ${this.n} is already running`);
    this.spawn();
  }

  /**
   * Puts bytes into the pane's stream as if the program had printed them (restored
   * history, a resurrection banner): through the ring, so every view sees the same.
   */
  show(data: string | Uint8Array): void {
    if (this.disposed) return;
    const bytes = Buffer.from(data);
    // Restored history can outgrow the screen model's lag bound (a colour history
    // over ~1.5 MiB): handed over a batch at a time, none of it is skipped. The ring
    // keeps its newest part, as of any output; a window attaches with a snapshot.
    for (let at = 0; at < bytes.byteLength; at += this.batchBytes) {
      this.onData(bytes.subarray(at, at + this.batchBytes));
      this.flush();
      this.catchUp(true);
    }
  }

  /**
   * Input for the program; throws a `busy` PaneFault when MAX_INPUT_QUEUE bytes
   * already wait. With none running it is dropped: what keys for an ended program
   * mean (its rerun prompt) is decided before they get here (model/input.ts).
   */
  write(data: string | Uint8Array, by?: string): void {
    const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (!this.proc) return;
    this.checkInput(bytes.byteLength);
    this.proc.write(bytes);
    this.lastInputAt = Date.now();
    if (by !== undefined) {
      // Newest last, so the first is the one least recently typing.
      this.inputEnds.delete(by);
      this.inputEnds.set(by, this.ring.streamEnd);
      if (this.inputEnds.size > INPUT_PRINCIPALS_MAX) this.inputEnds.delete(this.inputEnds.keys().next().value!);
    }
    this.echoFrom ??= this.now();
    this.answerDue = true;
    if (isSignalKey(bytes)) this.answerUntil = this.now() + SIGNAL_ANSWER_MS;
  }

  /** Input was written since the last read: the next read is its answer (an echo), flushed at once. */
  private answerDue = false;
  /** Until then (this.now()) every read is flushed at once: a signal key's answer (SIGNAL_ANSWER_MS). */
  private answerUntil = -Infinity;

  /** When input waiting for its echo was written (this.now()), or null: the first key of a burst counts. */
  private echoFrom: number | null = null;

  /** When a key (or any input) last reached the program: output right after it is its echo, not work (the agents' observer). */
  lastInputAt = 0;
  /** The stream's end when each principal (principalLabel) last typed here: what was printed after it is what their input brought (`pane wait --since-input`). */
  private readonly inputEnds = new Map<string, number>();

  /** The stream's end when `by` last typed into this pane, or null if they have not (or were forgotten, INPUT_PRINCIPALS_MAX). */
  inputEndOf(by: string): number | null {
    return this.inputEnds.get(by) ?? null;
  }

  /**
   * Throws a `busy` PaneFault when `bytes` more input would pass MAX_INPUT_QUEUE: asked
   * before the input is even decoded (pane/input), so refused input costs no buffer.
   */
  checkInput(bytes: number): void {
    const queued = this.proc?.queuedInput?.() ?? 0;
    if (queued + bytes <= MAX_INPUT_QUEUE) return;
    throw new PaneFault(
      'busy',
      `pane ${this.n} is not reading its input: ${queued} bytes wait already, and ${bytes} more would pass the limit of ${MAX_INPUT_QUEUE} (MAX_INPUT_QUEUE); nothing was written. Send again once its program reads (or interrupt it)`,
      { subject: String(this.n), reason: 'input queue full' },
    );
  }

  resize(cols: number, rows: number): void {
    if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 1 || rows < 1) {
      throw new Error(`terminal size must be positive integers, not ${cols}x${rows}`);
    }
    cols = Math.min(cols, MAX_COLS);
    rows = Math.min(rows, MAX_ROWS);
    this.cols = cols;
    this.rows = rows;
    this.flush();
    this.feedScreen(true); // bytes printed at the old size are parsed at the old size
    this.proc?.resize(cols, rows);
    this.o.screen.resize(this.n, cols, rows);
  }

  kill(signal = 'SIGHUP'): void {
    this.proc?.kill(signal);
  }

  /** The argv it runs, as the server wrapped it (sandbox, shell integration). */
  get launch(): TerminalLaunch {
    return this.o.launch;
  }

  /** Runs `launch` from now on, starting it at once (a failed agent resume falls back to a fresh start so). */
  relaunch(launch: TerminalLaunch): void {
    this.o.launch = launch;
    this.restart();
  }

  /** Kills the program if it runs and starts it again; the stream's offsets carry on. */
  restart(): void {
    if (this.disposed) throw new Error(`terminal ${this.n} is closed`);
    const old = this.proc;
    if (old) this.retire(old);
    this.onData(Buffer.from(RESTART_RESET));
    this.flush();
    try {
      this.spawn();
    } catch (e) {
      this.orphan = old;
      throw e;
    }
  }

  read(from: number | undefined, maxBytes: number): ReadResult {
    const r = this.ring.read(from ?? this.ring.streamStart, maxBytes);
    return { ...r, streamStart: this.ring.streamStart, streamEnd: this.ring.streamEnd };
  }

  /**
   * Streams output to `sink`. snapshot: the screen first, then output from the
   * snapshot's offset; from: output from `from` (default: the oldest held byte).
   * The first frame goes out on a later turn, after the caller sent its reply.
   */
  async attach(sink: StreamSink, o: { mode: 'snapshot' | 'from'; from?: number; flowControl: boolean; flowStart?: 'min' | 'max'; history?: number }): Promise<AttachResult> {
    if (this.disposed) throw new Error(`terminal ${this.n} is closed`);
    const s = this.fanout.add(sink, o.flowControl, o.flowStart);
    let snapshot: ScreenSnapshot | undefined;
    let pos: number;
    if (o.mode === 'snapshot') {
      this.flush(); // the snapshot then covers all the screen model has been handed
      this.catchUp(); // what it has not parsed yet the client gets from the ring, after the snapshot
      try {
        snapshot = await this.o.screen.snapshot(this.n, { history: Math.min(o.history ?? ATTACH_HISTORY, ATTACH_HISTORY) });
      } catch (e) {
        this.fanout.drop(s);
        throw e;
      }
      pos = snapshot.offset;
    } else {
      pos = Math.min(Math.max(0, o.from ?? this.ring.streamStart), this.ring.streamEnd);
    }
    const gap = pos < this.ring.streamStart;
    setImmediate(() => this.fanout.start(s, pos));
    return {
      ...(snapshot ? { snapshot } : {}),
      from: gap ? this.ring.streamStart : pos,
      gap,
      streamStart: this.ring.streamStart,
      streamEnd: this.ring.streamEnd,
    };
  }

  /** Stops streaming to a sink and releases any pause it held. */
  detach(sinkId: string): void {
    this.fanout.remove(sinkId);
  }

  /** Counts bytes the sink's client has parsed; returns how many it still has not. */
  ack(sinkId: string, bytes: number): number {
    return this.fanout.ack(sinkId, bytes);
  }

  /** The screen now, with everything printed so far; `textOnly` for reads that print text (`pane screen`, the body). */
  snapshot(o: { textOnly?: boolean } = {}): Promise<ScreenSnapshot> {
    this.flush();
    this.catchUp(true); // a read (pane screen, body) shows everything printed so far
    return this.o.screen.snapshot(this.n, o.textOnly ? { textOnly: true } : {});
  }

  /**
   * Ends the program (SIGHUP, then SIGKILL), the streams and the screen; no callbacks after this.
   * Resolves once every program this terminal ran has exited (one a restart retired included),
   * at most KILL_GRACE_MS + EXIT_AFTER_KILL_MS on: the daemon's stop waits for it, so a
   * program that ignores SIGHUP, or takes its time over its exit, does not outlive `pane stop`.
   */
  dispose(): Promise<void> {
    if (this.disposed) return this.ended();
    this.disposed = true;
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    if (this.screenTimer) clearTimeout(this.screenTimer);
    this.screenTimer = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.fanout.dispose();
    if (this.proc) this.retire(this.proc);
    this.o.screen.close(this.n);
    return this.ended();
  }

  /** Programs retired and not yet exited (a restart's old one, the closed pane's). */
  private readonly exiting = new PendingSet();

  private ended(): Promise<void> {
    return this.exiting.settled();
  }

  private spawn(): void {
    const { launch } = this.o;
    const env: Record<string, string> = {
      ...this.o.env,
      ...(launch.env ?? {}),
      PANE_ID: this.o.env.PANE_ID ?? String(this.n),
      ...(this.o.env.PANE_SOCKET !== undefined ? { PANE_SOCKET: this.o.env.PANE_SOCKET } : {}),
      TERM: 'xterm-256color',
      COLORTERM: 'truecolor',
    };
    const proc = this.o.port.spawn({
      file: launch.program,
      args: launch.args,
      cwd: launch.cwd ?? this.o.cwd,
      env,
      cols: this.cols,
      rows: this.rows,
    });
    this.proc = proc;
    this.ptyPaused = false;
    this.orphan = null;
    proc.onData((d) => {
      if (this.proc !== proc) return;
      this.noteEcho();
      this.onData(d);
    });
    proc.onExit((s) => {
      if (this.proc === proc || this.orphan === proc) this.onProcExit(s);
    });
    this.o.onSpawn?.(proc.pid);
    this.updatePause(); // a client that stopped acking before the restart still holds the stream
  }

  /** Lets go of a process: its output and exit no longer concern the pane (dispose() waits for its exit). */
  private retire(p: PtyProcess): void {
    if (this.proc === p) this.proc = null;
    this.ptyPaused = false;
    p.resume(); // so it can drain and reach its exit
    // The timers stay referenced: a daemon stopping waits on them, and its loop may hold nothing else.
    this.exiting.add(endProcess({ kill: (sig) => p.kill(sig), onExit: (cb) => p.onExit(() => cb()) }, { first: 'SIGHUP', then: 'SIGKILL', graceMs: KILL_GRACE_MS, afterMs: EXIT_AFTER_KILL_MS }));
  }

  /** The program's output after input: its echo, timed (what is written into the pane by pane itself is not). */
  private noteEcho(): void {
    if (this.echoFrom === null) return;
    const ms = this.now() - this.echoFrom;
    this.echoFrom = null;
    if (ms <= ECHO_WAIT_MS) this.o.onEcho?.(ms / 1000);
  }

  private onData(d: Buffer): void {
    this.ring.append(d);
    const answer = this.answerDue || this.now() < this.answerUntil;
    this.answerDue = false;
    if (this.ring.streamEnd - this.flushed >= this.batchBytes || answer) this.flush();
    else if (this.batchTimer === null && this.now() - this.lastFlush >= BATCH_MS) this.flush(); // quiet until now: an echo
    else this.batchTimer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  private flush(): void {
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    const end = this.ring.streamEnd;
    if (end === this.flushed || this.disposed) return;
    const batch = this.ring.read(this.flushed, end - this.flushed);
    this.flushed = end;
    this.lastFlush = this.now();
    this.fanout.release(end, batch);
    this.feedSoon();
    if (this.ring.allocated > RING_IDLE_KEEP) this.armIdle();
    this.o.onOutput?.(end);
  }

  /**
   * Feeds the screen now, or, while a window streams this pane, after SCREEN_DEFER_MS of quiet.
   * A flood the window streams is not parsed here meanwhile, not even past the lag bound: the
   * screen model only skips ahead (issue 14; profiled, decision 022: feeding it there took ~5% of
   * a core from the page and the PTY). A read, an attach or the quiet catch-up parses the tail.
   */
  private feedSoon(): void {
    if (!this.fanout.streaming) return this.catchUp();
    this.skipLag();
    if (this.screenTimer) clearTimeout(this.screenTimer);
    this.screenTimer = setTimeout(() => this.catchUp(), SCREEN_DEFER_MS);
    this.screenTimer.unref?.();
  }

  private armIdle(): void {
    if (this.idleTimer) return void this.idleTimer.refresh();
    this.idleTimer = setTimeout(() => this.quiet(), RING_IDLE_MS);
    this.idleTimer.unref?.();
  }

  /** RING_IDLE_MS without output: shrink the ring if no reader still needs its past, else look again later. */
  private quiet(): void {
    if (this.disposed) return;
    const busy = this.flushed < this.ring.streamEnd || this.screenPos < this.flushed || this.o.screen.backlog(this.n) > 0 || !this.fanout.settled;
    if (busy) return void this.idleTimer?.refresh();
    this.idleTimer = null;
    this.ring.shrink(RING_IDLE_KEEP);
  }

  /** Hands the screen model what it has not seen (`all`: every byte now, for a read that must be current). */
  private catchUp(all = false): void {
    if (this.screenTimer) clearTimeout(this.screenTimer);
    this.screenTimer = null;
    this.feedScreen(all);
  }

  /** Hands released output to the screen worker, keeping at most SCREEN_INFLIGHT unparsed there (all of it when `all`). */
  private feedScreen(all = false): void {
    if (this.disposed) return;
    const screen = this.o.screen;
    this.skipLag();
    while (this.screenPos < this.flushed && (all || screen.backlog(this.n) < SCREEN_INFLIGHT)) {
      const from = Math.max(this.screenPos, this.ring.streamStart);
      const r = this.ring.read(this.screenPos, Math.min(this.flushed - from, SCREEN_CHUNK));
      if (r.to <= r.from) break;
      screen.write(this.n, r.data, r.from);
      this.screenPos = r.to;
    }
  }

  /** Past the lag bound, the screen model gives up the middle of a flood: it will parse only the newest lagLow bytes. */
  private skipLag(): void {
    if (this.flushed - this.screenPos <= this.lagHigh) return;
    const to = this.flushed - this.lagLow;
    this.screenSkipped += to - this.screenPos;
    this.screenPos = to;
  }

  private onProcExit(s: { code: number | null; signal: number | null }): void {
    this.flush(); // the port reports exit after the last byte; push that byte before telling
    this.proc = null;
    this.orphan = null;
    this.ptyPaused = false;
    if (!this.disposed) this.o.onExit?.(s);
  }

  private updatePause(): void {
    const p = this.proc;
    if (!p) return;
    const want = this.fanout.holding;
    if (want === this.ptyPaused) return;
    this.ptyPaused = want;
    if (want) p.pause();
    else p.resume();
  }
}
