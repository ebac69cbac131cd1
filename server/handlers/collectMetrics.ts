// One collection of the daemon's figures (server/metrics' answer): the daemon's own
// memory, CPU and event-loop delay, each pane's output bytes, viewers and the CPU,
// memory and storage I/O of its process tree, and the latency histograms. Asked by
// the protocol handler and by the HTTP front's scrape path, each as its own caller.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { ServerMetrics } from '../../kits/protocol/metrics';
import { runningVersion } from '../../kits/node/version';
import { bodyOf } from '../model/bodies/registry';
import { NO_USAGE, ProcSampler } from '../pty/procStats';
import type { Services } from '../services';

/**
 * How often the event loop's delay is sampled (ms): a timer that fires this often for
 * as long as the daemon runs. 10 ms cost about 1% of a core on a VM (the bench's
 * metrics rows); 50 ms still catches every stall a person feels (a frame is 16 ms,
 * and a stall of any length delays the sample that spans it by that much).
 */
export const LOOP_SAMPLE_MS = 50;

/**
 * How late the loop was, in seconds, from a sample of Node's delay histogram: it
 * records the whole time between its timer's ticks, the resolution included (an idle
 * loop reads 50 ms at a resolution of 50), so the resolution is taken off. 0 before
 * the first sample (an empty histogram reports nonsense).
 */
export function lateSeconds(intervalNs: number): number {
  if (!Number.isFinite(intervalNs) || intervalNs <= 0 || intervalNs >= 1e15) return 0;
  return Math.max(0, intervalNs - LOOP_SAMPLE_MS * 1e6) / 1e9;
}

/** The event loop's delay, sampled from the first collection on (reset at each). */
let loop: IntervalHistogram | undefined;
function loopDelay(): IntervalHistogram {
  if (!loop) {
    loop = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
    loop.enable();
  }
  return loop;
}

/** What /proc holds of each pane's tree, read only where it can have changed (one per daemon process). */
const sampler = new ProcSampler();

export function collectMetrics(services: Services): ServerMetrics {
  const { server } = services;
  const running = [...server.panes.values()].filter((p) => p.pid !== null && p.state === 'running').map((p) => p.pid!);
  const usage = sampler.usage(running);
  const attached = new Map<number, number>();
  for (const c of services.connections) for (const n of c.attached) attached.set(n, (attached.get(n) ?? 0) + 1);
  const panes = [...server.panes.values()].map((p) => {
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
      ...((p.pid !== null && p.state === 'running' ? usage.get(p.pid) : undefined) ?? NO_USAGE),
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
    heapTrims: server.heapTrims?.trims ?? 0,
    heapTrimmedBytes: server.heapTrims?.freedBytes ?? 0,
    eventLoopDelayP50: lateSeconds(delay.percentile(50)),
    eventLoopDelayP99: lateSeconds(delay.percentile(99)),
    clients: services.connections.size,
    sessions: server.sessions.size,
    panes,
    latency: server.latency.read(),
  };
  delay.reset();
  return r;
}
