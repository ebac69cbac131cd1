// HTTP + WebSocket on 127.0.0.1 for the renderer: serves the built renderer and
// a /ws endpoint. Every connection must present the per-launch secret in hello.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { BaseTransport, type WireFrame } from '../../kits/client/transport';
import { MAX_BINARY_FRAME, MAX_JSON_FRAME } from '../../kits/protocol/envelope';
import type { PaneServer } from '../paneServer';
import { ClientConn } from './clientConn';

class WsTransport extends BaseTransport {
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
  close(reason = 'closed'): void {
    if (this.closed) return;
    this.closedBy(reason);
    this.ws.close(1000, reason.slice(0, 120));
  }
}

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

function serveStatic(dir: string | undefined, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (!dir) {
    res.writeHead(404).end('no renderer build configured');
    return;
  }
  const url = new URL(req.url ?? '/', 'http://x');
  const rel = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
  const file = path.resolve(dir, `.${rel}`);
  if (!file.startsWith(path.resolve(dir) + path.sep)) {
    res.writeHead(403).end('forbidden');
    return;
  }
  fs.readFile(file, (err, body) => {
    if (err) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(body);
  });
}

export interface HttpListenResult {
  url: string;
  port: number;
  secret: string;
  close(): Promise<void>;
}

export async function listenHttp(server: PaneServer, o: { port?: number; staticDir?: string; secret?: string }): Promise<HttpListenResult> {
  const secret = o.secret ?? crypto.randomBytes(24).toString('base64url');
  const httpServer = http.createServer((req, res) => serveStatic(o.staticDir, req, res));
  const wss = new WebSocketServer({ noServer: true, maxPayload: Math.max(MAX_JSON_FRAME, MAX_BINARY_FRAME) + 64 });
  httpServer.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const origin = req.headers.origin;
    // Only pages served from this very address may connect (no cross-site WebSocket hijack).
    const host = req.headers.host;
    if (url.pathname !== '/ws' || (origin !== undefined && origin !== `http://${host}`)) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const expected = Buffer.from(secret);
      new ClientConn(server, new WsTransport(ws), (h) => {
        const got = Buffer.from(h.token ?? '');
        if (got.length !== expected.length || !crypto.timingSafeEqual(got, expected)) return 'this WebSocket needs the per-launch secret as the hello token';
        return { capabilities: h.capabilities };
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (httpServer.address() as { port: number }).port;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      httpServer.close(() => resolve());
      httpServer.closeAllConnections?.();
    });
  server.onStop(close);
  return { url: `http://127.0.0.1:${port}/?secret=${encodeURIComponent(secret)}`, port, secret, close };
}
