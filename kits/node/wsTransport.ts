// A Node WebSocket (the `ws` package) as a Transport, either end: the server's end of
// a window's socket (server/transport/wsServer.ts) and a Node client dialing a ws://
// endpoint (kits/node/endpoint.ts). Text frames are JSON, binary frames terminal bytes.
// The page's end is renderer/src/net/browserWsTransport.ts.
import type { WebSocket } from 'ws';
import { BaseTransport, type WireFrame } from '../client/transport';

export class WsTransport extends BaseTransport {
  readonly kind = 'ws';
  constructor(private readonly ws: WebSocket) {
    super();
    ws.on('message', (data, isBinary) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      this.deliver(isBinary ? new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) : buf.toString('utf8'));
    });
    ws.on('close', () => this.closedBy('peer closed'));
    ws.on('error', (e) => this.closedBy(e.message));
  }
  send(frame: WireFrame): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(frame, { binary: typeof frame !== 'string' });
  }
  override buffered(): number {
    return this.ws.bufferedAmount;
  }
  /** A client not reading what it is sent is not read either (clientConn's MAX_UNREAD_BACKLOG). */
  override pauseReading(): void {
    this.ws.pause();
  }
  override resumeReading(): void {
    this.ws.resume();
  }
  close(reason = 'closed'): void {
    if (this.closed) return;
    this.closedBy(reason);
    this.ws.close(1000, reason.slice(0, 120));
  }
}
