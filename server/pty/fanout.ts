// One pane's output going out to its attached clients: each sink has its own
// position in the stream, its own acknowledgement count (flow control) and its
// own memory bound, so a slow or silent client costs the others nothing.
import { FLOW_HIGH_MAX, FLOW_HIGH_MIN, FLOW_TARGET_MS } from '../../kits/protocol/flow';
import type { ByteRing } from './ring';

/** Where a terminal's output goes: one per attached client connection. */
export interface StreamSink {
  id: string;
  sendOutput(pane: number, offset: number, data: Uint8Array): void;
  /** Bytes queued in the connection and not yet handed to the OS. */
  buffered(): number;
}

/*
 * Flow control, as VS Code's terminal does it (the client acks what it has
 * parsed; the PTY pauses above a high mark of unacked bytes and resumes below a
 * low one), with the window sized per client from its measured drain rate.
 * What Ctrl-C costs is the backlog a client must still parse, and drain rates
 * differ ~20x: xterm.js parses 4-22 MiB/s on a quiet machine, and ~1-1.3 MiB/s
 * of `yes` (every byte a scroll) on a loaded 2-core one, where the old fixed
 * 512 KiB mark cost ~350 ms (median) from Ctrl-C to the last byte. So a
 * client's high mark is FLOW_TARGET_MS of the rate it has been acking at,
 * within FLOW_HIGH_MIN..FLOW_HIGH_MAX, and its low mark half of that.
 *
 * Why 75 ms: the low mark (less up to one 64 KiB ack chunk the client has
 * parsed but not yet acked) is the work a client has queued when the PTY
 * resumes, and it must cover the ack's trip, the PTY read and a 5 ms batch. In
 * interleaved runs through the renderer (pty → page xterm, 20 MB), 50 ms left
 * the page's xterm waiting for data 1-5 points more of the run than the old
 * marks and cost ~5% of throughput (up to 15% in a run); 75 ms waited no more
 * than the old marks and was within 3% of their throughput.
 *
 * FLOW_TARGET_MS, the window's bounds (FLOW_HIGH_MIN, FLOW_HIGH_MAX) and the
 * clients' ack size live in kits/protocol/flow.ts with the rule tying them.
 */
/** Acks smaller than this do not update the drain rate: they are the idle-timer tails of small outputs, whose timing says when the client's timer fired, not how fast it parses. */
export const RATE_MIN_ACK = 16 << 10;
/** Weight of a new drain-rate sample. */
const RATE_ALPHA = 1 / 4;
/**
 * A sample counts for at most this times the current estimate. Acks can reach
 * the server bunched (its loop was busy, the socket coalesced them), and the
 * second of two then reads as near-infinite speed; unclamped, one such sample
 * would open the window to the maximum. So the window grows at most ~25% per
 * ack (floor to maximum in ~13 acks, ~850 KiB of a flood) and shrinks as fast as
 * the samples say.
 */
const RATE_MAX_STEP = 2;
/**
 * The rates the floor and the top window stand for. The estimate is kept
 * between them (beyond, the window would not change), so a client that once
 * stalled is not measured for long as slower than the floor before it can grow.
 * Every client's estimate starts at the floor's.
 */
const RATE_MIN = FLOW_HIGH_MIN / FLOW_TARGET_MS;
const RATE_MAX = FLOW_HIGH_MAX / FLOW_TARGET_MS;

/** The high mark for a client draining `rate` bytes/ms. */
export function flowHigh(rate: number): number {
  return Math.round(Math.min(FLOW_HIGH_MAX, Math.max(FLOW_HIGH_MIN, rate * FLOW_TARGET_MS)));
}

/**
 * A connection holding more than this unsent (a client that stopped reading its
 * socket) gets nothing more until it drains below half; it then resumes from its
 * own position, read back from the ring. Bounds server memory per client at
 * about this plus one frame, and sits well above FLOW_HIGH_MAX so flow-controlled
 * clients never reach it.
 */
export const SINK_BUFFER_CAP = 8 << 20;
/** Largest single output frame; the wire accepts 8 MiB (MAX_BINARY_FRAME), we stay far below. */
export const MAX_FRAME_BYTES = 1 << 20;
/** How often a blocked sink is checked for having drained, when no output or ack would do it. */
export const DRAIN_POLL_MS = 50;
/**
 * How long one client may hold a pane paused without acknowledging enough to
 * release it. A working client releases its pause within one window's drain:
 * measured on this 2-core machine with two busy loops beside a 15 MB flood, a
 * client parsing at 1 MiB/s (a loaded page's `yes` rate) held each pause 146 ms
 * median and 209 ms at most (102 pauses), one parsing at 4 MiB/s 54 and 89 ms.
 * Two seconds is ten times that worst case and still covers a throttled
 * background tab, whose timers fire once a second; a client silent longer has
 * stopped (crashed, frozen, hostile). It is then treated as detached from flow
 * control: it no longer pauses the PTY and gets output like a client without
 * flow control (bounded by SINK_BUFFER_CAP), until it catches up below its low
 * mark again, and not before STALL_COOLDOWN_MS. (15 s until issue 23: one silent
 * client froze a flood for everyone that long.)
 */
export const ACK_STALL_MS = 2_000;
/**
 * After a stall, how long that client (by connection, across detach and attach)
 * pauses nobody, even once caught up. Without it a client could ack in bursts, or
 * attach again, and hold a pane paused ACK_STALL_MS after ACK_STALL_MS; with it,
 * at most ACK_STALL_MS in every ACK_STALL_MS + STALL_COOLDOWN_MS (1/6 of the time).
 * An honest client that stalled once (a background tab) only goes unpaced that long.
 */
export const STALL_COOLDOWN_MS = 10_000;

/** A sink's place in this fanout; returned by add() so a late start() can tell it is still current. */
export interface SinkState {
  sink: StreamSink;
  flowControl: boolean;
  /** Next stream offset to send; null while a snapshot is being taken for it. */
  pos: number | null;
  sent: number;
  acked: number;
  /** This client's window: pause above `high` unacked, resume below `high / 2`. */
  high: number;
  /** Its estimated drain rate in bytes/ms, within RATE_MIN..RATE_MAX (RATE_MIN until measured). */
  rate: number;
  /** When the time the next ack is measured against began: the last ack, or the first send to a caught-up client; null while it owes nothing. */
  mark: number | null;
  /** Crossed `high` and not yet back below `high / 2`: asks the PTY to pause. */
  holding: boolean;
  /** Its connection holds more than SINK_BUFFER_CAP; sending waits for it to drain. */
  blocked: boolean;
  /** When its current pause began (clock ms), while holding. */
  holdSince: number | null;
  /** It held a pause ACK_STALL_MS without releasing it: it no longer pauses the PTY until it catches up (and its cooldown is over). */
  stalled: boolean;
  /** Clock ms before which it may not pause the PTY again (STALL_COOLDOWN_MS after its last stall). */
  cooldownUntil: number;
}

export interface FanoutOptions {
  /** A monotonic clock in ms; injected by tests. */
  now?: () => number;
  /** Overrides ACK_STALL_MS (tests). */
  stallMs?: number;
  /** Overrides STALL_COOLDOWN_MS (tests). */
  cooldownMs?: number;
  /** Told when a sink stops counting for the pause because it stopped acknowledging. */
  onStall?: (id: string) => void;
}

export class Fanout {
  private sinks = new Map<string, SinkState>();
  private poll: NodeJS.Timeout | null = null;
  private stallTimer: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  private readonly stallMs: number;
  private readonly cooldownMs: number;
  /** Sinks (by id) that stalled, and until when they may not pause: kept across detach and attach. */
  private readonly cooldowns = new Map<string, number>();
  /** Stream offset up to which output has been released to sinks (batches end here). */
  limit = 0;

  constructor(
    private readonly pane: number,
    private readonly ring: ByteRing,
    /** Called when whether any sink asks for a pause may have changed. */
    private readonly onHoldChange: () => void,
    private readonly o: FanoutOptions = {},
  ) {
    this.now = o.now ?? (() => performance.now());
    this.stallMs = o.stallMs ?? ACK_STALL_MS;
    this.cooldownMs = o.cooldownMs ?? STALL_COOLDOWN_MS;
  }

  /** True while a flow-controlled client (a window's xterm) is being streamed this pane. */
  get streaming(): boolean {
    for (const s of this.sinks.values()) if (s.flowControl && s.pos !== null) return true;
    return false;
  }

  /** Every attached client has been sent all released output, and the flow-controlled ones have acknowledged it: none will read the ring's past. */
  get settled(): boolean {
    for (const s of this.sinks.values()) if (s.pos === null || s.pos < this.limit || (s.flowControl && s.acked < s.sent)) return false;
    return true;
  }

  /** True while any flow-controlled sink has too much unacknowledged. */
  get holding(): boolean {
    for (const s of this.sinks.values()) if (s.holding) return true;
    return false;
  }

  /**
   * Adds (or replaces) a sink that waits for start(). A replaced sink's pause is released.
   * `start` 'max' opens its window at FLOW_HIGH_MAX before any ack is measured (pty/attach's
   * flowStart: a relay such as a host link); the measured rate sizes it after, as for any.
   */
  add(sink: StreamSink, flowControl: boolean, start: 'min' | 'max' = 'min'): SinkState {
    const old = this.sinks.get(sink.id);
    const open = start === 'max';
    const s: SinkState = { sink, flowControl, pos: null, sent: 0, acked: 0, high: open ? FLOW_HIGH_MAX : FLOW_HIGH_MIN, rate: open ? RATE_MAX : RATE_MIN, mark: null, holding: false, blocked: false, holdSince: null, stalled: false, cooldownUntil: 0 };
    // Attaching again does not buy a client that stalled a fresh hold.
    const t = this.now();
    for (const [id, until] of this.cooldowns) if (until <= t) this.cooldowns.delete(id);
    const until = this.cooldowns.get(sink.id);
    if (until !== undefined) {
      s.stalled = true;
      s.cooldownUntil = until;
    }
    this.sinks.set(sink.id, s);
    if (old?.holding) this.onHoldChange();
    return s;
  }

  /** Begins sending to a waiting sink from `pos`, unless it was detached or replaced meanwhile. */
  start(s: SinkState, pos: number): void {
    if (this.sinks.get(s.sink.id) !== s || s.pos !== null) return;
    s.pos = pos;
    this.pumpOne(s);
  }

  /** Removes this very sink state (not a newer one under the same id). */
  drop(s: SinkState): void {
    if (this.sinks.get(s.sink.id) === s) this.remove(s.sink.id);
  }

  remove(id: string): void {
    const s = this.sinks.get(id);
    if (!s) return;
    this.sinks.delete(id);
    if (s.holding) this.onHoldChange();
    this.updatePoll();
  }

  /** Counts `bytes` more as parsed by the sink's client; returns what is still unacknowledged. */
  ack(id: string, bytes: number): number {
    const s = this.sinks.get(id);
    if (!s) return 0;
    const n = Math.min(s.sent - s.acked, Math.max(0, bytes));
    s.acked += n;
    const unacked = s.sent - s.acked;
    this.measure(s, n, unacked);
    if (s.holding && unacked < s.high / 2) {
      s.holding = false;
      s.holdSince = null;
      this.onHoldChange();
    }
    if (s.stalled && unacked < s.high / 2 && this.now() >= s.cooldownUntil) s.stalled = false; // caught up and cooled down: it may pause the PTY again
    if (s.blocked) this.pumpOne(s);
    return unacked;
  }

  /** Releases output up to `limit` to every sink; `batch` is those bytes, shared by sinks that are caught up. */
  release(limit: number, batch?: { from: number; data: Buffer }): void {
    this.limit = limit;
    for (const s of this.sinks.values()) {
      if (batch && s.pos === batch.from && !s.blocked && batch.data.byteLength <= MAX_FRAME_BYTES && this.roomFor(s)) {
        this.send(s, batch.from, batch.data);
        continue;
      }
      this.pumpOne(s);
    }
    this.updatePoll();
  }

  dispose(): void {
    this.sinks.clear();
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = null;
  }

  private pumpOne(s: SinkState): void {
    while (s.pos !== null && s.pos < this.limit) {
      if (!this.roomFor(s)) break;
      const from = Math.max(s.pos, this.ring.streamStart);
      const r = this.ring.read(s.pos, Math.min(this.limit - from, MAX_FRAME_BYTES));
      if (r.to <= r.from) break;
      this.send(s, r.from, r.data);
    }
    this.updatePoll();
  }

  /** Whether the sink's connection can take more; with hysteresis, so a blocked sink waits for half. */
  private roomFor(s: SinkState): boolean {
    const queued = s.sink.buffered();
    s.blocked = s.blocked ? queued > SINK_BUFFER_CAP / 2 : queued > SINK_BUFFER_CAP;
    return !s.blocked;
  }

  private send(s: SinkState, from: number, data: Buffer): void {
    s.pos = from + data.byteLength;
    try {
      s.sink.sendOutput(this.pane, from, data);
    } catch {
      // A broken connection must not break the pane's output path; it loses its place (and any pause it held).
      this.drop(s);
      s.pos = null;
      return;
    }
    if (!s.flowControl) return;
    if (s.sent === s.acked) s.mark = this.now(); // it was caught up: its clock starts now, not at its last ack
    s.sent += data.byteLength;
    if (!s.holding && !s.stalled && s.sent - s.acked > s.high) {
      s.holding = true;
      s.holdSince = this.now();
      this.armStallCheck(this.stallMs);
      this.onHoldChange();
    }
  }

  /** One timer per fanout, not per pause: pauses come and go many times a second in a flood. */
  private armStallCheck(inMs: number): void {
    if (this.stallTimer) return;
    this.stallTimer = setTimeout(() => {
      this.stallTimer = null;
      this.checkStalls();
    }, Math.max(1, inMs));
    this.stallTimer.unref();
  }

  /** Sinks that held their pause for stallMs stop pausing the PTY; the others are checked again when theirs is due. */
  private checkStalls(): void {
    const t = this.now();
    let next = Infinity;
    for (const s of this.sinks.values()) {
      if (!s.holding || s.holdSince === null) continue;
      const left = s.holdSince + this.stallMs - t;
      if (left > 0) {
        next = Math.min(next, left);
        continue;
      }
      s.holding = false;
      s.holdSince = null;
      s.stalled = true;
      s.cooldownUntil = t + this.cooldownMs;
      this.cooldowns.set(s.sink.id, s.cooldownUntil);
      this.onHoldChange();
      this.o.onStall?.(s.sink.id);
    }
    if (next < Infinity) this.armStallCheck(next);
  }

  /**
   * Updates the sink's drain rate from an ack of `n` bytes and sizes its window.
   * The time counted is only time it owed bytes, so a client's idle spells do
   * not read as slowness; time spent waiting for a paused PTY does count, but
   * the window's floor keeps such waits short (see FLOW_HIGH_MIN).
   */
  private measure(s: SinkState, n: number, unacked: number): void {
    if (n === 0) return; // an empty ack says nothing, and must not restart the clock
    const t = this.now();
    if (s.mark !== null && n >= RATE_MIN_ACK) {
      const sample = Math.min(n / Math.max(t - s.mark, 1), s.rate * RATE_MAX_STEP);
      s.rate = Math.min(RATE_MAX, Math.max(RATE_MIN, s.rate + (sample - s.rate) * RATE_ALPHA));
      s.high = flowHigh(s.rate);
    }
    s.mark = unacked > 0 ? t : null;
  }

  private updatePoll(): void {
    let blocked = false;
    for (const s of this.sinks.values()) if (s.blocked) blocked = true;
    if (blocked && !this.poll) {
      this.poll = setInterval(() => {
        for (const s of this.sinks.values()) if (s.blocked) this.pumpOne(s);
      }, DRAIN_POLL_MS);
      this.poll.unref();
    } else if (!blocked && this.poll) {
      clearInterval(this.poll);
      this.poll = null;
    }
  }
}
