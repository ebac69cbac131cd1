// The server's WebSocket transport for the renderer, behind the one HTTP front
// (httpFront.ts). A socket is a client once its hello carries the launch cookie
// (checked at the upgrade) or the per-launch secret.
import { WsTransport } from '../../kits/node/wsTransport';
import type { Services } from '../services';
import { guardUntilHello, NEEDS_SECRET, throttledLog } from './admission';
import { ClientConn } from './clientConn';
import { startFront, type HttpFront, type ScrapeAnswer } from './httpFront';
import { collectMetrics } from '../handlers/collectMetrics';
import { PROMETHEUS_CONTENT_TYPE, prometheusText } from '../../kits/protocol/prometheus';

/** The server's end of a window's WebSocket: the kits' Node WebSocket transport (it knows no side). */
export { WsTransport as ServerWsTransport };

// Lives in admission.ts, so the window's bridge can say it without loading the server.
export { NEEDS_SECRET } from './admission';

export async function listenHttp(services: Services, o: { port?: number; staticDir?: string; secret?: string; helloTimeoutMs?: number; pingMs?: number }): Promise<HttpFront> {
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
    pingMs: o.pingMs,
    onSocket: (ws, { cookie, raw }) => {
      // A hello with an attach grant needs neither: the grant is checked as the hello is (ClientConn), and makes it a guest.
      const conn = new ClientConn(services, new WsTransport(ws), (h) => (cookie || front.tokenOk(h.token) || h.grant !== undefined ? { capabilities: h.capabilities } : NEEDS_SECRET));
      guardUntilHello(raw, () => conn.helloed, (why) => conn.close(why), { log: (why) => log(`WebSocket closed: ${why}`), ...(o.helloTimeoutMs !== undefined ? { timeoutMs: o.helloTimeoutMs } : {}) });
    },
    scrape: (who) => scrapeAnswer(services, who),
  });
  server.launchUrl = (query) => front.launchUrl(query);
  server.frontOrigin = front.origin;
  // No new window comes in once the stop begins; the windows connected stay until it is done, as the unix
  // socket's do: the one that asked for the stop hears it closed only after every program and the sandbox
  // helper were waited for (Connections.holdUntilStopped), and the front closes last.
  server.onDisconnect(() => front.stopAccepting());
  server.onStopped(() => front.close());
  return front;
}

/**
 * GET /metrics on the front (settings' metricsScrape): the person's window (its cookie)
 * or a scraper holding a metrics grant's token may read the figures; an attach grant's
 * token may not (its guest reads no server/metrics), nor anyone without one.
 */
function scrapeAnswer(services: Services, who: { cookie: boolean; bearer: string | undefined }): ScrapeAnswer {
  if (!services.metricsScrape) return { status: 404, why: 'metrics are not served here: "metricsScrape": true in settings.json turns GET /metrics on' };
  if (!who.cookie) {
    if (who.bearer === undefined) return { status: 401, why: 'a scrape needs Authorization: Bearer TOKEN with a metrics grant’s token (pane grant new --metrics)' };
    const r = services.grants?.check(who.bearer);
    if (!r) return { status: 401, why: 'this server issues no grants' };
    if (!r.ok) return { status: 401, why: r.reason };
    if (r.grant.mode !== 'metrics') return { status: 403, why: `grant ${r.grant.id} is an attach grant (${r.grant.mode}); a scrape needs a metrics grant (pane grant new --metrics)` };
  }
  return { status: 200, text: prometheusText(collectMetrics(services)), type: PROMETHEUS_CONTENT_TYPE };
}
