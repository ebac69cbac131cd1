// Listens on a unix socket (mode 0600 in a 0700 dir that must be ours): every
// local process of the same user may speak pane; nobody else can connect. Holds
// at most MAX_UNIX_CONNECTIONS, each with a hello deadline (admission.ts).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { checkPrivateDir } from '../../kits/node/paths';
import { SocketTransport } from '../../kits/node/socketTransport';
import type { Services } from '../services';
import { admitStream, ConnectionCap, MAX_UNIX_CONNECTIONS, throttledLog } from './admission';
import { ClientConn } from './clientConn';

/** Removes a socket file left by a dead server; refuses when a live one answers. */
async function clearStale(socketPath: string): Promise<void> {
  if (!fs.existsSync(socketPath)) return;
  const alive = await new Promise<boolean>((resolve) => {
    const s = net.createConnection({ path: socketPath });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
  if (alive) throw new Error(`a pane server is already listening on ${socketPath}`);
  fs.unlinkSync(socketPath);
}

export async function listenUnix(services: Services, socketPath: string, o: { helloTimeoutMs?: number } = {}): Promise<net.Server> {
  const { server } = services;
  const dir = path.dirname(socketPath);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A directory someone else owns (or may write) could hold a socket of theirs in our name.
  const wrong = checkPrivateDir(dir);
  if (wrong) throw new Error(wrong);
  await clearStale(socketPath);
  const cap = new ConnectionCap(MAX_UNIX_CONNECTIONS, "the pane server's socket");
  const log = throttledLog((line: string) => server.publish('client/refused', { door: 'unix socket', reason: line }));
  const srv = net.createServer((sock) =>
    admitStream(sock, [cap], () => new ClientConn(services, new SocketTransport(sock, 'unix'), (h) => ({ capabilities: h.capabilities })), { timeoutMs: o.helloTimeoutMs, log }),
  );
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    // umask makes the socket 0600 from birth (chmod after listen would leave a window).
    const old = process.umask(0o177);
    srv.listen(socketPath, () => {
      process.umask(old);
      srv.removeListener('error', reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);
  server.onStop(
    () =>
      new Promise<void>((resolve) => {
        srv.close(() => resolve());
        try {
          fs.unlinkSync(socketPath);
        } catch {
          /* already gone */
        }
      }),
  );
  return srv;
}
