// Header and request deadlines for the daemon's HTTP servers (the front and the
// hook doors), kept per connection. Node keeps them with a check on an interval
// (its connectionsCheckingInterval) that runs for as long as the server listens,
// connections or none: the hook doors' 250 ms and the front's 1 s woke an idle
// daemon about ten times a second (issue 35: tmux's idle server wakes not at all).
// Here each connection has one timer, armed when it opens or finishes a response and
// cleared when its request is whole, so a daemon nobody is talking to sleeps, and a
// deadline holds to the millisecond instead of within a check's interval.
import type http from 'node:http';
import type net from 'node:net';

/** The longest a timer waits (a longer one fires at once): Node's own check made as good as never. */
const TIMER_MAX_MS = 2 ** 31 - 1;

/** createServer options that turn Node's interval check off; keepDeadlines keeps the deadlines instead. */
export const NODE_DEADLINE_CHECK_OFF = { headersTimeout: 0, requestTimeout: 0, connectionsCheckingInterval: TIMER_MAX_MS } as const;

export interface Deadlines {
  /** A request's headers arrive within this of the connection opening (or of the last response, kept alive). */
  headersMs: number;
  /** The whole request, body included, within this of the same moment. */
  requestMs: number;
  /** A connection missed one; it is the caller's to answer (a 408) and close. */
  late(socket: net.Socket, missed: 'headers' | 'request'): void;
}

/** Keeps `d` on every connection of `srv` (made with NODE_DEADLINE_CHECK_OFF). WebSockets are clear of them once upgraded. */
export function keepDeadlines(srv: http.Server, d: Deadlines): void {
  const timers = new Map<net.Socket, { timer: NodeJS.Timeout | null; since: number }>();
  const clear = (sock: net.Socket) => {
    const t = timers.get(sock);
    if (t?.timer) clearTimeout(t.timer);
    if (t) t.timer = null;
  };
  const arm = (sock: net.Socket, missed: 'headers' | 'request', ms: number) => {
    const t = timers.get(sock);
    if (!t) return;
    if (t.timer) clearTimeout(t.timer);
    t.timer = setTimeout(() => {
      t.timer = null;
      if (!sock.destroyed) d.late(sock, missed);
    }, Math.max(0, ms));
    t.timer.unref();
  };
  /** A request begins (the connection opened, or its last response went): headers due, then the whole request. */
  const begin = (sock: net.Socket) => {
    const t = timers.get(sock);
    if (!t) return;
    t.since = performance.now();
    arm(sock, 'headers', d.headersMs);
  };
  srv.on('connection', (sock: net.Socket) => {
    timers.set(sock, { timer: null, since: 0 });
    begin(sock);
    sock.once('close', () => {
      clear(sock);
      timers.delete(sock);
    });
  });
  srv.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const sock = req.socket;
    const t = timers.get(sock);
    if (!t) return;
    // Whole once its headers are in when it has no body (a GET): a body not read by its handler would never end.
    const body = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!body || req.complete) clear(sock);
    else {
      arm(sock, 'request', d.requestMs - (performance.now() - t.since));
      req.once('end', () => clear(sock));
    }
    // Answered: kept alive, the next request's clock starts now; otherwise the connection is closing.
    res.once('finish', () => {
      if (!sock.destroyed && res.shouldKeepAlive) begin(sock);
      else clear(sock);
    });
  });
  srv.on('upgrade', (_req: http.IncomingMessage, sock: net.Socket) => {
    clear(sock);
    timers.delete(sock);
  });
}
