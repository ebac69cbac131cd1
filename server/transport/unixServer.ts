// Listens on a unix socket (mode 0600 in a 0700 dir that must be ours, kits/node/endpoint.ts):
// every local process of the same user may speak pane; nobody else can connect. Holds
// at most MAX_UNIX_CONNECTIONS, each with a hello deadline (admission.ts).
import type net from 'node:net';
import { listen } from '../../kits/node/endpoint';
import type { StreamTransport } from '../../kits/node/streamTransport';
import type { Services } from '../services';
import { admitStream, ConnectionCap, MAX_UNIX_CONNECTIONS, throttledLog } from './admission';
import { ClientConn } from './clientConn';
import { adoptStdio } from './stdioAdopt';

/**
 * The person's socket. `ready`, when given, holds each connection (its frames wait
 * in the transport) until it settles: the daemon listens before it restores its
 * state, so the socket file is in place while restored agents' sandboxes are made
 * (each hides it), and no client sees a half-restored server.
 */
export async function listenUnix(services: Services, socketPath: string, o: { helloTimeoutMs?: number } = {}, ready?: Promise<unknown>): Promise<net.Server> {
  const { server } = services;
  const cap = new ConnectionCap(MAX_UNIX_CONNECTIONS, "the pane server's socket");
  const log = throttledLog((line: string) => server.publish('client/refused', { door: 'unix socket', reason: line }));
  // A client here is the person, and may hand its stdio pipes over (stdio/adopt): they come in through this door, under its cap.
  const admit = (t: StreamTransport): ClientConn | undefined => admitStream(t, [cap], (t) => new ClientConn(services, t, (h) => ({ capabilities: h.capabilities, adopt: (p, relay) => adoptStdio(p, relay, admit) })), { timeoutMs: o.helloTimeoutMs, log });
  const listener = await listen({ kind: 'unix', path: socketPath }, (t) => {
    if (ready) void ready.then(() => admit(t), () => admit(t));
    else admit(t);
  });
  // Closed as the stop begins, so no client comes in while the programs end; not waited for: its close waits for
  // every connection to end, and the one that asked for the stop stays open until it is done (Connections.holdUntilStopped).
  server.onDisconnect(() => void listener.close());
  return listener.server;
}
