// A TLS door onto this server: mutual TLS only (a client certificate signed by the
// endpoint's `ca`), admitted like every stream door (admission.ts: a cap, a hello
// deadline, a byte limit before hello). Not opened by default: a remote host's pairing
// (issue 26, `pane host pair`) or a test composes it; the certificate is the identity,
// so a connection that passed the handshake asks for what the person's socket may.
import type { ListenEndpoint } from '../../kits/protocol/endpoint';
import { listen, type Listener } from '../../kits/node/endpoint';
import type { Services } from '../services';
import { admitStream, ConnectionCap, throttledLog } from './admission';
import { ClientConn } from './clientConn';

/** TLS connections at once: remote views of this machine (a few windows, CLIs, mounts); the person's socket's 256 with room to spare is far more than needed. */
export const MAX_TLS_CONNECTIONS = 64;

/** Listens on a TLS endpoint; refuses one without `ca`, whose door would take any client on the network. */
export async function listenTls(services: Services, e: Extract<ListenEndpoint, { kind: 'tls' }>, o: { helloTimeoutMs?: number } = {}): Promise<Listener> {
  if (e.ca === undefined) throw new Error(`tls://${e.host}:${e.port}: a TLS door needs ca= (the CA that signs its clients' certificates); without it anyone who reaches the port would be the person`);
  const { server } = services;
  const door = `TLS door ${e.host}:${e.port}`;
  const cap = new ConnectionCap(MAX_TLS_CONNECTIONS, door);
  const log = throttledLog((line: string) => server.publish('client/refused', { door, reason: line }));
  const listener = await listen(e, (t) => admitStream(t, [cap], (t) => new ClientConn(services, t, (h) => ({ capabilities: h.capabilities })), { timeoutMs: o.helloTimeoutMs, log }));
  server.onStop(() => listener.close());
  return listener;
}
