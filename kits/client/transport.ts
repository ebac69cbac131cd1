// The one tiny interface every transport implements (unix socket, WebSocket,
// in-memory). Strings are JSON frames; byte arrays are binary frames.
import { encodeBinary, type BinaryFrame } from '../protocol/binary';

export type WireFrame = string | Uint8Array;

export interface Transport {
  /** Queues a frame; never throws for a closed peer (the close callback tells). */
  send(frame: WireFrame): void;
  /** Queues a binary frame built straight into this transport's own framing (one copy of its data); see sendBinary. */
  sendBinary?(frame: BinaryFrame): void;
  /** Registers the receiver; frames arriving before it are kept until set. */
  onFrame(cb: (frame: WireFrame) => void): void;
  onClose(cb: (reason: string) => void): void;
  close(reason?: string): void;
  /** Bytes queued but not yet handed to the OS: a sender's backpressure signal. */
  buffered(): number;
  /** Human-readable kind, e.g. "unix", "ws", "memory". */
  readonly kind: string;
  /** Stops taking frames from the peer until resumeReading (its sends wait in the OS); a no-op where the transport cannot. */
  pauseReading?(): void;
  resumeReading?(): void;
  /**
   * Asks the transport to read into a buffer it reuses; frames handed to onFrame are
   * then valid only during the call. For a receiver that copies what it keeps.
   */
  reuseReadBuffer?(): void;
}

/** Base that buffers early frames and makes close idempotent. */
export abstract class BaseTransport implements Transport {
  abstract readonly kind: string;
  private frameCb: ((f: WireFrame) => void) | undefined;
  private closeCbs: ((r: string) => void)[] = [];
  private early: WireFrame[] = [];
  protected closed = false;

  abstract send(frame: WireFrame): void;
  abstract close(reason?: string): void;
  buffered(): number {
    return 0;
  }
  pauseReading(): void {}
  resumeReading(): void {}
  onFrame(cb: (frame: WireFrame) => void): void {
    this.frameCb = cb;
    const early = this.early;
    this.early = [];
    for (const f of early) cb(f);
  }
  onClose(cb: (reason: string) => void): void {
    if (this.closed) cb('closed');
    else this.closeCbs.push(cb);
  }
  protected deliver(frame: WireFrame): void {
    if (this.frameCb) this.frameCb(frame);
    else this.early.push(frame);
  }
  protected closedBy(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    const cbs = this.closeCbs;
    this.closeCbs = [];
    for (const cb of cbs) cb(reason);
  }
}

/** Sends a binary frame (output, keys) the cheapest way `t` has: into its own framing where it can, else encoded and sent. */
export function sendBinary(t: Transport, frame: BinaryFrame): void {
  if (t.sendBinary) t.sendBinary(frame);
  else t.send(encodeBinary(frame));
}
