// One pane's output going out to its attached clients: each sink has its own
// position in the stream, its own acknowledgement count (flow control) and its
// own memory bound, so a slow or silent client costs the others nothing.
import type { ByteRing } from './ring';

/** Where a terminal's output goes: one per attached client connection. */
export interface StreamSink {
  id: string;
  sendOutput(pane: number, offset: number, data: Uint8Array): void;
  /** Bytes queued in the connection and not yet handed to the OS. */
  buffered(): number;
}

/**
 * Flow control, as VS Code's terminal does it (the client acks what it has
 * parsed; the PTY pauses above HIGH unacked bytes and resumes below LOW), sized
 * for our 5 ms / 64 KiB batches. Measured with @xterm/headless 6 on this class
 * of machine, xterm.js drains ~4 MiB/s of newline-only floods (`yes`: every
 * byte a scroll), ~8 MiB/s of dense random text and 15-22 MiB/s of ordinary
 * lines. HIGH = 512 KiB keeps a client's unparsed backlog at 25-65 ms of real
 * output and ~125 ms in the worst case, so Ctrl-C still shows promptly; LOW =
 * 128 KiB leaves 6-30 ms of work queued at resume, so the client does not idle
 * while the PTY refills. VS Code's 100,000/5,000 paused ~500 times per 50 MB
 * and ran 2-3x slower; these pause ~130 times per 50 MB.
 */
export const FLOW_HIGH = 512 << 10;
export const FLOW_LOW = 128 << 10;

/**
 * A connection holding more than this unsent (a client that stopped reading its
 * socket) gets nothing more until it drains below half; it then resumes from its
 * own position, read back from the ring. Bounds server memory per client at
 * about this plus one frame, and sits well above FLOW_HIGH so flow-controlled
 * clients never reach it.
 */
export const SINK_BUFFER_CAP = 8 << 20;
/** Largest single output frame; the wire accepts 8 MiB (MAX_BINARY_FRAME), we stay far below. */
export const MAX_FRAME_BYTES = 1 << 20;
/** How often a blocked sink is checked for having drained, when no output or ack would do it. */
export const DRAIN_POLL_MS = 50;

/** A sink's place in this fanout; returned by add() so a late start() can tell it is still current. */
export interface SinkState {
  sink: StreamSink;
  flowControl: boolean;
  /** Next stream offset to send; null while a snapshot is being taken for it. */
  pos: number | null;
  sent: number;
  acked: number;
  /** Crossed FLOW_HIGH and not yet back below FLOW_LOW: asks the PTY to pause. */
  holding: boolean;
  /** Its connection holds more than SINK_BUFFER_CAP; sending waits for it to drain. */
  blocked: boolean;
}

export class Fanout {
  private sinks = new Map<string, SinkState>();
  private poll: NodeJS.Timeout | null = null;
  /** Stream offset up to which output has been released to sinks (batches end here). */
  limit = 0;

  constructor(
    private readonly pane: number,
    private readonly ring: ByteRing,
    /** Called when whether any sink asks for a pause may have changed. */
    private readonly onHoldChange: () => void,
  ) {}

  /** True while any flow-controlled sink has too much unacknowledged. */
  get holding(): boolean {
    for (const s of this.sinks.values()) if (s.holding) return true;
    return false;
  }

  /** Adds (or replaces) a sink that waits for start(). A replaced sink's pause is released. */
  add(sink: StreamSink, flowControl: boolean): SinkState {
    const old = this.sinks.get(sink.id);
    const s: SinkState = { sink, flowControl, pos: null, sent: 0, acked: 0, holding: false, blocked: false };
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
    s.acked = Math.min(s.sent, s.acked + Math.max(0, bytes));
    const unacked = s.sent - s.acked;
    if (s.holding && unacked < FLOW_LOW) {
      s.holding = false;
      this.onHoldChange();
    }
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
    s.sent += data.byteLength;
    if (!s.holding && s.sent - s.acked > FLOW_HIGH) {
      s.holding = true;
      this.onHoldChange();
    }
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
