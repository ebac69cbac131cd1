// Client and server handlers: hello, event subscription, client list, write
// permission, server info and stop.
import { bodyOf } from '../model/bodies/registry';
import { faults } from '../../kits/protocol/error';
import { PROTOCOL_VERSION } from '../../kits/protocol/hello';
import { runningVersion } from '../../kits/node/version';
import type { HandlerTable } from './types';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { processTable, treeUsage } from '../pty/procStats';

/** A histogram's nanoseconds as seconds; 0 before its first sample (an empty histogram reports nonsense). */
const seconds = (ns: number) => (Number.isFinite(ns) && ns > 0 && ns < 1e15 ? ns / 1e9 : 0);

/** The event loop's delay, sampled every 10 ms from the first scrape on (reset at each). */
let loop: IntervalHistogram | undefined;
function loopDelay(): IntervalHistogram {
  if (!loop) {
    loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
  }
  return loop;
}

export const clientHandlers: HandlerTable = {
  // hello itself is answered by ClientConn (it must run before capabilities exist).
  'events/subscribe': (p, { server, client }) => {
    // Synchronous on purpose: the reply is sent before any later event, so the
    // snapshot and the event stream meet with no gap and no overlap.
    client.subscribe(p.families);
    return server.snapshot();
  },
  'events/unsubscribe': (_p, { client }) => {
    client.subscribe(undefined, false);
    return {};
  },
  'client/list': (_p, { services }) => ({ clients: [...services.connections].map((c) => c.info()) }),
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
    };
  },
  'server/metrics': (_p, { server, services }) => {
    const table = processTable();
    const attached = new Map<number, number>();
    for (const c of services.connections) for (const n of c.attached) attached.set(n, (attached.get(n) ?? 0) + 1);
    const panes = [...server.panes.values()].map((p) => {
      const usage = p.pid !== null && p.state === 'running' ? treeUsage(table, p.pid) : { processes: 0, cpuSeconds: 0, rssBytes: 0 };
      const agent = p.attrs.agent ?? (bodyOf(p.kind).agent ? p.owner : undefined);
      return {
        pane: p.n,
        kind: p.kind,
        signature: p.signature,
        session: server.sessions.get(p.session)?.name ?? p.session,
        ...(agent ? { agent } : {}),
        state: p.state,
        outputBytes: server.terminals.get(p.n)?.streamEnd ?? 0,
        attached: attached.get(p.n) ?? 0,
        ...usage,
      };
    });
    const m = process.memoryUsage();
    const cpu = process.cpuUsage();
    const delay = loopDelay();
    const r = {
      host: server.host,
      version: runningVersion(),
      uptimeSeconds: (Date.now() - server.startedAt) / 1000,
      rssBytes: m.rss,
      heapUsedBytes: m.heapUsed,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      eventLoopDelayP50: seconds(delay.percentile(50)),
      eventLoopDelayP99: seconds(delay.percentile(99)),
      clients: services.connections.size,
      sessions: server.sessions.size,
      panes,
    };
    delay.reset();
    return r;
  },
  'server/launch-url': (_p, { server, client }) => {
    // The URL's cookie grants whatever its page asks for, as the person: never to an agent.
    if (client.checkAccess) throw faults.denied('an agent may not open a window as the person (server/launch-url)');
    if (!server.launchUrl) throw faults.failed('this server has no HTTP front; start it with `pane serve --http PORT` (or `npm start`)');
    return { url: server.launchUrl() };
  },
  'stdio/adopt': (p, { client }) => {
    if (!client.adopt) throw faults.denied(`a ${client.transport.kind} client may not hand over its stdio; only the person's own socket takes pipes over (stdio/adopt)`);
    return { client: client.adopt(p) };
  },
  'server/tls-recheck': (_p, { services }) => services.tls?.recheck() ?? { door: false, closed: 0 },
  'server/stop': (_p, { server }) => {
    setTimeout(() => void server.stop().then(() => process.emit('pane:stopped' as never)), 10);
    return {};
  },
};
