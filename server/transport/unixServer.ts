// Listens on a unix socket (mode 0600 in a 0700 dir): every local process of the
// same user may speak pane; nobody else can connect.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { SocketTransport } from '../../kits/node/socketTransport';
import type { PaneServer } from '../paneServer';
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

export async function listenUnix(server: PaneServer, socketPath: string): Promise<net.Server> {
  fs.mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  await clearStale(socketPath);
  const srv = net.createServer((sock) => {
    new ClientConn(server, new SocketTransport(sock, 'unix'), (h) => ({ capabilities: h.capabilities }));
  });
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
