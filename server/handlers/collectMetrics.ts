// One collection of the daemon's figures (server/metrics' answer): the daemon's own
// memory, CPU and event-loop delay, each pane's output bytes, viewers and the CPU,
// memory and storage I/O of its process tree, and the latency histograms. Asked by
// the protocol handler and by the HTTP front's scrape path, each as its own caller.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { ServerMetrics } from '../../kits/protocol/metrics';
import { runningVersion } from '../../kits/node/version';
import { bodyOf } from '../model/bodies/registry';
import { childrenOf, processTable, treeUsage } from '../pty/procStats';
import type { Services } from '../services';

/** A histogram's nanoseconds as seconds; 0 before its first sample (an empty histogram reports nonsense). */
const seconds = (ns: number) => (Number.isFinite(ns) && ns > 0 && ns < 1e15 ? ns / 1e9 : 0);

/** The event loop's delay, sampled every 10 ms from the first collection on (reset at each). */
let loop: IntervalHistogram | undefined;
function loopDelay(): IntervalHistogram {
  if (!loop) {
    loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
  }
  return loop;
}

export function collectMetrics(services: Services): ServerMetrics {
  const { server } = services;
  const table = processTable();
  const children = childrenOf(table);
  const attached = new Map<number, number>();
  for (const c of services.connections) for (const n of c.attached) attached.set(n, (attached.get(n) ?? 0) + 1);
  const idle = { processes: 0, cpuSeconds: 0, rssBytes: 0, ioReadBytes: 0, ioWriteBytes: 0 };
  const panes = [...server.panes.values()].map((p) => {
    const usage = p.pid !== null && p.state === 'running' ? treeUsage(table, p.pid, children) : idle;
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
  const r: ServerMetrics = {
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
    latency: server.latency.read(),
  };
  delay.reset();
  return r;
}
