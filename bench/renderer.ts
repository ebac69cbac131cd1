// The desktop shell measured in Chromium: keystroke echo, end-to-end output
// throughput, a flood beside a typing pane (and Ctrl-C in it), paste; cold start
// and memory are in coldStart.ts. Each figure sits next to an anchor measured in
// the same run, interleaved with it (node-pty direct, tmux, xterm.js fed in the page).
/* eslint-disable @typescript-eslint/no-explicit-any */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pty from '@lydell/node-pty';
import { coldStart } from './coldStart';
import { floodThenInterrupt, QUIET_MS, tmuxSide } from './ctrlc';
import { remoteCtrlc } from './remoteCtrlc';
import type { BarePage as Page } from './cdp';
import { CHROMIUM, echoOnce, focusTerm, interruptToQuiet, launchPane, noPrompt, openShell, parsedState, waitParsedPast, watchPane, type Echo, type Shell } from './page';
import { sleep } from './procs';
import { fmt, range, summarize, type Row, type Summary } from './stats';
import { makeFiles, tmuxRun } from './throughput';

const MiB = 1024 * 1024;
/** The renderer's slice size (renderer/src/term/termView.ts WRITE_SLICE), used by the no-transport anchor too. */
const SLICE = 32 * 1024;
const say = (what: string, since: number) => process.stderr.write(`bench renderer: ${what} (${((performance.now() - since) / 1000).toFixed(1)} s)\n`);
const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? `${fmt(a / b)}×` : 'n/a');
export const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]! : Number.NaN;
};

// ---- 1. keystroke echo -------------------------------------------------------

/** Direct node-pty echo: `cat` in cooked mode, so the kernel's line discipline echoes each byte. */
async function nodePtyEcho(n: number): Promise<number[]> {
  const p = pty.spawn('cat', [], { cols: 80, rows: 24 });
  let wake: (() => void) | null = null;
  p.onData(() => {
    const w = wake;
    wake = null;
    w?.();
  });
  await sleep(100);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await new Promise<void>((r, j) => {
      const t = setTimeout(() => j(new Error('bench: node-pty cat never echoed')), 10_000);
      wake = () => {
        clearTimeout(t);
        r();
      };
      p.write('a');
    });
    out.push(performance.now() - t0);
    await sleep(15 + Math.random() * 15);
  }
  p.kill();
  return out;
}

async function echo(sh: Shell, runs: number): Promise<{ parsed: number[]; frame: number[]; echoes: Echo[]; nodePty: number[] }> {
  const e = await launchPane(sh, ['cat']);
  await watchPane(sh.page, e);
  await focusTerm(sh.page, e);
  const parsed: number[] = [];
  const frame: number[] = [];
  const echoes: Echo[] = [];
  const nodePty: number[] = [];
  for (let r = 0; r < runs; r++) {
    for (let i = 0; i < 40; i++) {
      const x = await echoOnce(sh.page, e);
      parsed.push(x.parsed);
      frame.push(x.frame);
      echoes.push(x);
      // A human's gap between keys, jittered so echoes land at every phase of the frame.
      await sleep(15 + Math.random() * 15);
    }
    nodePty.push(...(await nodePtyEcho(40)));
  }
  await sh.c.call('pane/close', { pane: e });
  return { parsed, frame, echoes, nodePty };
}

// ---- 2. end-to-end throughput --------------------------------------------------

/** pty → server → WebSocket → page → xterm write callbacks: `cat FILE` held behind `read`, released from the page. */
async function paneThroughput(sh: Shell, file: string): Promise<{ ms: number; starved: number }> {
  const p = await launchPane(sh, ['/bin/sh', '-c', `stty -echo; read x; exec cat ${file}`]);
  await sh.c.call('pane/zoom', { pane: p, zoom: true });
  await watchPane(sh.page, p);
  await sleep(300); // fit and resize settle
  let exited = false;
  const off = sh.c.events.on('pane/exited', (d) => {
    if (d.pane === p) exited = true;
  });
  const base = (await sh.c.call('pty/read', { pane: p, maxBytes: 1 })).streamEnd;
  const { bytes: b0, starved: s0 } = await parsedState(sh.page, p);
  // Released from the page, so start and end are on the page's clock.
  const t0 = await sh.page.evaluate((n) => {
    const t = performance.now();
    (window as any).pane.client.sendInput(n, new Uint8Array([10]));
    return t;
  }, p);
  const deadline = Date.now() + 120_000;
  while (!exited) {
    if (Date.now() > deadline) throw new Error('bench: the cat pane never exited');
    await sleep(20);
  }
  const end = (await sh.c.call('pty/read', { pane: p, maxBytes: 1 })).streamEnd;
  for (;;) {
    const s = await parsedState(sh.page, p);
    if (s.bytes - b0 >= end - base) {
      off();
      await sh.c.call('pane/close', { pane: p });
      return { ms: s.last - t0, starved: s.starved - s0 };
    }
    if (Date.now() > deadline) throw new Error(`bench: page parsed ${s.bytes - b0} of ${end - base} bytes`);
    await sleep(20);
  }
}

/** The same bytes (with the PTY's \r\n) written straight into a zoomed pane's xterm in the page, sliced as the renderer slices. */
async function xtermInPage(sh: Shell, blobName: string): Promise<number> {
  const p = await launchPane(sh, ['sleep', '3600']);
  await sh.c.call('pane/zoom', { pane: p, zoom: true });
  await sleep(300);
  const ms = await sh.page.evaluate(
    ([n, name, slice]) =>
      new Promise<number>((resolve) => {
        const term = (window as any).pane.term(n);
        const data: Uint8Array = (window as any).__pbBlobs[name];
        // Keep 2 MiB queued: always work for xterm, and far below its 50 MB discard mark.
        let next = 0;
        let queued = 0;
        const t0 = performance.now();
        const pump = () => {
          while (queued < 2 << 20 && next < data.byteLength) {
            const part = data.subarray(next, next + slice);
            next += part.byteLength;
            queued += part.byteLength;
            const last = next >= data.byteLength;
            term.write(part, () => {
              queued -= part.byteLength;
              if (last) resolve(performance.now() - t0);
              else pump();
            });
          }
        };
        pump();
      }),
    [p, blobName, SLICE] as const,
  );
  await sh.c.call('pane/close', { pane: p });
  return ms;
}

/** Puts a file's bytes into the page (as window.__pbBlobs[name]), \n turned into the PTY's \r\n. */
async function loadBlob(page: Page, file: string, name: string): Promise<void> {
  const crlf = Buffer.from(fs.readFileSync(file).toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
  await page.serving(`/__bench/${name}`, crlf, () =>
    page.evaluate(async (nm) => {
      const w = window as any;
      w.__pbBlobs ??= {};
      w.__pbBlobs[nm] = new Uint8Array(await (await fetch(`/__bench/${nm}`)).arrayBuffer());
    }, name),
  );
}

interface ThroughputResult {
  name: string;
  mb: number;
  pane: Summary;
  tmux: Summary | null;
  xterm: Summary;
  /** Share of the run (%) the page's xterm had parsed everything and waited for more. */
  starved: Summary;
  /** Each run's end-to-end rate over the anchor's in the run right after it: the machine's swings (±20% between runs here) cancel within a pair. */
  paired: Summary;
}

async function throughput(sh: Shell, dir: string, mb: number, runs: number, withTmux: boolean): Promise<ThroughputResult[]> {
  const files = makeFiles(dir, mb);
  const out: ThroughputResult[] = [];
  try {
    for (const [i, f] of files.entries()) await loadBlob(sh.page, f.file, `k${i}`);
    const acc = files.map(() => ({ pane: [] as number[], tmux: [] as number[], xterm: [] as number[], starved: [] as number[] }));
    // A 50 MB run takes 2-3 s a side now (it took 7 s when this was capped at two runs): every run counts.
    for (let r = 0; r < runs; r++) {
      for (const [i, f] of files.entries()) {
        const size = f.bytes / MiB;
        const pr = await paneThroughput(sh, f.file);
        acc[i]!.pane.push(size / (pr.ms / 1000));
        acc[i]!.starved.push((100 * pr.starved) / pr.ms);
        if (withTmux) acc[i]!.tmux.push(size / ((await tmuxRun(f.file)) / 1000));
        acc[i]!.xterm.push(size / ((await xtermInPage(sh, `k${i}`)) / 1000));
      }
    }
    for (const [i, f] of files.entries()) {
      const a = acc[i]!;
      const paired = summarize(a.pane.map((p, r) => p / a.xterm[r]!));
      out.push({ name: f.name, mb: f.bytes / MiB, pane: summarize(a.pane), tmux: withTmux ? summarize(a.tmux) : null, xterm: summarize(a.xterm), starved: summarize(a.starved), paired });
    }
    await sh.page.evaluate(() => delete (window as any).__pbBlobs);
    // The anchor's blobs were ~105 MB of the page's JS heap: the bench's, not pane's. The flood section runs
    // next in this page; collected here, it starts with the 8 MiB heap of a page in use (141-155 MiB used before
    // a collection) instead of paying for that garbage's collection between its keys and their echoes.
    await sh.page.call('HeapProfiler.collectGarbage');
  } finally {
    for (const f of files) fs.rmSync(f.file, { force: true });
  }
  return out;
}

// ---- 3. flood: echo beside it, Ctrl-C in it ---------------------------------

/**
 * Echoes typed per flood cycle. With 12 × 30 cycles (3 runs) the p99 is about
 * the fourth-largest of 360 samples; at the old 5 per cycle (15 cycles) it was the
 * largest of 75, a maximum that one scheduler hiccup on a loaded 2-core machine decides.
 */
const FLOOD_ECHOES = 12;
/**
 * Flood cycles per run, each ending in one Ctrl-C (pane's, then the tmux anchor's).
 * At 5 a run (15 in all) the p95 was the largest of 15: one scheduler hiccup on
 * either side decided the ratio, and tmux's own p95 read 9.5 to 126 ms between runs
 * here. At 10 it is the second-largest of 30, at ~40 s more for the section.
 */
const FLOOD_CYCLES_PER_RUN = 10;

/**
 * Cycles of: `yes` in bash in one pane; once it floods, keystroke echoes in a
 * `cat` pane beside it; then Ctrl-C typed into the flooding pane, timed to the
 * last byte its xterm parses before QUIET_MS of silence. The anchor, in the same
 * cycle: Ctrl-C under `yes` in tmux, seen through an attached tmux client.
 */
async function flood(sh: Shell, cycles: number, withTmux: boolean): Promise<{ echoParsed: number[]; echoFrame: number[]; echoes: Echo[]; ctrlc: number[]; after: number[]; tmux: number[]; prompts: boolean[] }> {
  const f = sh.first; // bash
  const e = await launchPane(sh, ['cat'], f);
  await watchPane(sh.page, f);
  await watchPane(sh.page, e);
  const echoParsed: number[] = [];
  const echoFrame: number[] = [];
  const echoes: Echo[] = [];
  const ctrlc: number[] = [];
  const after: number[] = [];
  const tmux: number[] = [];
  const prompts: boolean[] = [];
  const tm = withTmux ? await tmuxSide() : null;
  for (let i = 0; i < cycles; i++) {
    const b0 = (await parsedState(sh.page, f)).bytes;
    sh.c.sendInput(f, new TextEncoder().encode('yes\r'));
    // Under way: a few hundred KB reached the page (flow control has engaged).
    await waitParsedPast(sh.page, f, b0, 256 << 10, 10_000, 'the flood');
    await focusTerm(sh.page, e);
    for (let k = 0; k < FLOOD_ECHOES; k++) {
      const x = await echoOnce(sh.page, e);
      echoParsed.push(x.parsed);
      echoFrame.push(x.frame);
      echoes.push(x);
      await sleep(15 + Math.random() * 15);
    }
    await focusTerm(sh.page, f);
    await sleep(100 + Math.random() * 100);
    const q = await interruptToQuiet(sh.page, f, QUIET_MS);
    ctrlc.push(q.ms);
    after.push(q.after);
    prompts.push(q.prompt);
    if (tm) {
      tmux.push((await floodThenInterrupt(tm)).ms);
    }
  }
  await tm?.close();
  await sh.c.call('pane/close', { pane: e });
  return { echoParsed, echoFrame, echoes, ctrlc, after, tmux, prompts };
}

// ---- 4. paste -----------------------------------------------------------------

/**
 * Paste of 50 KB (base64 lines) into a reader with echo off, timed until that
 * reader has taken every byte and its "done" is parsed: `head -c N > /dev/null;
 * printf done`, i.e. `cat > /dev/null` that says when it has consumed it all.
 * (Counting the line discipline's echo instead is unreliable: n_tty drops echoes
 * when its echo buffer fills; a shell's own echo would time readline, not pane.)
 */
const PASTE_BYTES = 50 * 1024;
const DONE = 'paste-consumed';
function pasteText(): string {
  const raw = crypto.randomBytes(PASTE_BYTES).toString('base64');
  const lines: string[] = [];
  for (let i = 0, n = 0; n + 77 <= PASTE_BYTES; i += 76, n += 77) lines.push(raw.slice(i, i + 76));
  return `${lines.join('\n')}\n`;
}
const reader = (bytes: number) => ['/bin/sh', '-c', `stty -echo; printf 'ready\\n'; head -c ${bytes} > /dev/null; printf '${DONE}\\n'; exec sleep 3600`];

async function pastePane(sh: Shell, text: string): Promise<number> {
  const p = await launchPane(sh, reader(text.length));
  await watchPane(sh.page, p);
  await sh.page.waitForFunction((n) => /ready/.test((window as any).pane.screen(n) ?? ''), p, { timeout: 15_000, polling: 20 });
  const ms = await sh.page.evaluate(
    ([n, t, done]) =>
      new Promise<number>((resolve, reject) => {
        const st = (window as any).__pb.panes[n];
        const t0 = performance.now();
        st.seen = (at: number) => resolve(at - t0);
        st.want = done;
        st.tail = '';
        setTimeout(() => reject(new Error('paste never consumed')), 30_000);
        // xterm's paste path: what a Ctrl+Shift+V or middle click does (newlines become \r).
        (window as any).pane.term(n).paste(t);
      }),
    [p, text, DONE] as const,
  );
  await sh.c.call('pane/close', { pane: p });
  return ms;
}

function pasteNodePty(text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const args = reader(text.length);
    const p = pty.spawn(args[0]!, args.slice(1), { cols: 80, rows: 24 });
    let out = '';
    let t0 = 0;
    const timer = setTimeout(() => {
      p.kill();
      reject(new Error('bench: node-pty paste never consumed'));
    }, 30_000);
    p.onData((d) => {
      out = (out + d).slice(-256);
      if (!t0 && out.includes('ready')) {
        out = '';
        t0 = performance.now();
        p.write(text.replace(/\n/g, '\r'));
      } else if (t0 && out.includes(DONE)) {
        const ms = performance.now() - t0;
        clearTimeout(timer);
        p.kill();
        resolve(ms);
      }
    });
  });
}

async function paste(sh: Shell, runs: number): Promise<{ pane: number[]; nodePty: number[] }> {
  const text = pasteText();
  const out = { pane: [] as number[], nodePty: [] as number[] };
  // Both sides swing widely on a loaded machine (each refill of the 4 KB tty buffer waits on the scheduler): take many.
  for (let i = 0; i < runs * 4; i++) {
    out.pane.push(await pastePane(sh, text));
    out.nodePty.push(await pasteNodePty(text));
  }
  return out;
}

// ---- the table -----------------------------------------------------------------

const ms = (s: Summary) => range(s, 2);

/**
 * An echo's time in three steps (ms): the key waiting for the page's main thread, the round trip from the
 * socket through the server and back (PTY and program included), and the wait from parsed to the next frame.
 */
const stepsOf = (x: Echo) => [x.handled, x.recv - x.sent, x.frame - x.parsed];
/** Each step's median, `a / b / c`. */
const stepMedians = (echoes: Echo[]) => [0, 1, 2].map((i) => fmt(quantile(echoes.map((x) => stepsOf(x)[i]!), 0.5))).join(' / ');
/** Each step's mean over the echoes with the slowest frames (`share` of them): which step the tail is made of. */
function slowestSteps(echoes: Echo[], share: number): string {
  const slow = [...echoes].sort((a, b) => b.frame - a.frame).slice(0, Math.max(1, Math.ceil(echoes.length * share)));
  return [0, 1, 2].map((i) => fmt(slow.reduce((sum, x) => sum + stepsOf(x)[i]!, 0) / slow.length)).join(' / ');
}

/** The share of echoes drawn on the first frame after their key, and how many frames late the p99 one was. */
function onNextFrame(echoes: Echo[]): string {
  if (echoes.length === 0) return 'n/a';
  const late = echoes.map((x) => x.late).sort((a, b) => a - b);
  const share = late.filter((l) => l === 0).length / late.length;
  return `${(share * 100).toFixed(0)}% (p99 ${quantile(late, 0.99)} late, n=${late.length})`;
}

/** PANE_BENCH_RENDERER (comma list: throughput,flood,paste,cold) trims the renderer section; the echo runs always (the flood's anchor). */
const parts = new Set((process.env.PANE_BENCH_RENDERER ?? 'throughput,flood,paste,cold').split(','));

export async function renderer(dir: string, mb: number, runs: number, withTmux: boolean): Promise<Row[]> {
  if (!fs.existsSync(CHROMIUM)) return [{ bench: 'renderer benches', figure: `skipped: no browser at ${CHROMIUM}`, anchor: '—', ratio: '—', aim: '—' }];
  const rows: Row[] = [];
  const emb = Math.min(mb, 50);
  const t0 = performance.now();
  const sh = await openShell(path.join(dir, 'shell'));
  try {
    const e = await echo(sh, runs);
    say('keystroke echo', t0);
    const parsed = summarize(e.parsed);
    const frame = summarize(e.frame);
    const np = summarize(e.nodePty);
    rows.push({ bench: `keystroke → echo parsed in the page, median (ms), n=${parsed.n}`, figure: ms(parsed), anchor: `node-pty ${ms(np)}`, ratio: ratio(parsed.median, np.median), aim: '< 3 ms' });
    rows.push({ bench: 'keystroke → echo parsed in the page, p99 (ms)', figure: fmt(parsed.p99), anchor: `node-pty ${fmt(np.p99)}`, ratio: ratio(parsed.p99, np.p99), aim: 'report' });
    rows.push({ bench: 'keystroke → echo on the next frame, median (ms)', figure: ms(frame), anchor: `node-pty ${ms(np)}`, ratio: ratio(frame.median, np.median), aim: 'report' });
    rows.push({ bench: 'keystroke → echo on the next frame, p99 (ms)', figure: fmt(frame.p99), anchor: `node-pty ${fmt(np.p99)}`, ratio: ratio(frame.p99, np.p99), aim: '< 16 ms (35; a 60 Hz frame alone is up to 16.7)' });
    rows.push({ bench: 'keystroke → echo drawn on the first frame after the key (share of echoes; frames late at p99)', figure: onNextFrame(e.echoes), anchor: '—', ratio: '—', aim: 'report (35: echo on the next frame)' });

    const tp = parts.has('throughput') ? await throughput(sh, dir, emb, runs, withTmux) : [];
    say('throughput', t0);
    for (const t of tp) {
      const label = `end to end ${fmt(t.mb, 0)} MB, ${t.name}: pty → page xterm (MB/s)`;
      rows.push({ bench: `${label} vs tmux`, figure: range(t.pane, 1), anchor: t.tmux ? `tmux ${range(t.tmux, 1)}` : 'tmux n/a', ratio: t.tmux ? ratio(t.pane.median, t.tmux.median) : 'n/a', aim: '≥ 0.8' });
      rows.push({ bench: `${label} vs xterm.js alone in the page`, figure: range(t.pane, 1), anchor: `xterm.write ${range(t.xterm, 1)}`, ratio: ratio(t.pane.median, t.xterm.median), aim: '≥ 0.9' });
      rows.push({ bench: `end to end ${t.name}: each run over the xterm.js run right after it`, figure: range(t.paired, 2), anchor: '—', ratio: '—', aim: 'report' });
      rows.push({ bench: `end to end ${t.name}: time the page's xterm waited for data (% of the run)`, figure: range(t.starved, 0), anchor: '—', ratio: '—', aim: 'report' });
    }

    if (parts.has('flood')) {
    const fl = await flood(sh, Math.max(10, runs * FLOOD_CYCLES_PER_RUN), withTmux);
    say('flood', t0);
    const fp = summarize(fl.echoParsed);
    const ff = summarize(fl.echoFrame);
    const cc = summarize(fl.ctrlc);
    rows.push({ bench: `\`yes\` flooding one pane: echo in another, parsed, median (ms), n=${fp.n}`, figure: ms(fp), anchor: `idle ${ms(parsed)}`, ratio: ratio(fp.median, parsed.median), aim: 'report' });
    rows.push({ bench: '`yes` flooding one pane: echo in another, next frame, p99 (ms)', figure: fmt(ff.p99), anchor: `idle ${fmt(frame.p99)}`, ratio: ratio(ff.p99, frame.p99), aim: '< 25 ms (35)' });
    rows.push({ bench: '`yes` flooding one pane: echo in another drawn on the first frame after the key (share; frames late at p99)', figure: onNextFrame(fl.echoes), anchor: `idle ${onNextFrame(e.echoes)}`, ratio: '—', aim: 'report' });
    rows.push({ bench: '`yes` flooding one pane: the echo\'s steps, key waits for the page / server round trip / parsed → next frame (ms): median; mean of the slowest 5% by frame', figure: `${stepMedians(fl.echoes)}; slowest ${slowestSteps(fl.echoes, 0.05)}`, anchor: `idle ${stepMedians(e.echoes)}; slowest ${slowestSteps(e.echoes, 0.05)}`, ratio: '—', aim: 'report' });
    const tc = summarize(fl.tmux);
    const tc95 = quantile(fl.tmux, 0.95);
    const cc95 = quantile(fl.ctrlc, 0.95);
    rows.push({ bench: `Ctrl-C in the flooding pane → last byte in its xterm, median (ms), n=${cc.n}`, figure: ms(cc), anchor: withTmux ? `tmux client ${ms(tc)}` : 'tmux n/a', ratio: withTmux ? ratio(cc.median, tc.median) : 'n/a', aim: 'report' });
    rows.push({ bench: 'Ctrl-C in the flooding pane → last byte in its xterm, p95 (ms)', figure: fmt(cc95), anchor: withTmux ? `tmux client ${fmt(tc95)}` : 'tmux n/a', ratio: withTmux ? ratio(cc95, tc95) : 'n/a', aim: '< 150 ms; ≤ 1.5× tmux (35)' });
    const af = summarize(fl.after);
    const rate = summarize(fl.after.map((b, i) => b / MiB / (fl.ctrlc[i]! / 1000)));
    rows.push({ bench: 'Ctrl-C in the flooding pane: cycles whose screen, once quiet, does not end with the shell\'s prompt', figure: noPrompt(fl.prompts), anchor: '—', ratio: '—', aim: 'none (what the key brought is drawn)' });
    rows.push({ bench: 'Ctrl-C in the flooding pane: bytes parsed after the key (KiB); drain rate (MiB/s)', figure: range({ ...af, median: af.median / 1024, min: af.min / 1024, max: af.max / 1024 }, 0), anchor: `drain ${range(rate, 2)} MiB/s`, ratio: '—', aim: 'report' });
    // The same in a remote pane's stand-in, against the same tmux cycles; its own failure is its row's, not the section's.
    const remoteLabel = 'Ctrl-C in a flooding remote pane (a joined command host; its stand-in in the window) → last byte in its xterm';
    try {
      const rc = await remoteCtrlc(sh, path.join(dir, 'remoteCtrlc'), Math.max(10, runs * FLOOD_CYCLES_PER_RUN), withTmux);
      say('remote Ctrl-C', t0);
      const rcs = summarize(rc.ctrlc);
      const rc95 = quantile(rc.ctrlc, 0.95);
      const ra = summarize(rc.after);
      // Its anchor is the tmux cycle after each of its own (remoteCtrlc.ts), not the local row's.
      const rt = withTmux ? summarize(rc.tmux) : null;
      const rt95 = withTmux ? quantile(rc.tmux, 0.95) : NaN;
      rows.push({ bench: `${remoteLabel}, median (ms), n=${rcs.n}`, figure: ms(rcs), anchor: rt ? `tmux client, its cycles interleaved ${ms(rt)}` : 'tmux n/a', ratio: rt ? ratio(rcs.median, rt.median) : 'n/a', aim: 'report' });
      rows.push({ bench: `${remoteLabel}, p95 (ms); bytes parsed after the key (KiB)`, figure: `${fmt(rc95)}; ${range({ ...ra, median: ra.median / 1024, min: ra.min / 1024, max: ra.max / 1024 }, 0)} KiB`, anchor: rt ? `tmux client, interleaved ${fmt(rt95)}` : 'tmux n/a', ratio: rt ? ratio(rc95, rt95) : 'n/a', aim: '≤ 1.5× tmux (35)' });
      rows.push({ bench: `${remoteLabel}: cycles whose screen, once quiet, does not end with the shell's prompt`, figure: noPrompt(rc.prompts), anchor: '—', ratio: '—', aim: 'none (what the key brought is drawn)' });
    } catch (err) {
      rows.push({ bench: remoteLabel, figure: `failed: ${(err as Error).message.slice(0, 300)}`, anchor: '—', ratio: '—', aim: '≤ 1.5× tmux (35)' });
    }
    }

    if (parts.has('paste')) {
      const ps = await paste(sh, runs);
      say('paste', t0);
      const pp = summarize(ps.pane);
      const pn = summarize(ps.nodePty);
      rows.push({ bench: 'paste 50 KB into a reader (`head -c N > /dev/null`) until consumed (ms)', figure: ms(pp), anchor: `node-pty ${ms(pn)}`, ratio: ratio(pp.median, pn.median), aim: 'report' });
    }
  } finally {
    await sh.close();
  }

  if (parts.has('cold')) {
    rows.push(...(await coldStart(dir, runs)));
    say('cold start and memory', t0);
  }
  return rows;
}

