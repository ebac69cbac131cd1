// `--attach SOCKET`: serves the renderer on 127.0.0.1 and relays its WebSocket to a
// pane server that is already running on a unix socket. The page proves itself with
// the per-launch secret in hello, which the bridge checks and strips before relaying.
import crypto from 'node:crypto';
import http from 'node:http';
import { WebSocketServer, type RawData } from 'ws';
import { connectUnix } from '../kits/node/socketTransport';
import { MAX_BINARY_FRAME, MAX_JSON_FRAME } from '../kits/protocol/envelope';
import { serveStatic } from './staticFiles';

export interface Bridge {
  port: number;
  secret: string;
  close(): Promise<void>;
}

function tokenOk(frame: string, secret: string): string | null {
  let msg: { t?: string; method?: string; params?: { token?: unknown } };
  try {
    msg = JSON.parse(frame);
  } catch {
    return null;
  }
  if (msg.t !== 'req' || msg.method !== 'hello' || typeof msg.params?.token !== 'string') return null;
  const got = Buffer.from(msg.params.token);
  const want = Buffer.from(secret);
  if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) return null;
  delete msg.params.token;
  return JSON.stringify(msg);
}

export async function startBridge(socketPath: string, o: { port?: number; staticDir: string }): Promise<Bridge> {
  const secret = crypto.randomBytes(24).toString('base64url');
  const httpServer = http.createServer((req, res) => serveStatic(o.staticDir, req, res));
  const wss = new WebSocketServer({ noServer: true, maxPayload: Math.max(MAX_JSON_FRAME, MAX_BINARY_FRAME) + 64 });
  httpServer.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const origin = req.headers.origin;
    if (url.pathname !== '/ws' || (origin !== undefined && origin !== `http://${req.headers.host}`)) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      let upstream: Awaited<ReturnType<typeof connectUnix>> | null = null;
      let helloed = false;
      const queue: (string | Uint8Array)[] = [];
      const toBytes = (d: RawData) => (Array.isArray(d) ? Buffer.concat(d) : Buffer.from(d as ArrayBuffer));
      ws.on('message', (data, isBinary) => {
        const buf = toBytes(data);
        let frame: string | Uint8Array = isBinary ? new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) : buf.toString('utf8');
        if (!helloed) {
          const ok = typeof frame === 'string' ? tokenOk(frame, secret) : null;
          if (ok === null) {
            ws.close(1008, 'this WebSocket needs the per-launch secret as the hello token');
            return;
          }
          helloed = true;
          frame = ok;
        }
        if (upstream) upstream.send(frame);
        else queue.push(frame);
      });
      ws.on('close', () => upstream?.close('renderer closed'));
      connectUnix(socketPath).then(
        (t) => {
          upstream = t;
          t.onFrame((f) => ws.readyState === ws.OPEN && ws.send(f, { binary: typeof f !== 'string' }));
          t.onClose((reason) => ws.close(1011, `pane server closed: ${reason}`.slice(0, 120)));
          for (const f of queue.splice(0)) t.send(f);
        },
        (e: Error) => ws.close(1011, `no pane server at ${socketPath}: ${e.message}`.slice(0, 120)),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (httpServer.address() as { port: number }).port;
  return {
    port,
    secret,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        httpServer.close(() => resolve());
        httpServer.closeAllConnections?.();
      }),
  };
}
