// What `server/metrics` answers: the daemon's own figures and each pane's — bytes
// its program wrote, the CPU and memory of its process tree, who watches it — as
// numbers and short labels, never screen text or titles — and the daemon's latency
// histograms (echo, hook, protocol call). kits/protocol/prometheus.ts renders them
// as Prometheus text for `pane metrics`, /pane/server/metrics and the HTTP front's
// scrape path; `pane top` and the monitor widget read the same answer.
import { z } from 'zod';
import { method } from './method';
import { LATENCY_BUCKETS_S, LATENCY_KINDS, type LatencyKind } from './latency';
import { lazySchema } from './lazySchema';

export { histogramQuantile, LATENCY_BUCKETS_S, LATENCY_KINDS, type LatencyKind } from './latency';

export const HistogramSchema = lazySchema(() => z.object({
  name: z.enum(Object.keys(LATENCY_KINDS) as [LatencyKind, ...LatencyKind[]]),
  labels: z.record(z.string(), z.string()),
  /** Cumulative counts: buckets[i] observations took at most LATENCY_BUCKETS_S[i] seconds. */
  buckets: z.array(z.number().int().min(0)).length(LATENCY_BUCKETS_S.length),
  /** Seconds in all. */
  sum: z.number().min(0),
  count: z.number().int().min(0),
}));
export type Histogram = z.infer<typeof HistogramSchema>;


export const PaneMetricsSchema = lazySchema(() => z.object({
  pane: z.number().int(),
  kind: z.string(),
  signature: z.string(),
  session: z.string(),
  /** The agent that runs in it, when one does. */
  agent: z.string().optional(),
  state: z.string(),
  /** Bytes its program has written since it started (the stream's end offset). */
  outputBytes: z.number().int().min(0),
  /** Clients streaming it now. */
  attached: z.number().int().min(0),
  /** Its process tree (the program and every descendant), when it runs here. */
  processes: z.number().int().min(0),
  cpuSeconds: z.number().min(0),
  rssBytes: z.number().min(0),
  /** Bytes its live processes caused to be read from and written to storage (/proc/PID/io read_bytes, write_bytes). */
  ioReadBytes: z.number().min(0).default(0),
  ioWriteBytes: z.number().min(0).default(0),
}));
export type PaneMetrics = z.infer<typeof PaneMetricsSchema>;

export const ServerMetricsSchema = lazySchema(() => z.object({
  host: z.string(),
  version: z.string(),
  uptimeSeconds: z.number(),
  rssBytes: z.number(),
  heapUsedBytes: z.number(),
  cpuSeconds: z.number(),
  /** Times the daemon handed freed heap back to the system after a flood (server/heapTrimmer.ts; 0 where it cannot). */
  heapTrims: z.number().int().min(0).default(0),
  /** Resident bytes those trims gave back, in all. */
  heapTrimmedBytes: z.number().min(0).default(0),
  /** The event loop's delay over the last interval: p50 and p99, in seconds (what every request and keystroke waits behind). */
  eventLoopDelayP50: z.number(),
  eventLoopDelayP99: z.number(),
  clients: z.number().int(),
  sessions: z.number().int(),
  panes: z.array(PaneMetricsSchema),
  /** The latency histograms since the daemon started (cumulative, as Prometheus wants them). */
  latency: z.array(HistogramSchema).default([]),
}));
export type ServerMetrics = z.infer<typeof ServerMetricsSchema>;

export const metricsMethods = {
  'server/metrics': method({
    params: lazySchema(() => z.object({})),
    result: ServerMetricsSchema,
    cap: 'read',
    doc: 'The daemon’s figures and each pane’s: output bytes, CPU, memory and storage I/O of its process tree, clients attached, and the echo, hook and request latency histograms (for `pane metrics`, `pane top`, a Prometheus scrape).',
  }),
};
