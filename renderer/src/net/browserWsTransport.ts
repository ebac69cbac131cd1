// The page's WebSocket as a client-kit Transport (it runs in the browser; the
// server's end is ServerWsTransport, server/transport/wsServer.ts): text frames are JSON, binary
// frames (ArrayBuffer) are terminal bytes. kits/ has no DOM types, so it lives here.
import { BaseTransport, type WireFrame } from '../../../kits/client/transport';
import type { EarlySocket } from './endpoint';

export class BrowserWsTransport extends BaseTransport {
  readonly kind = 'ws';
  private readonly ws: WebSocket;
  /** Resolves when open, rejects if the socket closes first. */
  readonly opened: Promise<void>;
  /** When a frame last came from the server (performance.now()): the link watch's proof of life (net/link.ts). */
  heardAt = performance.now();

  /** Opens a socket to `url`, or adopts the page's early one (still connecting or open) with what it queued. */
  constructor(url: string, early: EarlySocket | null = null) {
    super();
    this.ws = early?.ws ?? new WebSocket(url);
    this.ws.binaryType = 'arraybuffer';
    this.opened =
      this.ws.readyState === WebSocket.OPEN
        ? Promise.resolve()
        : new Promise((resolve, reject) => {
            this.ws.addEventListener('open', () => resolve(), { once: true });
            this.ws.addEventListener('close', (e) => reject(new Error(`WebSocket closed before opening (${e.code})`)), { once: true });
          });
    const take = (e: MessageEvent<string | ArrayBuffer>) => {
      this.heardAt = performance.now();
      this.deliver(typeof e.data === 'string' ? e.data : new Uint8Array(e.data));
    };
    if (early) {
      // In the same task as listening: nothing can arrive between the queue and the listener.
      early.release();
      for (const e of early.queued) take(e as MessageEvent<string | ArrayBuffer>);
    }
    this.ws.addEventListener('message', take);
    this.ws.addEventListener('close', (e) => this.closedBy(e.reason || `socket closed (${e.code})`));
  }

  send(frame: WireFrame): void {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    // A Uint8Array may be a view of a larger (or shared) buffer: send exactly its bytes.
    this.ws.send(typeof frame === 'string' ? frame : (new Uint8Array(frame) as Uint8Array<ArrayBuffer>));
  }

  override buffered(): number {
    return this.ws.bufferedAmount;
  }

  close(reason = 'client closed'): void {
    if (this.closed) return;
    this.ws.close(1000, reason.slice(0, 120));
    this.closedBy(reason);
  }
}
