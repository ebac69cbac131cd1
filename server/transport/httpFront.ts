// The one HTTP front every window meets (the server's own, and Electron's bridge):
// static files of the renderer and the WebSocket upgrade on 127.0.0.1. Nothing in
// a request can throw past it; what it refuses it answers, closes and logs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_BINARY_FRAME, MAX_JSON_FRAME } from '../../kits/protocol/binary';
import { keepDeadlines, NODE_DEADLINE_CHECK_OFF } from './httpDeadlines';
import { allowedHosts, csp, parseTarget, readCookie } from './httpRequest';

/**
 * TCP connections the front holds at once, WebSockets included. A window needs
 * one WebSocket and a few page loads; this leaves room for many windows and tabs
 * while a page hammering the port cannot make the server hold thousands of
 * sockets. At the cap a new connection cuts the oldest idle one (no request being
 * answered, not a WebSocket), so idle or half-sent connections never lock a window
 * out; only when none is idle is the new one dropped.
 */
export const MAX_HTTP_CONNECTIONS = 128;
/**
 * A connection that sends nothing for this long is closed: one opened and left
 * silent, or one that stopped reading a response. A page sends its request at once
 * and reads what it asked for; a browser's speculative preconnects that go unused
 * are closed too, harmlessly (it opens another).
 */
export const IDLE_TIMEOUT_MS = 10_000;
/** A kept-alive connection waits this long for its next request, then is closed (node's default, said here). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** WebSockets at once: each is a client with streams and subscriptions; dozens of windows is already unusual. */
export const MAX_WS_CONNECTIONS = 64;
/**
 * A WebSocket the server has begun to close (its close frame sent, with why) gets this
 * long for the peer's answering close before its socket is cut at the front's close: a
 * page on loopback answers within a few ms; a stopped or vanished one is not waited on.
 */
export const WS_CLOSE_GRACE_MS = 500;
/** A request's headers must arrive within this (slowloris); a page sends them at once. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A whole request likewise; the front serves only small GETs. */
export const REQUEST_TIMEOUT_MS = 20_000;
/** Largest header block; a browser's is ~1-2 KiB, node's default is 16 KiB. */
export const MAX_HEADER_BYTES = 16 << 10;
/** Launch tokens not yet used; minting more (each printed URL) retires the oldest. */
export const MAX_LAUNCH_TOKENS = 16;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export interface FrontSocket {
  /** True when the upgrade carried the launch cookie: the page proved itself already. */
  cookie: boolean;
  /** The raw TCP socket under the WebSocket (for byte counts before hello). */
  raw: net.Socket;
}

export interface FrontOptions {
  port?: number;
  staticDir?: string | undefined;
  /** The hello secret for clients that do not carry the cookie (Electron's preload, node clients). */
  secret?: string | undefined;
  /** Where refusals are written (default: stderr). */
  log?: (line: string) => void;
  onSocket(ws: WebSocket, s: FrontSocket): void;
  /** How often each WebSocket is pinged (default WS_PING_MS; tests shorten it). */
  pingMs?: number | undefined;
  /**
   * GET /metrics: who asks (the window's cookie, or a bearer token) and the answer —
   * Prometheus text, or a refusal's status and words. Absent: /metrics is not served.
   */
  scrape?(who: { cookie: boolean; bearer: string | undefined }): ScrapeAnswer;
}

export type ScrapeAnswer = { status: 200; text: string; type: string } | { status: 401 | 403 | 404; why: string };

/** A bearer token from an Authorization header (RFC 6750), or undefined; a malformed header is no token. */
function bearerOf(header: string | undefined): string | undefined {
  const m = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header ?? '');
  return m?.[1];
}

export interface HttpFront {
  port: number;
  /** http://127.0.0.1:PORT, never with a secret in it. */
  origin: string;
  secret: string;
  /** A URL that opens one window: its token works once, then the page holds an HttpOnly cookie. */
  launchUrl(query?: string): string;
  /** Whether `token` is the hello secret (constant time). */
  tokenOk(token: string | undefined): boolean;
  /** Takes no new connection or WebSocket from now (the server is stopping); the open ones stay until close. */
  stopAccepting(): void;
  /** Every connection ended: WebSockets already closing get WS_CLOSE_GRACE_MS to finish, the rest are cut. */
  close(): Promise<void>;
}

const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

/** Writes a bare response on a raw socket (clientError, refused upgrades) and closes it. */
function refuseRaw(socket: net.Socket | import('node:stream').Duplex, status: number, text: string): void {
  const body = `${text}\n`;
  try {
    if (socket.writable) socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  } catch {
    /* the peer is gone */
  }
  setTimeout(() => socket.destroy(), 100).unref();
}

/**
 * How often the front pings each WebSocket (the window's, the daemon's own front and
 * `npm start`'s bridge alike). One that has answered neither that ping nor with
 * anything else by the next is gone without closing — its machine asleep, its
 * tunnel's far end away — and is closed: it would hold its attach streams and its
 * place among a session's windows (`windowSize: "smallest"` keeps every other window
 * at a ghost's size) for the hours TCP takes to give up on an idle socket. Browsers
 * answer pings in their network stack, even from a page busy drawing; the window
 * watches the server the other way (renderer/src/net/link.ts LinkWatch).
 */
export const WS_PING_MS = 20_000;

/** Pings `ws` every `everyMs`; `gone` when the last ping is unanswered at the next and nothing came meanwhile. Stops at close. */
function keepAnswering(ws: WebSocket, everyMs: number, gone: () => void): void {
  let heard = true;
  const heardNow = () => void (heard = true);
  ws.on('pong', heardNow);
  ws.on('message', heardNow);
  const timer = setInterval(() => {
    if (ws.readyState !== ws.OPEN) return;
    if (!heard) {
      clearInterval(timer);
      return gone();
    }
    heard = false;
    ws.ping();
  }, everyMs);
  timer.unref();
  ws.once('close', () => clearInterval(timer));
}

export async function startFront(o: FrontOptions): Promise<HttpFront> {
  const secret = o.secret ?? crypto.randomBytes(24).toString('base64url');
  /** What the launch cookie holds: not the hello secret, so a cookie seen elsewhere is not that. */
  const cookieValue = crypto.randomBytes(24).toString('base64url');
  const launchTokens = new Set<string>();
  const log = o.log ?? ((line: string) => process.stderr.write(`pane http: ${line}\n`));
  let port = 0;
  const cookieName = () => `pane_${port}`;
  const hosts = () => allowedHosts(port);
  const describe = (req: http.IncomingMessage) => `${req.socket.remoteAddress ?? '?'} ${JSON.stringify(String(req.method).slice(0, 16))} ${JSON.stringify(String(req.url).slice(0, 200))}`;

  /** Host allow-list (DNS rebinding) and, when a browser says where it comes from, Origin. */
  const checkPlace = (req: http.IncomingMessage, needOrigin: boolean): string | null => {
    const host = req.headers.host;
    if (host === undefined || !hosts().has(host.toLowerCase())) return `host ${JSON.stringify(host ?? '')} is not this server's (only ${[...hosts()].join(', ')})`;
    const origin = req.headers.origin;
    if (origin !== undefined && !(origin.startsWith('http://') && hosts().has(origin.slice(7).toLowerCase()))) return `origin ${JSON.stringify(origin)} is not this server's`;
    if (needOrigin && origin === undefined && req.headers.cookie !== undefined) return 'a WebSocket with cookies must say its origin';
    return null;
  };

  const hasCookie = (req: http.IncomingMessage) => {
    const got = readCookie(req.headers.cookie, cookieName());
    return got !== null && equal(got, cookieValue);
  };

  const send = (res: http.ServerResponse, status: number, text: string, headers: http.OutgoingHttpHeaders = {}) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
    res.end(`${text}\n`);
  };

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const refuse = (status: number, why: string) => {
      log(`${status} ${why}: ${describe(req)}`);
      send(res, status, why, { connection: 'close' });
    };
    if (!req.headers.host) return refuse(400, 'request has no Host header');
    const where = checkPlace(req, false);
    if (where) return refuse(403, where);
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(405, `method ${String(req.method).slice(0, 16)} is not served`);
    const target = parseTarget(req.url ?? '');
    if (typeof target === 'string') return refuse(400, target);
    const launch = target.query.get('launch');
    if (launch !== null) {
      target.query.delete('launch');
      const rest = target.query.toString();
      const clean = `${target.path}${rest ? `?${rest}` : ''}`;
      const fresh = [...launchTokens].some((t) => equal(t, launch));
      if (fresh) launchTokens.delete(launch);
      else if (!hasCookie(req)) return refuse(403, 'this launch link was used already (each opens one window); ask pane for a new one');
      // The token is spent; the address bar and history keep only the clean URL.
      return send(res, 303, 'see the clean URL', {
        location: clean,
        ...(fresh ? { 'set-cookie': `${cookieName()}=${cookieValue}; HttpOnly; SameSite=Strict; Path=/` } : {}),
      });
    }
    if (target.path === '/metrics' && o.scrape) {
      const r = o.scrape({ cookie: hasCookie(req), bearer: bearerOf(req.headers.authorization) });
      if (r.status !== 200) {
        if (r.status !== 404) log(`${r.status} /metrics: ${r.why}: ${describe(req)}`);
        return send(res, r.status, r.why, r.status === 401 ? { 'www-authenticate': 'Bearer realm="pane metrics"' } : {});
      }
      res.writeHead(200, { 'content-type': r.type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      return void res.end(req.method === 'HEAD' ? undefined : r.text);
    }
    if (!o.staticDir) return send(res, 404, 'no renderer build configured');
    const root = path.resolve(o.staticDir);
    const file = path.resolve(root, `.${target.path === '/' ? '/index.html' : target.path}`);
    if (!file.startsWith(root + path.sep)) return refuse(403, 'path leaves the renderer build');
    fs.readFile(file, (err, body) => {
      if (err) return send(res, 404, 'not found');
      res.writeHead(200, {
        'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'content-security-policy': csp(port),
        'referrer-policy': 'no-referrer',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
  };

  /** Set as the server stops (stopAccepting): no new WebSocket is taken. */
  let stopping = false;
  const wss = new WebSocketServer({ noServer: true, maxPayload: Math.max(MAX_JSON_FRAME, MAX_BINARY_FRAME) + 64 });
  const onUpgrade = (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    socket.on('error', () => undefined); // a reset before or during the handshake is not ours to crash on
    const refuse = (status: number, why: string) => {
      log(`${status} upgrade ${why}: ${describe(req)}`);
      refuseRaw(socket, status, why);
    };
    const target = parseTarget(req.url ?? '');
    if (typeof target === 'string') return refuse(400, target);
    if (!req.headers.host) return refuse(400, 'request has no Host header');
    if (target.path !== '/ws') return refuse(404, `no WebSocket at ${target.path.slice(0, 100)}`);
    const where = checkPlace(req, true);
    if (where) return refuse(403, where);
    if (stopping) return refuse(503, 'the pane server is stopping');
    if (wss.clients.size >= MAX_WS_CONNECTIONS) return refuse(503, `too many WebSockets (${MAX_WS_CONNECTIONS}); close a window`);
    const cookie = hasCookie(req);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const pingMs = o.pingMs ?? WS_PING_MS;
      keepAnswering(ws, pingMs, () => {
        log(`WebSocket closed: it answered no ping in ${Math.round(pingMs / 1000)} s and sent nothing (gone without closing): ${describe(req)}`);
        ws.terminate();
      });
      o.onSocket(ws, { cookie, raw: socket });
    });
  };

  /** Every connection the front holds, oldest first: whether a request is being answered, or it is a WebSocket. */
  const conns = new Map<net.Socket, { busy: number; ws: boolean }>();
  // Deadlines per connection (httpDeadlines.ts), not node's check on an interval that wakes an idle daemon.
  const httpServer = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, ...NODE_DEADLINE_CHECK_OFF }, (req, res) => {
    const held = conns.get(req.socket);
    if (held) {
      held.busy++;
      res.once('close', () => held.busy--);
    }
    try {
      onRequest(req, res);
    } catch (e) {
      log(`500 ${(e as Error).message}: ${describe(req)}`);
      if (!res.headersSent) send(res, 500, 'internal error', { connection: 'close' });
      else res.destroy();
    }
  });
  // Idle sockets (none sent a byte for IDLE_TIMEOUT_MS) are destroyed by node when
  // nobody listens for 'timeout'; a WebSocket's own socket has its timeout cleared by ws.
  httpServer.timeout = IDLE_TIMEOUT_MS;
  httpServer.on('connection', (socket: net.Socket) => {
    if (conns.size >= MAX_HTTP_CONNECTIONS) {
      let idle: net.Socket | undefined;
      for (const [s, c] of conns) {
        if (c.busy === 0 && !c.ws) {
          idle = s;
          break;
        }
      }
      if (!idle) {
        log(`refused a connection: ${MAX_HTTP_CONNECTIONS} connections at once is the limit and none is idle; close a window or tab`);
        return void socket.destroy();
      }
      log(`closed the oldest idle connection (${idle.remoteAddress ?? '?'}:${idle.remotePort ?? '?'}): ${MAX_HTTP_CONNECTIONS} connections at once is the limit`);
      conns.delete(idle);
      idle.destroy();
    }
    conns.set(socket, { busy: 0, ws: false });
    socket.once('close', () => conns.delete(socket));
  });
  httpServer.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const held = conns.get(socket);
    if (held) held.ws = true;
    try {
      onUpgrade(req, socket, head);
    } catch (e) {
      log(`500 upgrade ${(e as Error).message}: ${describe(req)}`);
      refuseRaw(socket, 500, 'internal error');
    }
  });
  keepDeadlines(httpServer, {
    headersMs: HEADERS_TIMEOUT_MS,
    requestMs: REQUEST_TIMEOUT_MS,
    late: (socket, missed) => {
      log(`408 request not sent in time (its ${missed}) from ${socket.remoteAddress ?? '?'}`);
      refuseRaw(socket, 408, `request not sent in time (headers within ${HEADERS_TIMEOUT_MS} ms, the whole request within ${REQUEST_TIMEOUT_MS} ms)`);
    },
  });
  httpServer.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code !== 'ECONNRESET') log(`400 unparsable request (${err.code ?? err.message}) from ${(socket as net.Socket).remoteAddress ?? '?'}`);
    refuseRaw(socket, 400, `bad request: ${err.code ?? 'unparsable'}`);
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(o.port ?? 0, '127.0.0.1', () => {
      httpServer.removeListener('error', reject);
      resolve();
    });
  });
  httpServer.on('error', (e) => log(`server error: ${e.message}`));
  port = (httpServer.address() as net.AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin,
    secret,
    launchUrl(query = '') {
      const token = crypto.randomBytes(18).toString('base64url');
      launchTokens.add(token);
      if (launchTokens.size > MAX_LAUNCH_TOKENS) launchTokens.delete(launchTokens.values().next().value!);
      return `${origin}/?launch=${token}${query ? `&${query.replace(/^[?&]/, '')}` : ''}`;
    },
    tokenOk: (token) => token !== undefined && equal(token, secret),
    stopAccepting() {
      if (stopping) return;
      stopping = true;
      // The listening socket closes now; connections open stay (their close callback is close()'s).
      httpServer.close(() => undefined);
    },
    close: async () => {
      stopping = true;
      const closing = [...wss.clients].filter((c) => c.readyState === c.CLOSING);
      await Promise.all(
        closing.map(
          (c) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, WS_CLOSE_GRACE_MS);
              c.once('close', () => (clearTimeout(timer), resolve()));
            }),
        ),
      );
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise<void>((resolve) => {
        // Its listener may be closed already (stopAccepting): the callback then says so, and there is nothing to wait for.
        httpServer.close(() => resolve());
        httpServer.closeAllConnections?.();
      });
    },
  };
}
