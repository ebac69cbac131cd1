// Each sandboxed agent's way to pane: a unix socket in its own home that speaks as
// that agent, whatever the hello says (tokens are not looked at). The person's
// socket is hidden inside the sandbox, so this is the only door, and it opens
// only onto the agent's own .access. It admits as the person's socket does
// (admission.ts): a cap on this socket and on all agents' together, a hello deadline
// and a byte limit before hello. It is a door, so it lives with the transports:
// openAgentDoors registers it (and the agent's hook socket) on the agent service,
// which asks for them through agents/doors.ts's AgentDoors.
import fs from 'node:fs';
import net from 'node:net';
import { SocketTransport } from '../../kits/node/socketTransport';
import { agentGrant } from '../agents/accessCheck';
import { endpointPath } from '../agents/doors';
import type { AgentService } from '../agents/service';
import type { Services } from '../services';
import { admitStream, ConnectionCap, MAX_AGENT_CONNECTIONS, MAX_AGENT_SOCKET_CONNECTIONS, throttledLog } from './admission';
import { ClientConn } from './clientConn';
import { ensureAgentHookSocket } from './hookListener';

const endpoints = new WeakMap<AgentService, Map<string, net.Server>>();
/** All agents' sockets of one server together hold at most MAX_AGENT_CONNECTIONS. */
const totals = new WeakMap<AgentService, ConnectionCap>();

/** Gives the agent service its doors: each agent's pane socket and hook socket, opened on first need. */
export function openAgentDoors(services: Services, svc: AgentService): void {
  svc.doors = {
    ensureSocket: (name) => ensureEndpoint(services, svc, name),
    ensureHookSocket: (name, file) => ensureAgentHookSocket(services, name, file),
  };
}

/** Listens on the agent's socket (once per agent per server) and returns its path. */
export function ensureEndpoint(services: Services, svc: AgentService, name: string): string {
  const file = endpointPath(svc, name);
  let all = endpoints.get(svc);
  if (!all) {
    endpoints.set(svc, (all = new Map()));
    const mine = all;
    svc.server.onStop(() => {
      for (const [n, srv] of mine) {
        srv.close();
        fs.rmSync(endpointPath(svc, n), { force: true });
      }
      mine.clear();
    });
  }
  if (all.has(name) && fs.existsSync(file)) return file;
  all.get(name)?.close();
  // A socket file left by an earlier server (or removed by the agent) is replaced.
  fs.rmSync(file, { force: true });
  let total = totals.get(svc);
  if (!total) totals.set(svc, (total = new ConnectionCap(MAX_AGENT_CONNECTIONS, "all agents' sockets together")));
  const caps = [new ConnectionCap(MAX_AGENT_SOCKET_CONNECTIONS, `agent ${name}'s socket`), total];
  const log = throttledLog((line: string) => {
    svc.server.publish('client/refused', { door: `agent ${name}'s socket`, reason: line });
    svc.store.log(name, `its pane socket ${line}`);
  });
  const srv = net.createServer((sock) =>
    admitStream(
      new SocketTransport(sock, 'unix'),
      caps,
      (t) => new ClientConn(services, t, (hello) => (svc.store.exists(name) ? agentGrant(svc, name, hello.capabilities) : `agent ${name} has no account any more`), 'none'),
      { timeoutMs: services.admission.helloTimeoutMs, log },
    ),
  );
  srv.on('error', (e) => svc.store.log(name, `its pane socket ${file} failed: ${e.message}`));
  // Node binds a unix socket synchronously inside listen(): the path exists before the program starts.
  const old = process.umask(0o177);
  try {
    srv.listen(file);
  } finally {
    process.umask(old);
  }
  all.set(name, srv);
  return file;
}
