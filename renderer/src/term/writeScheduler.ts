// Shares the page's main thread among the panes' xterm writes. Each pane's output
// waits in its own queue; panes are served round-robin a slice at a time, each with
// at most two slices inside xterm (one parsing, one ready, so a lone flood never
// waits on a task hop), and a slice is sized to a few milliseconds of that pane's
// measured parse rate. While several panes want writing, a frame's budget spent,
// the rest waits for the next frame: a flood never holds up another pane's echo.
// A batch that grows to a flood's size tells its pane, which then draws less often
// (floodRedraw.ts).

/** Parse time one slice should take: short enough that another pane's write or a key waits at most this. */
export const SLICE_MS = 4;
/** xterm work per ~16 ms frame; the rest of the frame is left to rendering and input. */
export const FRAME_BUDGET_MS = 8;
/** A frame's length: when the budget is spent, the next slice waits this long from the frame's start. */
export const FRAME_MS = 16;
/** Slice bounds: below MIN the per-write overhead dominates; MAX is ~2 ms at xterm's quiet-machine 15 MB/s. */
export const SLICE_MIN = 4 * 1024;
export const SLICE_MAX = 32 * 1024;
/** Slices a pane may have inside xterm at once. */
export const MAX_INFLIGHT = 2;
/** Parse rate (bytes/ms) assumed before a pane has been measured: `yes` on a loaded 2-core machine. */
const RATE_START = 1024;
/**
 * A batch (slices handed to xterm back to back, never idle in between) this big
 * is a flood's: far above an echo or a prompt. Its pane is told (it then draws
 * ~10 times a second, floodRedraw.ts), and after a key typed elsewhere it is the
 * output held until the echo is drawn. Output is never held back to gather
 * (decision 026: the gathering that once stood here cost the page 5-10% of its
 * time waiting, and the flood redraw now saves the frames it was for).
 */
export const FLOOD_BATCH = 16 * 1024;
/**
 * After a key typed into a pane, other panes' floods get no new slices until that
 * pane's next output (its echo) has been parsed and a frame drawn, or this long if no
 * echo comes: the echo then finds the main thread free and a frame with no flood to
 * redraw (issue 14: echo beside a flood, next frame, p99 < 50 ms). Typing costs a
 * flood at most this per key.
 */
export const ECHO_WAIT_MS = 50;
/**
 * xterm parses whatever it has been given for up to 12 ms per page task (its
 * WRITE_TIMEOUT_MS), and finishes the write it is in even past that; fed from
 * its own callbacks it never stops sooner. In a trace of `yes` beside a typing
 * pane those tasks ran 16-48 ms, and a key, the echo's socket message and the
 * next frame each waited for one (decision 024). So once xterm has parsed this
 * long in one task, the next slice is handed over in a new task: the page gets to
 * take a key, a message or a frame in between.
 */
export const TASK_MS = 5;
/**
 * While someone types (a key within TYPING_MS), slices and page tasks are shorter:
 * a key, and then its echo's socket message, each wait for whatever parse is under
 * way, so halving the longest shortened the echo beside a `yes` flood (issue 14:
 * next frame p99 39 ms against 49 in back-to-back runs). The cost is more task hops,
 * which a flood with nobody typing does not pay (throughput runs type nothing).
 * Issue 35 halved them again, and let a typing slice go under SLICE_MIN: `yes`
 * parses at ~1 KiB/ms on 2 loaded cores, so SLICE_MIN alone made every slice 4 ms
 * and every task two of them. A key beside the flood then waited 5.0 ms for the
 * page (median; 2.0 after), and its echo's next frame came at 17.8 ms (12.1 after;
 * p95 31.8 → 20.1), in back-to-back runs of 100 keys.
 */
export const TYPING_MS = 1000;
export const SLICE_MS_TYPING = 1;
export const TASK_MS_TYPING = 1.5;
/** The smallest slice while typing: smaller, xterm's cost per write() and callback would weigh against the parse itself. */
export const SLICE_MIN_TYPING = 1024;
/** Weight of a new parse-rate sample. */
const RATE_ALPHA = 1 / 4;

/** Where a pane's slices go: xterm's write(data, parsed). */
export type SliceWriter = (data: Uint8Array, parsed: () => void) => void;

interface Lane {
  chunks: Uint8Array[];
  bytes: number;
  /** Slices inside xterm, not yet parsed. */
  inflight: number;
  /** Expected parse ms handed to xterm in the current frame. */
  spent: number;
  /** When xterm last finished one of this pane's slices (a queued slice's parse starts there). */
  lastDone: number;
  rate: number;
  write: SliceWriter;
  /** Told when a batch grows to a flood's size (FLOOD_BATCH): the pane may draw less often (floodRedraw.ts). */
  flood: (() => void) | undefined;
  /** Bytes handed to xterm in the lane's current (or last) batch: slices handed over while one was still inside. */
  batchBytes: number;
}

export interface SchedulerClock {
  now(): number;
  later(fn: () => void, ms: number): void;
  /** Runs `fn` in a new task, as soon as the page has handled what waits (not clamped as nested timers are). */
  soon(fn: () => void): void;
  /** Runs `fn` when the current task's code has finished. */
  afterTask(fn: () => void): void;
}

let soonPort: MessagePort | null = null;
const soonQueue: (() => void)[] = [];
const realClock: SchedulerClock = {
  now: () => performance.now(),
  later: (fn, ms) => void setTimeout(fn, ms),
  soon(fn) {
    if (!soonPort) {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => soonQueue.shift()?.();
      soonPort = ch.port2;
    }
    soonQueue.push(fn);
    soonPort.postMessage(null);
  },
  afterTask: (fn) => queueMicrotask(fn),
};

export class WriteScheduler {
  private lanes = new Map<number, Lane>();
  /** Round-robin order: the pane served last goes to the back. */
  private order: number[] = [];
  private frameStart = -Infinity;
  private spent = 0;
  private waiting = false;
  /** A key was typed into this pane and its echo is awaited until `keyUntil` (see ECHO_WAIT_MS). */
  private keyPane: number | null = null;
  private keyUntil = -Infinity;
  /** When xterm began parsing in the current page task (-1: not in one); see TASK_MS. */
  private taskAt = -1;
  private soonPending = false;
  /** When a key was last typed into any pane (see TYPING_MS). */
  private lastKey = -Infinity;

  constructor(private readonly clock: SchedulerClock = realClock) {}

  /** Queues a pane's output; written at once when the pane is idle and the frame has room. */
  write(pane: number, data: Uint8Array, writer: SliceWriter, flood?: () => void): void {
    if (data.byteLength === 0) return;
    let l = this.lanes.get(pane);
    if (!l) {
      l = { chunks: [], bytes: 0, inflight: 0, spent: 0, lastDone: -Infinity, rate: RATE_START, write: writer, flood, batchBytes: 0 };
      this.lanes.set(pane, l);
      this.order.push(pane);
    }
    l.write = writer;
    l.flood = flood;
    l.chunks.push(data);
    l.bytes += data.byteLength;
    this.pump();
  }

  /** A key was typed into `pane`: hold other panes' floods until its echo is drawn (ECHO_WAIT_MS at most). */
  keyed(pane: number): void {
    this.keyPane = pane;
    this.lastKey = this.clock.now();
    this.keyUntil = this.lastKey + ECHO_WAIT_MS;
    this.clock.later(() => this.pump(), ECHO_WAIT_MS);
  }

  /** Whether a key was typed lately: parse in shorter pieces (TYPING_MS). */
  private typing(): boolean {
    return this.clock.now() - this.lastKey < TYPING_MS;
  }

  /** Bytes of a pane still waiting (not yet handed to xterm). */
  queued(pane: number): number {
    return this.lanes.get(pane)?.bytes ?? 0;
  }

  /** Forgets a pane's queue (re-attach or close): its waiting bytes will never be written. */
  drop(pane: number): number {
    const l = this.lanes.get(pane);
    if (!l) return 0;
    this.lanes.delete(pane);
    this.order = this.order.filter((p) => p !== pane);
    return l.bytes;
  }

  private pump(): void {
    const t = this.clock.now();
    if (t - this.frameStart >= FRAME_MS) {
      this.frameStart = t;
      this.spent = 0;
      for (const l of this.lanes.values()) l.spent = 0;
    }
    // Serve lanes with data and room in xterm, round-robin; the frame budget binds only while several want it.
    for (let served = true; served; ) {
      served = false;
      for (const pane of [...this.order]) {
        const l = this.lanes.get(pane);
        if (!l || l.inflight >= MAX_INFLIGHT || l.bytes === 0) continue;
        if (t < this.keyUntil && pane !== this.keyPane && (l.batchBytes >= FLOOD_BATCH || l.bytes >= FLOOD_BATCH)) continue; // a flood waits for the echo
        // Every pane gets a slice each frame (an echo never waits for the next one); past the budget, only that.
        if (l.spent > 0 && this.spent >= FRAME_BUDGET_MS && this.contended()) {
          this.wait();
          continue;
        }
        this.serve(pane, l);
        served = true;
      }
    }
  }

  /** More than one pane has output waiting or inside xterm: they share the frame. */
  private contended(): boolean {
    let n = 0;
    for (const l of this.lanes.values()) if ((l.bytes > 0 || l.inflight > 0) && ++n > 1) return true;
    return false;
  }

  private wait(): void {
    if (this.waiting) return;
    this.waiting = true;
    this.clock.later(() => {
      this.waiting = false;
      this.pump();
    }, Math.max(0, this.frameStart + FRAME_MS - this.clock.now()));
  }

  private serve(pane: number, l: Lane): void {
    const typing = this.typing();
    const size = Math.min(SLICE_MAX, Math.max(typing ? SLICE_MIN_TYPING : SLICE_MIN, Math.round(l.rate * (typing ? SLICE_MS_TYPING : SLICE_MS))));
    const slice = take(l, size);
    if (l.inflight === 0) l.batchBytes = 0;
    const before = l.batchBytes;
    l.batchBytes += slice.byteLength;
    if (before < FLOOD_BATCH && l.batchBytes >= FLOOD_BATCH) l.flood?.();
    l.inflight++;
    // Its expected cost counts against the frame now; the measured cost corrects the rate.
    this.spent += slice.byteLength / l.rate;
    l.spent += slice.byteLength / l.rate;
    this.order = [...this.order.filter((p) => p !== pane), pane];
    const t0 = this.clock.now();
    l.write(slice, () => {
      const t = this.clock.now();
      const took = t - Math.max(t0, l.lastDone);
      l.lastDone = t;
      if (slice.byteLength >= SLICE_MIN && took > 0) l.rate = Math.max(1, l.rate + (slice.byteLength / took - l.rate) * RATE_ALPHA);
      l.inflight--;
      if (pane === this.keyPane && t < this.keyUntil) {
        // The echo is parsed: floods resume once the frame that shows it has been drawn.
        this.keyUntil = Math.min(this.keyUntil, t + FRAME_MS);
        this.clock.later(() => this.pump(), Math.max(0, this.keyUntil - t));
      }
      if (this.lanes.get(pane) !== l) return;
      if (this.taskAt < 0) {
        this.taskAt = t - Math.max(0, took);
        this.clock.afterTask(() => (this.taskAt = -1));
      }
      if (t - this.taskAt < (this.typing() ? TASK_MS_TYPING : TASK_MS)) return this.pump();
      // This task has parsed long enough: the next slice goes in a task of its own.
      if (this.soonPending) return;
      this.soonPending = true;
      this.clock.soon(() => {
        this.soonPending = false;
        this.pump();
      });
    });
  }
}

/** Takes up to `size` bytes off the front of a lane's queue. */
function take(l: Lane, size: number): Uint8Array {
  const first = l.chunks[0]!;
  let out: Uint8Array;
  if (first.byteLength > size) {
    out = first.subarray(0, size);
    l.chunks[0] = first.subarray(size);
  } else if (first.byteLength === size || l.chunks.length === 1) {
    out = first;
    l.chunks.shift();
  } else {
    // Several small chunks: join up to `size` so a slice is one write.
    let n = 0;
    let k = 0;
    while (k < l.chunks.length && n + l.chunks[k]!.byteLength <= size) n += l.chunks[k++]!.byteLength;
    out = new Uint8Array(n);
    let o = 0;
    for (const c of l.chunks.splice(0, k)) {
      out.set(c, o);
      o += c.byteLength;
    }
  }
  l.bytes -= out.byteLength;
  return out;
}
