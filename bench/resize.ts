// Window resize with 16 panes, in Chromium: from the browser window changing size
// until every pane's program has been told its new size (SIGWINCH), redrawn, and
// that redraw is on the page at the xterm's own size. Also counts how many sizes
// each program heard per change (it should be exactly one: geometry is computed once).
/* eslint-disable @typescript-eslint/no-explicit-any */
import path from 'node:path';
import { launchPane, openShell, type Shell } from './page';
import { summarize, type Summary } from './stats';

/**
 * The program in every pane: prints `R rows cols` at start and on each SIGWINCH (a
 * redraw, as a full-screen program would), each size once. bash can miss a SIGWINCH
 * that lands while its trap for the last one still runs (two resizes close together,
 * as the grid's splits make), so it also looks again each second: a missed size is
 * heard late, not never (the grid then settles; a timed change heard late shows as slow).
 */
const PROBE = ['/bin/bash', '-c', `r() { s=$(stty size); [ "$s" = "$last" ] || { last=$s; echo "R $s"; }; }; trap r WINCH; r; while :; do sleep 1 & wait $!; kill $! 2>/dev/null; r; done`];
/** The two window sizes the bench alternates between: one change of every pane's size each step. */
const SIZES = [{ width: 1100, height: 700 }, { width: 1280, height: 800 }] as const;

/** A 4×4 grid of probe panes (the first pane, a shell, execs the probe too). */
async function grid(sh: Shell): Promise<number[]> {
  await sh.c.call('pane/input', { pane: sh.first, data: `exec ${PROBE.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}\n` });
  const cols = [sh.first];
  for (let i = 0; i < 3; i++) {
    const { pane } = await sh.c.call('pane/launch', { pane: cols[cols.length - 1]!, direction: 'horizontal', ratio: Math.round(100 / (4 - i)), launch: { program: PROBE[0]!, args: PROBE.slice(1) } });
    cols.push(pane);
  }
  const all = [...cols];
  for (const top of cols) {
    let last = top;
    for (let i = 0; i < 3; i++) {
      last = await launchPane(sh, PROBE, last, 'vertical');
      all.push(last);
    }
  }
  return all;
}

/** Every pane's xterm size and the sizes its program heard, as the page shows them. */
function state(sh: Shell, panes: number[]): Promise<{ pane: number; size: string; heard: string[] }[]> {
  return sh.page.evaluate((ps) => ps.map((n) => {
    const w = window as any;
    const t = w.pane.term(n);
    const text: string = w.pane.screen(n) ?? '';
    return { pane: n, size: `${t?.rows} ${t?.cols}`, heard: [...text.matchAll(/^R (\d+ \d+)$/gm)].map((m) => m[1]!) };
  }), panes);
}

export async function resizeBench(dir: string, runs: number): Promise<{ ms: Summary; perChange: number; panes: number }> {
  const sh = await openShell(path.join(dir, 'resize'));
  try {
    await sh.page.setViewportSize(SIZES[1]);
    const panes = await grid(sh);
    for (const end = Date.now() + 30_000; ; ) {
      const off = (await state(sh, panes)).filter((x) => x.heard.at(-1) !== x.size);
      if (off.length === 0) break;
      if (Date.now() > end) throw new Error(`bench resize: the grid never settled (${off.map((x) => `pane ${x.pane}: xterm ${x.size}, heard ${x.heard.join(', ') || 'nothing'}`).join('; ')})`);
    }
    const times: number[] = [];
    let most = 0;
    for (let i = 0; i < runs * 4; i++) {
      const before = await state(sh, panes);
      const t0 = performance.now();
      await sh.page.setViewportSize(SIZES[i % 2]!);
      // Done when every program heard a new size and its answer is drawn at the xterm's size.
      await sh.page.waitForFunction(
        ([ps, was]) => ps.every((n: number, k: number) => {
          const w = window as any;
          const t = w.pane.term(n);
          const heard = [...((w.pane.screen(n) ?? '') as string).matchAll(/^R (\d+ \d+)$/gm)].map((m) => m[1]);
          return heard.length > (was as number[])[k]! && heard.at(-1) === `${t?.rows} ${t?.cols}`;
        }),
        [panes, before.map((b) => b.heard.length)] as const,
        { timeout: 30_000, polling: 'raf' },
      );
      times.push(performance.now() - t0);
      // Let any late second resize arrive before counting (the window's settle delay is 120 ms).
      await sh.page.waitForTimeout(400);
      const after = await state(sh, panes);
      for (let k = 0; k < panes.length; k++) most = Math.max(most, after[k]!.heard.length - before[k]!.heard.length);
    }
    return { ms: summarize(times), perChange: most, panes: panes.length };
  } finally {
    await sh.close();
  }
}
