// What `server/metrics` answers: the daemon's own figures and each pane's — bytes
// its program wrote, the CPU and memory of its process tree, who watches it — as
// numbers and short labels, never screen text or titles. `pane metrics` renders
// them as Prometheus text (kits/node/cli/commands/metrics.ts) for a scraper.
import { z } from 'zod';
import { method } from './method';

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
});
export type ServerMetrics = z.infer<typeof ServerMetricsSchema>;

export const metricsMethods = {
  'server/metrics': method({
    params: z.object({}),
    result: ServerMetricsSchema,
    cap: 'read',
    doc: 'The daemon’s figures and each pane’s: output bytes, CPU and memory of its process tree, clients attached (for `pane metrics`, a Prometheus exporter).',
  }),
};
