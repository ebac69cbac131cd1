// Acknowledgement flow control, the client half: count bytes xterm has parsed (its
// write callback fired) and tell the server in coalesced acks, so the server can
// pause a flooding PTY while this window catches up. Bytes dropped as duplicates are
// acked at once: every byte the server sent must be acked, or it would stay paused.
// The ack size and idle time are the protocol's (kits/protocol/flow.ts), checked there
// against the server's smallest window.
import { ACK_CHUNK, ACK_IDLE_MS } from '../../../kits/protocol/flow';

export class AckMeter {
  private pending = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

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
    else if (this.timer === null) this.timer = setTimeout(() => this.flush(), this.idleMs);
  }

  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending === 0) return;
    const n = this.pending;
    this.pending = 0;
    this.send(n);
  }

  /** Forget pending bytes (after a re-attach the server's count starts afresh). */
  reset(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.pending = 0;
  }
}
