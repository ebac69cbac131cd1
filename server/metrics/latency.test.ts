import { describe, expect, it } from 'vitest';
import { histogramQuantile, LATENCY_BUCKETS_S } from '../../kits/protocol/metrics';
import { prometheusText } from '../../kits/protocol/prometheus';
import { LatencyBook, LatencySeries } from './latency';
import { RATE_WINDOW_MS, RateSampler } from './rates';

describe('latency histograms', () => {
  it('count each observation once, in the first bucket that holds it, cumulatively when read', () => {
    const s = new LatencySeries();
    for (const v of [0.0001, 0.0005, 0.003, 0.012, 20, Number.NaN, -1]) s.observe(v);
    const h = s.read('echo', {});
    expect(h.count).toBe(5);
    expect(h.sum).toBeCloseTo(20.0156, 6);
    expect(h.buckets[0]).toBe(2); // 0.1 ms and 0.5 ms (le is inclusive)
    expect(h.buckets[LATENCY_BUCKETS_S.indexOf(0.005)]).toBe(3);
    expect(h.buckets[LATENCY_BUCKETS_S.indexOf(0.016)]).toBe(4);
    expect(h.buckets.at(-1)).toBe(4); // 20 s is past every bound: only +Inf (the count) holds it
  });

  it('read a quantile off the buckets as histogram_quantile does', () => {
    const s = new LatencySeries();
    for (let i = 0; i < 100; i++) s.observe(i < 90 ? 0.004 : 0.02);
    const h = s.read('echo', {});
    // 90 in (2.5 ms, 5 ms]: the median is 50/90 of the way through it; p99 is in (16 ms, 25 ms].
    expect(histogramQuantile(h, 0.5)).toBeCloseTo(0.0025 + 0.0025 * (50 / 90), 9);
    expect(histogramQuantile(h, 0.99)).toBeCloseTo(0.016 + 0.009 * (9 / 10), 9);
    expect(histogramQuantile(new LatencySeries().read('echo', {}), 0.5)).toBeNull();
  });

  it('key requests by method, and render as a Prometheus histogram with +Inf, sum and count', () => {
    const b = new LatencyBook();
    b.request('pane/list', 0.002);
    b.request('pane/list', 0.03);
    b.request('ns/read', 0.0004);
    b.echo.observe(0.001);
    const text = prometheusText({ host: 'h', version: '1', uptimeSeconds: 1, rssBytes: 1, heapUsedBytes: 1, cpuSeconds: 0, heapTrims: 0, heapTrimmedBytes: 0, eventLoopDelayP50: 0, eventLoopDelayP99: 0, clients: 0, sessions: 0, panes: [], latency: b.read() });
    expect(text).toContain('# TYPE pane_request_duration_seconds histogram');
    expect(text).toContain('pane_request_duration_seconds_bucket{host="h",method="pane/list",le="0.0025"} 1');
    expect(text).toContain('pane_request_duration_seconds_bucket{host="h",method="pane/list",le="+Inf"} 2');
    expect(text).toContain('pane_request_duration_seconds_count{host="h",method="pane/list"} 2');
    expect(text).toContain('pane_request_duration_seconds_count{host="h",method="ns/read"} 1');
    expect(text).toContain('pane_echo_seconds_bucket{host="h",le="0.001"} 1');
    expect(text).toContain('pane_hook_duration_seconds_count{host="h"} 0');
  });
});

describe('per-pane rates', () => {
  it('are taken over one to two windows, shared by readers however often they read', () => {
    let now = 0;
    const r = new RateSampler(() => now);
    const pane = (cpu: number, out: number) => [{ pane: 1, kind: 'terminal', signature: '', session: 's', state: 'running', outputBytes: out, attached: 0, processes: 1, cpuSeconds: cpu, rssBytes: 0, ioReadBytes: 0, ioWriteBytes: 0 }];
    expect(r.rates(pane(0, 0)).get(1)).toEqual({ cpuPercent: null, outputBytesPerSecond: null });
    now = 250;
    expect(r.rates(pane(0.05, 1000)).get(1)).toEqual({ cpuPercent: 20, outputBytesPerSecond: 4000 });
    // Many reads within a window do not shorten it: still against the first sample.
    for (now = 300; now < 1000; now += 100) r.rates(pane(0.2, 4000));
    now = RATE_WINDOW_MS + 250 + 10;
    r.rates(pane(0.3, 5000)); // the 250 ms sample is a window old now: it becomes the base
    now += 500;
    const later = r.rates(pane(0.5, 9000)).get(1)!;
    expect(later.cpuPercent).toBeCloseTo(((0.5 - 0.05) / ((now - 250) / 1000)) * 100, 0);
  });
});
