// `--attach SOCKET`: serves the renderer through the one HTTP front (server/transport/
// httpFront.ts) and relays its WebSocket to a pane server already running on a unix
// socket. The page proves itself with the launch cookie or the per-launch secret in
// hello, which the bridge checks and strips before relaying.
import type { RawData } from 'ws';
import { dial, DialError } from '../kits/node/endpoint';
import type { Transport } from '../kits/client/transport';
import type { Endpoint } from '../kits/protocol/endpoint';
import { describeEndpoint } from '../kits/protocol/endpointForm';
import { guardUntilHello, NEEDS_SECRET } from '../server/transport/admission';
import { startFront, type HttpFront } from '../server/transport/httpFront';

export type Bridge = HttpFront;

/**
 * The hello frame without its token when the page may go on; null when not. A hello
 * carrying an attach grant goes on without the cookie or the secret: the server
 * checks the grant, and the page is its guest or is refused there.
 */
function helloFrame(frame: string, ok: (token: string | undefined) => boolean): string | null {
  let msg: { t?: string; method?: string; params?: { token?: unknown; grant?: unknown } };
  try {
    msg = JSON.parse(frame);
  } catch {
    return null;
  }
  if (msg === null || typeof msg !== 'object' || msg.t !== 'req' || msg.method !== 'hello' || typeof msg.params !== 'object' || msg.params === null) return null;
  if (typeof msg.params.grant !== 'string' && !ok(typeof msg.params.token === 'string' ? msg.params.token : undefined)) return null;
  delete msg.params.token;
  return JSON.stringify(msg);
}

export interface BridgeOptions {
  port?: number;
  staticDir: string;
  log?: (line: string) => void;
  /**
   * Settles when the server on the socket answers (a daemon being started beside the
   * window): a page that connects sooner waits for it instead of being refused, so the
   * browser can start loading while the daemon starts. A rejection closes the page's socket with its reason.
   */
  upstream?: Promise<unknown>;
}

/** The window's bridge to the server at `to`: a unix socket path (the daemon's), or any Endpoint (a remote's stdio, TLS). */
export async function startBridge(to: string | Endpoint, o: BridgeOptions): Promise<Bridge> {
  const endpoint: Endpoint = typeof to === 'string' ? { kind: 'unix', path: to } : to;
  const where = typeof to === 'string' ? to : describeEndpoint(endpoint);
  const log = o.log ?? ((line: string) => process.stderr.write(`pane bridge: ${line}\n`));
  const front: HttpFront = await startFront({
    ...(o.port !== undefined ? { port: o.port } : {}),
    staticDir: o.staticDir,
    log,
    onSocket: (ws, { cookie, raw }) => {
      let upstream: Transport | null = null;
      let helloed = false;
      let closed = false;
      const queue: (string | Uint8Array)[] = [];
      const toBytes = (d: RawData) => (Array.isArray(d) ? Buffer.concat(d) : Buffer.from(d as ArrayBuffer));
      ws.on('message', (data, isBinary) => {
        const buf = toBytes(data);
        let frame: string | Uint8Array = isBinary ? new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) : buf.toString('utf8');
        if (!helloed) {
          const ok = typeof frame === 'string' ? helloFrame(frame, (t) => cookie || front.tokenOk(t)) : null;
          if (ok === null) {
            ws.close(1008, NEEDS_SECRET.slice(0, 120));
            return;
          }
          helloed = true;
          frame = ok;
        }
        if (upstream) upstream.send(frame);
        else queue.push(frame);
      });
      ws.on('close', () => {
        closed = true;
        upstream?.close('renderer closed');
      });
      guardUntilHello(raw, () => helloed, (why) => ws.close(1008, why.slice(0, 120)), { log: (why) => log(`WebSocket closed: ${why}`) });
      (o.upstream ?? Promise.resolve()).then(() => dial(endpoint)).then(
        (t) => {
          if (closed) return t.close('renderer closed');
          upstream = t;
          t.onFrame((f) => ws.readyState === ws.OPEN && ws.send(f, { binary: typeof f !== 'string' }));
          t.onClose((reason) => ws.close(1011, `pane server closed: ${reason}`.slice(0, 120)));
          for (const f of queue.splice(0)) t.send(f);
        },
        // A close reason is at most 123 bytes: the dial's own reason, not its message (which names the path again).
        (e: Error) => ws.close(1011, `no pane server at ${where}: ${e instanceof DialError ? e.reason : e.message}`.slice(0, 120)),
      );
    },
  });
  return front;
}
