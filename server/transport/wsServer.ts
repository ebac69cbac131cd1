// The server's WebSocket transport for the renderer, behind the one HTTP front
// (httpFront.ts). A socket is a client once its hello carries the launch cookie
// (checked at the upgrade) or the per-launch secret.
import type { WebSocket } from 'ws';
import { BaseTransport, type WireFrame } from '../../kits/client/transport';
import type { Services } from '../services';
import { guardUntilHello, NEEDS_SECRET, throttledLog } from './admission';
import { ClientConn } from './clientConn';
import { startFront, type HttpFront } from './httpFront';

/** The server's end of a window's WebSocket (the page's end is renderer/src/net/browserWsTransport.ts). */
export class ServerWsTransport extends BaseTransport {
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

// Lives in admission.ts, so the window's bridge can say it without loading the server.
export { NEEDS_SECRET } from './admission';

export async function listenHttp(services: Services, o: { port?: number; staticDir?: string; secret?: string; helloTimeoutMs?: number }): Promise<HttpFront> {
  const { server } = services;
  // Every refusal of the front goes to the daemon's stderr and /pane/log, a few a second at most.
  const log = throttledLog((line: string) => {
    process.stderr.write(`pane http: ${line}\n`);
    server.publish('client/refused', { door: 'HTTP front', reason: line });
  });
  const front: HttpFront = await startFront({
    ...(o.port !== undefined ? { port: o.port } : {}),
    staticDir: o.staticDir,
    secret: o.secret,
    log,
    onSocket: (ws, { cookie, raw }) => {
      const conn = new ClientConn(services, new ServerWsTransport(ws), (h) => (cookie || front.tokenOk(h.token) ? { capabilities: h.capabilities } : NEEDS_SECRET));
      guardUntilHello(raw, () => conn.helloed, (why) => conn.close(why), { log: (why) => log(`WebSocket closed: ${why}`), ...(o.helloTimeoutMs !== undefined ? { timeoutMs: o.helloTimeoutMs } : {}) });
    },
  });
  server.launchUrl = () => front.launchUrl();
  server.onStop(() => front.close());
  return front;
}
