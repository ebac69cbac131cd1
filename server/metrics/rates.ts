// Per-pane rates for people reading /server/panes (the monitor widget): CPU percent
// and output bytes a second over the last RATE_WINDOW_MS or more. Prometheus computes
// its own rates from the counters; a widget reading a file needs them said. The base
// sample moves only once it is a window old, so several readers at once share one
// window instead of shortening each other's to nothing.
import type { PaneMetrics } from '../../kits/protocol/metrics';
import { paneRate } from '../../kits/protocol/paneRate';

/** The shortest window a rate is taken over: shorter is noise (CPU time ticks in 10 ms). */
export const RATE_WINDOW_MS = 1000;

interface Sample {
  at: number;
  pane: PaneMetrics;
}

export interface PaneRates {
  cpuPercent: number | null;
  outputBytesPerSecond: number | null;
}

export class RateSampler {
  /** What rates are taken against, and the sample that replaces it once a window old. */
  private base: { at: number; panes: Map<number, Sample> } | null = null;
  private recent: { at: number; panes: Map<number, Sample> } | null = null;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Each pane's rates against the base sample (null for a pane not in it); the samples move on. */
  rates(panes: readonly PaneMetrics[]): Map<number, PaneRates> {
    const at = this.now();
    const current = { at, panes: new Map<number, Sample>() };
    const out = new Map<number, PaneRates>();
    for (const p of panes) {
      current.panes.set(p.pane, { at, pane: p });
      const b = this.base?.panes.get(p.pane);
      const r = paneRate(p, b?.pane, b ? (at - b.at) / 1000 : 0);
      out.set(p.pane, { cpuPercent: r.cpuPercent === null ? null : Math.round(r.cpuPercent * 10) / 10, outputBytesPerSecond: r.outPerSecond === null ? null : Math.round(r.outPerSecond) });
    }
    // Between one and two windows, once warm: the base moves up to the sample that is a window old.
    if (!this.base) this.base = current;
    else if (!this.recent) this.recent = current;
    else if (at - this.recent.at >= RATE_WINDOW_MS) {
      this.base = this.recent;
      this.recent = current;
    }
    return out;
  }
}
