// The daemon's latency histograms: a keystroke's echo (input to the program's next
// output), an HTTP hook's answer, a protocol request's reply by method. Always on, so
// an observation is a few comparisons and additions — no allocation, no timer — and a
// series is a fixed array of LATENCY_BUCKETS_S counts (kits/protocol/metrics.ts).
// Cumulative since the daemon started, as a Prometheus histogram is.
import { LATENCY_BUCKETS_S, type LatencyKind } from '../../kits/protocol/latency';
import type { Histogram } from '../../kits/protocol/metrics';

/** One series: per-bucket counts (not cumulative until read), their sum and count. */
export class LatencySeries {
  private readonly counts = new Array<number>(LATENCY_BUCKETS_S.length).fill(0);
  private sum = 0;
  private count = 0;

  observe(seconds: number): void {
    if (!(seconds >= 0)) return; // NaN or a clock that went back: not a latency
    this.sum += seconds;
    this.count++;
    for (let i = 0; i < LATENCY_BUCKETS_S.length; i++) {
      if (seconds <= LATENCY_BUCKETS_S[i]!) {
        this.counts[i]!++;
        return;
      }
    }
  }

  read(name: LatencyKind, labels: Record<string, string>): Histogram {
    let run = 0;
    const buckets = this.counts.map((n) => (run += n));
    return { name, labels, buckets, sum: this.sum, count: this.count };
  }
}

/**
 * Input to a pane's program counts as a keystroke waiting for its echo until the
 * program's next output, for ECHO_WAIT_MS at most: output later than that answers
 * something else (a program that echoes nothing, then prints a minute later).
 */
export const ECHO_WAIT_MS = 2000;

export class LatencyBook {
  readonly echo = new LatencySeries();
  readonly hook = new LatencySeries();
  /** By method name: only the protocol's own methods are observed, so the labels are bounded by its method count. */
  private readonly requests = new Map<string, LatencySeries>();

  request(method: string, seconds: number): void {
    let s = this.requests.get(method);
    if (!s) this.requests.set(method, (s = new LatencySeries()));
    s.observe(seconds);
  }

  read(): Histogram[] {
    const out = [this.echo.read('echo', {}), this.hook.read('hook', {})];
    for (const [method, s] of [...this.requests].sort(([a], [b]) => (a < b ? -1 : 1))) out.push(s.read('request', { method }));
    return out;
  }
}
