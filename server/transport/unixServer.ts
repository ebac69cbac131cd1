// Listens on a unix socket (mode 0600 in a 0700 dir that must be ours, kits/node/endpoint.ts):
// every local process of the same user may speak pane; nobody else can connect. Holds
// at most MAX_UNIX_CONNECTIONS, each with a hello deadline (admission.ts).
import type net from 'node:net';
import { listen } from '../../kits/node/endpoint';
import type { Services } from '../services';
import { admitStream, ConnectionCap, MAX_UNIX_CONNECTIONS, throttledLog } from './admission';
import { ClientConn } from './clientConn';

export async function listenUnix(services: Services, socketPath: string, o: { helloTimeoutMs?: number } = {}): Promise<net.Server> {
  const { server } = services;
  const cap = new ConnectionCap(MAX_UNIX_CONNECTIONS, "the pane server's socket");
  const log = throttledLog((line: string) => server.publish('client/refused', { door: 'unix socket', reason: line }));
  const listener = await listen({ kind: 'unix', path: socketPath }, (t) =>
    admitStream(t, [cap], (t) => new ClientConn(services, t, (h) => ({ capabilities: h.capabilities })), { timeoutMs: o.helloTimeoutMs, log }),
  );
  server.onStop(() => listener.close());
  return listener.server;
}
