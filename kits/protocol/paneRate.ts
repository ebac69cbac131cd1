// A pane's rates from two of its metrics samples: zod-free, so `pane top` (whose
// command table must not load the schemas) and the server share the one formula.
import type { PaneMetrics } from './metrics';

/** One pane's rates between two of its samples `seconds` apart (per second; CPU as percent of one core); null where there is no earlier sample or no time between. */
export interface PaneRate {
  cpuPercent: number | null;
  outPerSecond: number | null;
  readPerSecond: number | null;
  writePerSecond: number | null;
}

/** The one place a pane's rates are worked out: `pane top` between its frames, the server's RateSampler for /server/panes. */
export function paneRate(now: PaneMetrics, before: PaneMetrics | undefined, seconds: number): PaneRate {
  const rate = (x: number, y: number | undefined) => (before === undefined || seconds <= 0 || y === undefined ? null : Math.max(0, (x - y) / seconds));
  const cpu = rate(now.cpuSeconds, before?.cpuSeconds);
  return { cpuPercent: cpu === null ? null : cpu * 100, outPerSecond: rate(now.outputBytes, before?.outputBytes), readPerSecond: rate(now.ioReadBytes, before?.ioReadBytes), writePerSecond: rate(now.ioWriteBytes, before?.ioWriteBytes) };
}
