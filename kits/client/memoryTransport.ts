// An in-memory transport pair for tests and in-process clients. Delivery is
// asynchronous (a microtask) so it behaves like a socket, not a function call.
import { BaseTransport, type WireFrame } from './transport';

class MemoryEnd extends BaseTransport {
  readonly kind = 'memory';
  peer: MemoryEnd | undefined;
  send(frame: WireFrame): void {
    if (this.closed) return;
    const peer = this.peer;
    const copy = typeof frame === 'string' ? frame : frame.slice();
    void Promise.resolve().then(() => peer?.receive(copy));
  }
  receive(frame: WireFrame): void {
    if (!this.closed) this.deliver(frame);
  }
  close(reason = 'closed'): void {
    if (this.closed) return;
    const peer = this.peer;
    this.closedBy(reason);
    void Promise.resolve().then(() => peer?.closedFromPeer(reason));
  }
  closedFromPeer(reason: string): void {
    this.closedBy(reason);
  }
}

/** Two connected ends: what one sends, the other receives. */
export function memoryPair(): [BaseTransport, BaseTransport] {
  const a = new MemoryEnd();
  const b = new MemoryEnd();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
