// The latency histograms' shape, zod-free: the CLI's start-up path (`pane top`,
// `pane metrics`) and the daemon's hot path read it; kits/protocol/metrics.ts holds
// the schema of the histograms server/metrics answers with.

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

/**
 * The q-quantile (0..1) of a histogram in seconds, interpolated inside its bucket as
 * Prometheus's histogram_quantile does; null with no observation. Past the last bound
 * it says the last bound (the histogram cannot tell more).
 */
export function histogramQuantile(h: { buckets: readonly number[]; count: number }, q: number): number | null {
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
