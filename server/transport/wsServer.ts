// The server's WebSocket transport for the renderer, behind the one HTTP front
// (httpFront.ts). A socket is a client once its hello carries the launch cookie
// (checked at the upgrade) or the per-launch secret.
import { WsTransport } from '../../kits/node/wsTransport';
import type { Services } from '../services';
import { guardUntilHello, NEEDS_SECRET, throttledLog } from './admission';
import { ClientConn } from './clientConn';
import { startFront, type HttpFront } from './httpFront';

/** The server's end of a window's WebSocket: the kits' Node WebSocket transport (it knows no side). */
export { WsTransport as ServerWsTransport };

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
      // A hello with an attach grant needs neither: the grant is checked as the hello is (ClientConn), and makes it a guest.
      const conn = new ClientConn(services, new WsTransport(ws), (h) => (cookie || front.tokenOk(h.token) || h.grant !== undefined ? { capabilities: h.capabilities } : NEEDS_SECRET));
      guardUntilHello(raw, () => conn.helloed, (why) => conn.close(why), { log: (why) => log(`WebSocket closed: ${why}`), ...(o.helloTimeoutMs !== undefined ? { timeoutMs: o.helloTimeoutMs } : {}) });
    },
  });
  server.launchUrl = () => front.launchUrl();
  server.frontOrigin = front.origin;
  server.onStop(() => front.close());
  return front;
}
