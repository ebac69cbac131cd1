// What `server/metrics` answers: the daemon's own figures and each pane's — bytes
// its program wrote, the CPU and memory of its process tree, who watches it — as
// numbers and short labels, never screen text or titles — and the daemon's latency
// histograms (echo, hook, protocol call). kits/protocol/prometheus.ts renders them
// as Prometheus text for `pane metrics`, /pane/server/metrics and the HTTP front's
// scrape path; `pane top` and the monitor widget read the same answer.
import { z } from 'zod';
import { method } from './method';

/**
 * The upper bounds (seconds) of every latency histogram's buckets, shared by all so a
 * quantile can be read off any of them: 0.5 ms (a socket round trip) to 10 s (a hook
 * that waited on a person). A frame is 16.7 ms; the bounds bracket it.
 */
export const LATENCY_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.016, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** What each histogram times. */
export const LATENCY_KINDS = {
  echo: 'Time from input reaching a pane’s program to its next output (its echo), as the daemon sees it: the program’s and the PTY’s part of a keystroke’s echo.',
  hook: 'Time an agent CLI’s hook request spent at pane’s HTTP hook door, from its whole body to the answer: what the CLI waits on pane for.',
  request: 'Time the daemon took to answer a protocol request, by method, from its frame to the reply.',
} as const;
export type LatencyKind = keyof typeof LATENCY_KINDS;

export const HistogramSchema = z.object({
  name: z.enum(Object.keys(LATENCY_KINDS) as [LatencyKind, ...LatencyKind[]]),
  labels: z.record(z.string(), z.string()),
  /** Cumulative counts: buckets[i] observations took at most LATENCY_BUCKETS_S[i] seconds. */
  buckets: z.array(z.number().int().min(0)).length(LATENCY_BUCKETS_S.length),
  /** Seconds in all. */
  sum: z.number().min(0),
  count: z.number().int().min(0),
});
export type Histogram = z.infer<typeof HistogramSchema>;

/**
 * The q-quantile (0..1) of a histogram in seconds, interpolated inside its bucket as
 * Prometheus's histogram_quantile does; null with no observation. Past the last bound
 * it says the last bound (the histogram cannot tell more).
 */
export function histogramQuantile(h: Pick<Histogram, 'buckets' | 'count'>, q: number): number | null {
  if (h.count === 0) return null;
  const rank = q * h.count;
  let below = 0;
  for (let i = 0; i < LATENCY_BUCKETS_S.length; i++) {
    const n = h.buckets[i] ?? 0;
    if (n >= rank) {
      const lo = i === 0 ? 0 : LATENCY_BUCKETS_S[i - 1]!;
      const hi = LATENCY_BUCKETS_S[i]!;
      const inBucket = n - below;
      return inBucket === 0 ? hi : lo + (hi - lo) * ((rank - below) / inBucket);
    }
    below = n;
  }
  return LATENCY_BUCKETS_S[LATENCY_BUCKETS_S.length - 1]!;
}

export const PaneMetricsSchema = z.object({
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
});
export type PaneMetrics = z.infer<typeof PaneMetricsSchema>;

export const ServerMetricsSchema = z.object({
  host: z.string(),
  version: z.string(),
  uptimeSeconds: z.number(),
  rssBytes: z.number(),
  heapUsedBytes: z.number(),
  cpuSeconds: z.number(),
  /** The event loop's delay over the last interval: p50 and p99, in seconds (what every request and keystroke waits behind). */
  eventLoopDelayP50: z.number(),
  eventLoopDelayP99: z.number(),
  clients: z.number().int(),
  sessions: z.number().int(),
  panes: z.array(PaneMetricsSchema),
  /** The latency histograms since the daemon started (cumulative, as Prometheus wants them). */
  latency: z.array(HistogramSchema).default([]),
});
export type ServerMetrics = z.infer<typeof ServerMetricsSchema>;

export const metricsMethods = {
  'server/metrics': method({
    params: z.object({}),
    result: ServerMetricsSchema,
    cap: 'read',
    doc: 'The daemon’s figures and each pane’s: output bytes, CPU, memory and storage I/O of its process tree, clients attached, and the echo, hook and request latency histograms (for `pane metrics`, `pane top`, a Prometheus scrape).',
  }),
};
