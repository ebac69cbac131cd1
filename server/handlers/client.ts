// Client and server handlers: hello, event subscription, client list, write
// permission, server info and stop.
import { bodyOf } from '../model/bodies/registry';
import { faults } from '../../kits/protocol/error';
import { PROTOCOL_VERSION } from '../../kits/protocol/hello';
import { runningVersion } from '../../kits/node/version';
import type { HandlerTable } from './types';
import type { PaneServer } from '../paneServer';
import { collectMetrics } from './collectMetrics';
import { scopeOf, scopedSnapshot } from '../grants/scope';

export const clientHandlers: HandlerTable = {
  // hello itself is answered by ClientConn (it must run before capabilities exist).
  'events/subscribe': (p, { server, client }) => {
    // Synchronous on purpose: the reply is sent before any later event, so the
    // snapshot and the event stream meet with no gap and no overlap.
    client.subscribe(p.families);
    const scope = scopeOf(client.principal);
    return scope === undefined ? server.snapshot() : scopedSnapshot(server.snapshot(), scope);
  },
  'events/unsubscribe': (_p, { client }) => {
    client.subscribe(undefined, false);
    return {};
  },
  // A guest sees the clients of its own grant alone (not who else is connected).
  'client/list': (_p, { services, client }) => ({ clients: [...services.connections].filter((c) => client.principal.kind !== 'grant' || (c.principal.kind === 'grant' && c.principal.id === client.principal.id)).map((c) => c.info()) }),
  'client/permission': (p, { services }) => {
    const c = services.connections.find((x) => x.id === p.client);
    if (!c) throw faults.failed(`client ${p.client} is not connected`);
    c.canWrite = p.canWrite;
    return { client: c.id, canWrite: c.canWrite };
  },
  'server/info': (_p, { server, services }) => {
    const m = process.memoryUsage();
    return {
      host: server.host,
      version: runningVersion(),
      protocol: PROTOCOL_VERSION,
      pid: process.pid,
      socket: server.socketPath,
      startedAt: server.startedAt,
      rev: server.rev,
      panes: server.panes.size,
      sessions: server.sessions.size,
      clients: services.connections.size,
      memory: { rss: m.rss, heapUsed: m.heapUsed },
      codeReplaced: server.code?.replaced() ?? false,
    };
  },
  'server/metrics': (_p, { services }) => collectMetrics(services),
  'server/launch-url': async (_p, { server, client }) => {
    // The URL's cookie grants whatever its page asks for, as the person: never to an agent.
    if (client.checkAccess) throw faults.denied('an agent may not open a window as the person (server/launch-url)');
    const launchUrl = await frontUrl(server);
    if (!launchUrl) throw faults.failed('this server has no HTTP front; start it with `pane serve --http PORT` (or `npm start`)');
    return { url: launchUrl() };
  },
  'stdio/adopt': (p, { client }) => {
    if (!client.adopt) throw faults.denied(`a ${client.transport.kind} client may not hand over its stdio; only the person's own socket takes pipes over (stdio/adopt)`);
    return { client: client.adopt(p) };
  },
  'server/tls-recheck': (_p, { services }) => services.tls?.recheck() ?? { door: false, closed: 0 },
  'server/stop': (_p, { server, client, services }) => {
    services.connections.holdUntilStopped(client); // its close says the stop is done
    setTimeout(() => void server.stop().then(() => process.emit('pane:stopped' as never)), 10);
    return {};
  },
};

/**
 * The front's launch-URL maker, the front opened first if this daemon started without
 * one (a daemon `npm start` started serves its window through its own bridge): undefined
 * where no front can be had (a server without renderer files, in-memory tests).
 */
export async function frontUrl(server: PaneServer): Promise<((query?: string) => string) | undefined> {
  if (!server.launchUrl && server.openFront) await server.openFront();
  return server.launchUrl ?? undefined;
}
