// Acknowledgement flow control, the client half: count bytes a client has consumed
// (a window's xterm parsed them; `pane output --follow` wrote them to its stdout)
// and tell the server in coalesced acks, so the server can pause a flooding PTY
// while that client catches up. Bytes dropped as duplicates are acked at once:
// every byte the server sent must be acked, or it would stay paused.
// The ack size and idle time are the protocol's (kits/protocol/flow.ts), checked there
// against the server's smallest window.
import { ACK_CHUNK, ACK_IDLE_MS } from '../protocol/flow';

/** The host's timers: kits/ is compiled with neither DOM nor Node types, and both hosts have these. */
interface Timers {
  setTimeout(cb: () => void, ms: number): unknown;
  clearTimeout(t: unknown): void;
}
const timers = globalThis as unknown as Timers;

export class AckMeter {
  private pending = 0;
  private timer: unknown = null;

  constructor(
    private readonly send: (bytes: number) => void,
    private readonly chunk = ACK_CHUNK,
    private readonly idleMs = ACK_IDLE_MS,
  ) {}

  /** `n` more bytes were parsed (or dropped as already seen). */
  parsed(n: number): void {
    if (n <= 0) return;
    this.pending += n;
    if (this.pending >= this.chunk) this.flush();
    else if (this.timer === null) this.timer = timers.setTimeout(() => this.flush(), this.idleMs);
  }

  flush(): void {
    if (this.timer !== null) timers.clearTimeout(this.timer);
    this.timer = null;
    if (this.pending === 0) return;
    const n = this.pending;
    this.pending = 0;
    this.send(n);
  }

  /** Forget pending bytes (after a re-attach the server's count starts afresh). */
  reset(): void {
    if (this.timer !== null) timers.clearTimeout(this.timer);
    this.timer = null;
    this.pending = 0;
  }
}
