// What measuring costs: the daemon's CPU for one server/metrics collection with 50 panes
// (bash, as a desktop has) — a burst of collections, less the daemon's own background
// measured alone before and after — as a share of a core at a scrape a second (the
// monitor widget's and `pane top`'s pace) and at Prometheus's default 15 s; each
// collection's wall time; and one latency observation on the hot path against the
// performance.now() it needs anyway.
import fs from 'node:fs';
import path from 'node:path';
import { LatencySeries } from '../server/metrics/latency';
import { client, sleep, startServerProc, tileEvenly } from './procs';
import { summarize, type Summary } from './stats';

export const METRICS_PANES = 50;
/** How long each window of the daemon alone lasts: CPU ticks are 10 ms, so 10 s reads to 0.1%. */
const WINDOW_MS = 10_000;
/** Collections back to back: enough CPU (a second or more) that 10 ms ticks are noise. */
const BURST = 300;

/** CPU seconds a process has used (utime + stime, /proc/PID/stat). */
function cpuOf(pid: number): number {
  const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

export interface MetricsCost {
  panes: number;
  /** Percent of one core: the daemon alone (the mean of a window before and one after the burst). */
  idlePercent: number;
  /** CPU milliseconds one collection costs the daemon (a burst's CPU less the background, per collection). */
  perCollectMs: number;
  /** Wall time of one server/metrics request (ms). */
  collect: Summary;
  /** Nanoseconds for one histogram observation, and for the performance.now() beside it. */
  observeNs: number;
  nowNs: number;
}

export async function metricsCost(dir: string): Promise<MetricsCost> {
  fs.mkdirSync(dir, { recursive: true });
  const srv = await startServerProc(dir);
  try {
    const c = await client(srv.socket);
    const bash = { program: '/bin/bash', args: ['--norc', '-i'] };
    // Ten to a session, tiled evenly.
    const panes: number[] = [];
    for (let k = 0; k < METRICS_PANES; k += 10) {
      const made = await c.call('session/new', { name: `m${k}`, launch: bash });
      panes.push(...(await tileEvenly(c, made.session, Math.min(10, METRICS_PANES - k), async (pane, direction) => (await c.call('pane/split', { pane, direction, launch: bash })).pane)));
    }
    // One collection first: the event-loop delay monitor it starts runs in both windows, so the difference is the collecting.
    await c.call('server/metrics', {});
    await sleep(2000);
    const pid = srv.proc.pid!;
    // The daemon alone, before and after: its own background (awareness, observers) drifts, so the burst below is charged against their mean.
    const alone = async () => {
      const a0 = cpuOf(pid);
      await sleep(WINDOW_MS);
      return ((cpuOf(pid) - a0) / (WINDOW_MS / 1000)) * 100;
    };
    const before = await alone();
    // A burst of back-to-back collections: their CPU less the background for as long, per collection.
    const collect: number[] = [];
    const b0 = cpuOf(pid);
    const t0 = performance.now();
    for (let i = 0; i < BURST; i++) {
      const t = performance.now();
      const m = await c.call('server/metrics', {});
      collect.push(performance.now() - t);
      if (m.panes.length < METRICS_PANES) throw new Error(`server/metrics listed ${m.panes.length} panes, not ${METRICS_PANES}`);
    }
    const burstS = (performance.now() - t0) / 1000;
    const burstCpu = cpuOf(pid) - b0;
    const after = await alone();
    const idlePercent = (before + after) / 2;
    const perCollectMs = Math.max(0, (burstCpu - (idlePercent / 100) * burstS) / BURST) * 1000;
    c.close();
    // The hot path's part: one observation, and the clock read it needs (a million each).
    const h = new LatencySeries();
    const N = 1_000_000;
    let t = performance.now();
    for (let i = 0; i < N; i++) h.observe((i % 1000) / 1e5);
    const observeNs = ((performance.now() - t) * 1e6) / N;
    t = performance.now();
    let x = 0;
    for (let i = 0; i < N; i++) x += performance.now();
    const nowNs = ((performance.now() - t) * 1e6) / N - (x < 0 ? 1 : 0);
    return { panes: METRICS_PANES, idlePercent, perCollectMs, collect: summarize(collect), observeNs, nowNs };
  } finally {
    await srv.stop();
    fs.rmSync(path.join(dir), { recursive: true, force: true });
  }
}
