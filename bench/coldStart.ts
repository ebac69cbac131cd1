// Cold start of the Chromium host (pane serve --http, a fresh browser profile,
// page load, until the shell's prompt is in the page) and memory of the whole
// shell with 1, 4 and 16 terminal panes, next to a bare Chromium on a blank page.
/* eslint-disable @typescript-eslint/no-explicit-any */
import path from 'node:path';
import { blankPage, openShell, pssOf, pssOfTree, type Shell } from './page';
import { sleep } from './procs';
import { fmt, range, summarize, type Row, type Summary } from './stats';

const MiB = 1024 * 1024;
const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? `${fmt(a / b)}×` : 'n/a');
const asMiB = (s: Summary): Summary => ({ ...s, median: s.median / MiB, min: s.min / MiB, max: s.max / MiB, p99: s.p99 / MiB });

/** Splits the largest panes until the session has `count`, and waits for every prompt in the page. */
async function growTo(sh: Shell, count: number): Promise<void> {
  const panes = async () => (await sh.c.call('pane/list', {})).panes.map((p) => p.n);
  let have = await panes();
  let dir: 'horizontal' | 'vertical' = 'horizontal';
  while (have.length < count) {
    // Breadth first (split each existing pane once per round) keeps tiles even.
    for (const n of [...have]) {
      if (have.length >= count) break;
      const { pane } = await sh.c.call('pane/split', { pane: n, direction: dir });
      have.push(pane);
    }
    dir = dir === 'horizontal' ? 'vertical' : 'horizontal';
  }
  await sh.page.waitForFunction((ns) => ns.every((n) => /[$#] $/m.test((window as any).pane.screen(n) ?? '')), have, { timeout: 60_000, polling: 100 });
}

interface ColdMem {
  prompt: number[];
  served: number[];
  browserUp: number[];
  dcl: number[];
  pagePrompt: number[];
  blank: number[];
  mem: { 1: number[]; 4: number[]; 16: number[] };
  memBlank: number[];
}

/** Settled memory of the whole shell: the server process's PSS plus Chromium's whole process tree. */
function shellPss(sh: Shell): number {
  return pssOf(sh.served.proc.pid!) + pssOfTree(sh.browser.pid);
}

async function coldAndMemory(dir: string, runs: number): Promise<ColdMem> {
  const out: ColdMem = { prompt: [], served: [], browserUp: [], dcl: [], pagePrompt: [], blank: [], mem: { 1: [], 4: [], 16: [] }, memBlank: [] };
  for (let r = 0; r < runs; r++) {
    const d = path.join(dir, `cold${r}`);
    const sh = await openShell(d);
    try {
      out.prompt.push(sh.timings.prompt);
      out.served.push(sh.timings.served);
      out.browserUp.push(sh.timings.browser);
      out.dcl.push(sh.timings.dcl);
      out.pagePrompt.push(sh.timings.pagePrompt);
      for (const count of [1, 4, 16] as const) {
        await growTo(sh, count);
        await sleep(1500);
        out.mem[count].push(shellPss(sh));
      }
    } finally {
      await sh.close();
    }
    // The floor: the same Chromium, fresh profile, on a blank page.
    const { ms, browser } = await blankPage(path.join(dir, `blank${r}`));
    out.blank.push(ms);
    await sleep(1500);
    out.memBlank.push(pssOfTree(browser.pid));
    await browser.close();
  }
  return out;
}

/** The section's rows: cold start vs bare Chromium, memory at 1, 4, 16 panes and per extra pane. */
export async function coldStart(dir: string, runs: number): Promise<Row[]> {
  const rows: Row[] = [];
  const cm = await coldAndMemory(dir, runs);
  const pr = summarize(cm.prompt);
  rows.push({
    bench: `cold start, server and browser started together → prompt in Chromium (ms; URL printed at ${fmt(summarize(cm.served).median, 0)}, browser up at ${fmt(summarize(cm.browserUp).median, 0)}; in the page from navigation: DOMContentLoaded ${fmt(summarize(cm.dcl).median, 0)}, prompt ${fmt(summarize(cm.pagePrompt).median, 0)})`,
    figure: range(pr, 0),
    anchor: `bare Chromium page ${range(summarize(cm.blank), 0)}`,
    ratio: ratio(pr.median, summarize(cm.blank).median),
    aim: '< 1.2 s',
  });
  const m1 = summarize(cm.mem[1]);
  const blank = summarize(cm.memBlank);
  for (const count of [1, 4, 16] as const) {
    const m = summarize(cm.mem[count]);
    rows.push({ bench: `memory of the shell, ${count} pane(s): server + Chromium PSS (MiB)`, figure: range(asMiB(m), 0), anchor: `bare Chromium ${range(asMiB(blank), 0)}`, ratio: ratio(m.median, blank.median), aim: 'report' });
  }
  const per = (cm.mem[16].map((x, i) => (x - cm.mem[1][i]!) / 15));
  rows.push({ bench: 'memory per extra pane, (16 − 1) / 15 (MiB)', figure: range(asMiB(summarize(per)), 1), anchor: `1 pane ${fmt(m1.median / MiB, 0)}`, ratio: '—', aim: '< 10 MB' });
  return rows;
}
