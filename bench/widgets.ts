// Widget panes (issue 37): the shipped agents board bound to /agents with 100 agents,
// in Debian's Chromium on a real `pane serve --http`. Each step records one agent's
// prompt as its hooks would (awareness/prompt, a new word in its topics) and times
// it from the request to the frame that shows the word in the board (a rAF after the
// DOM changed). Steps are spaced past the widget's refresh bound (WIDGET_REFRESH_MS)
// so each measures a read, not the throttle. Also: the page's JS heap with the board
// open against the same page with a terminal pane there instead.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { histogramQuantile, LATENCY_BUCKETS_S } from '../kits/protocol/latency';
import { openShell } from './page';
import { sleep } from './procs';
import { summarize, type Summary } from './stats';

export interface WidgetsResult {
  agents: number;
  /** request → frame showing the change (ms) */
  update: Summary;
  /** the first event of the change at the page → frame showing it (ms): the widget's own part */
  fromEvent: Summary;
  /** The daemon's time answering the board's reads during the steps (ns/read, from its histogram; ms). */
  serverRead: { p50: number; p99: number; n: number };
  /** JS heap of the page (MiB): with the board pane, and with a terminal pane in its place. */
  heapBoard: number;
  heapTerminal: number;
}

/** Agents the board lists: the figure. */
const AGENTS = 100;
/** Between steps: past the widget's 250 ms refresh bound, so a step is never throttled. */
const STEP_GAP_MS = 350;

export async function widgetsBench(dir: string, runs: number): Promise<WidgetsResult> {
  const sh = await openShell(dir);
  try {
    const { c, page } = sh;
    for (let i = 0; i < AGENTS; i++) await c.call('agent/add', { name: `wb${i}` });
    const heap = async () => {
      await page.call('HeapProfiler.collectGarbage');
      const { usedSize } = await page.call<{ usedSize: number }>('Runtime.getHeapUsage');
      return usedSize / (1 << 20);
    };
    // A terminal pane in the board's place first, for the memory anchor.
    const term = await c.call('pane/split', { pane: sh.first });
    await page.waitForFunction((n) => (window as any).pane.term(n)?.element != null, term.pane, { timeout: 15_000 });
    await sleep(500);
    const heapTerminal = await heap();
    await c.call('pane/close', { pane: term.pane });
    const board = await c.call('apps/launch', { app: 'agents-board', pane: sh.first });
    await page.waitForFunction(
      ({ n, want }) => document.querySelectorAll(`section[data-pane="${n}"] [data-widget="agents"] :is(tbody tr, .wg-cards > li)`).length === want,
      { n: board.pane, want: AGENTS },
      { timeout: 30_000 },
    );
    await sleep(500);
    const heapBoard = await heap();
    // Every change of the page's rev (an event applied), by the wall clock both sides share: Date.now(), read
    // when each thing happens. Not timeOrigin + performance.now(): that is the wall clock when the process began,
    // carried on by its monotonic clock, and this bench's process has run for half an hour by this section
    // in a full bench; a step of the wall clock since then (a VM's time sync) would be in every step's figure.
    await page.evaluate(() => {
      const w = window as any;
      w.__revAt = [] as number[];
      w.pane.store.subscribe((st: any, old: any) => {
        if (st.rev !== old.rev) w.__revAt.push(Date.now());
      });
    });
    // The daemon's own part of each refresh: its ns/read histogram, before and after the steps.
    const readsOf = async () => (await c.call('server/metrics', {})).latency.find((h) => h.name === 'request' && h.labels.method === 'ns/read') ?? { buckets: LATENCY_BUCKETS_S.map(() => 0), count: 0, sum: 0 };
    const readsBefore = await readsOf();
    const steps = Math.max(20, runs * 10);
    const times: number[] = [];
    const fromEvent: number[] = [];
    for (let i = 0; i < steps; i++) {
      const word = `zebra${i}x${Date.now() % 100000}`;
      // The page notes when the word is drawn: the first frame after the DOM holds it.
      const seen = page.evaluate(
        ({ n, word }) =>
          new Promise<number>((resolve) => {
            const root = document.querySelector(`section[data-pane="${n}"]`)!;
            const done = () => requestAnimationFrame(() => resolve(Date.now()));
            if (root.textContent?.includes(word)) return done();
            const mo = new MutationObserver(() => {
              if (!root.textContent?.includes(word)) return;
              mo.disconnect();
              done();
            });
            mo.observe(root, { subtree: true, childList: true, characterData: true });
            setTimeout(() => (mo.disconnect(), resolve(Number.NaN)), 10_000);
          }),
        { n: board.pane, word },
      );
      await sleep(20); // the observer is in place
      const t0 = Date.now();
      await c.call('awareness/prompt', { agent: `wb${i % AGENTS}`, text: `${word} ${word} ${word}` });
      const t1 = await seen;
      if (Number.isFinite(t1)) {
        times.push(t1 - t0);
        const ev = await page.evaluate((after) => ((window as any).__revAt as number[]).find((t) => t >= after) ?? Number.NaN, t0);
        if (Number.isFinite(ev) && ev <= t1) fromEvent.push(t1 - ev);
      }
      await sleep(STEP_GAP_MS);
    }
    const readsAfter = await readsOf();
    const reads = { buckets: readsAfter.buckets.map((n, i) => n - (readsBefore.buckets[i] ?? 0)), count: readsAfter.count - readsBefore.count, sum: readsAfter.sum - readsBefore.sum };
    const serverRead = { p50: (histogramQuantile(reads, 0.5) ?? Number.NaN) * 1000, p99: (histogramQuantile(reads, 0.99) ?? Number.NaN) * 1000, n: reads.count };
    return { agents: AGENTS, update: summarize(times), fromEvent: summarize(fromEvent), serverRead, heapBoard, heapTerminal };
  } finally {
    await sh.close();
  }
}
