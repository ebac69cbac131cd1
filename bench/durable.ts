// Durability: a snapshot of 100 panes × 10,000 lines (time, bytes, the longest stall
// of the server's main loop while it runs), the journal's cost on a structural round
// trip, a daemon restart to 20 panes back at their prompts, and bytes on disk per pane
// against what tmux-resurrect saves for the same pane (capture-pane -epJ, gzipped).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Connection } from '../kits/client/connection';
import { client, have, sleep, startServerProc, tmux } from './procs';
import { fmt, range, summarize, type Row } from './stats';

const LINES = 10_000;
/** One pane's history: numbered lines with a few words and colour, as a build log might look. */
const HISTORY_CMD = ['sh', '-c', `seq -f '\x1b[32mok\x1b[0m step %g: compiled src/module.ts in 12 ms' 1 ${LINES}; exec cat`];

/** The pane server's longest stall as a client sees it: back-to-back server/info calls, the longest gap between two answers while `work` runs. */
async function longestGap<T>(c: Connection, work: () => Promise<T>): Promise<{ value: T; stallMs: number; ms: number }> {
  let done = false;
  let worst = 0;
  const pinging = (async () => {
    let last = performance.now();
    while (!done) {
      await c.call('server/info', {});
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }
  })();
  const t0 = performance.now();
  try {
    const value = await work();
    return { value, stallMs: worst, ms: performance.now() - t0 };
  } finally {
    done = true;
    await pinging;
  }
}

/** Every pane has printed its history (no stream grows for 500 ms) and the screen model has parsed all of it (a screen read waits for that). */
async function settled(c: Connection, panes: number[]): Promise<void> {
  const end = Date.now() + 300_000;
  let stableSince = 0;
  let last = -1;
  for (;;) {
    let total = 0;
    for (const n of panes) total += (await c.call('pty/read', { pane: n, from: Number.MAX_SAFE_INTEGER, maxBytes: 1 })).streamEnd;
    if (total === last) {
      if (stableSince && Date.now() - stableSince > 500) break;
      stableSince ||= Date.now();
    } else stableSince = 0;
    last = total;
    if (Date.now() > end) throw new Error('panes never settled');
    await sleep(100);
  }
  for (const n of panes) await c.call('pty/screen', { pane: n, form: 'text' });
}

/**
 * A snapshot's time, size and the longest stall it causes, in a daemon of its own
 * (as users run it): the stall is the longest wait for an answer to a client asking
 * all along, the wait a keystroke's echo would have. Measured inside the bench's own
 * process, its heap (every earlier section's garbage) put its collections into the figure.
 */
async function snapshotRows(dir: string, runs: number, withTmux: boolean): Promise<Row[]> {
  const home = path.join(dir, 'snap');
  fs.mkdirSync(home, { recursive: true });
  const srv = await startServerProc(home, ['--state', path.join(home, 'state')]);
  const c = await client(srv.socket);
  const times: number[] = [];
  const stalls: number[] = [];
  const idle: number[] = [];
  let bytes = 0;
  let perPane = 0;
  const wrote: number[] = [];
  try {
    const launch = { program: HISTORY_CMD[0]!, args: HISTORY_CMD.slice(1) };
    const s = await c.call('session/new', { launch, viewport: { cols: 200, rows: 60 } });
    const panes = [(await c.call('pane/list', { session: s.session })).panes[0]!.n];
    for (let i = 1; i < 100; i++) {
      const { pane } = await c.call('pane/split', { session: s.session, launch });
      await c.call('pane/float', { pane, mode: 'float', w: 100, h: 30 });
      panes.push(pane);
    }
    await settled(c, panes);
    for (let r = 0; r < runs; r++) {
      const { value: g, stallMs, ms } = await longestGap(c, () => c.call('state/save', {}));
      times.push(ms);
      stalls.push(stallMs);
      // The same measure over a quiet window as long: what the machine's load alone does to an answer.
      idle.push((await longestGap(c, () => sleep(ms))).stallMs);
      bytes = g.bytes;
      // The state file and every history file the generation names (blocks shared with earlier ones included).
      perPane = g.bytes / 100;
      wrote.push((g.wrote ?? g.bytes) / 1024 / 1024);
    }
  } finally {
    c.close();
    await srv.stop();
  }
  const rows: Row[] = [
    { bench: 'snapshot, 100 panes × 10,000 lines, with history (ms)', figure: range(summarize(times), 0), anchor: `${fmt(bytes / 1024 / 1024, 1)} MiB on disk, written ${range(summarize(wrote), 2)} MiB`, ratio: '—', aim: 'report' },
    { bench: 'snapshot, 100 panes × 10,000 lines: longest wait for an answer from the daemon (ms)', figure: range(summarize(stalls), 1), anchor: `as long, quiet ${range(summarize(idle), 1)}`, ratio: '—', aim: '≤ 10 ms' },
  ];
  let resurrect = Number.NaN;
  if (withTmux) {
    // tmux-resurrect's pane contents: capture-pane -epJ of the whole history, gzipped in its tarball.
    const sock = `pane-bench-res-${process.pid}`;
    try {
      // The history limit applies to panes made after it is set: a holder session first, then the pane.
      tmux(sock, 'new-session', '-d', '-s', 'hold', '-x', '100', '-y', '30', 'sleep 600');
      tmux(sock, 'set-option', '-g', 'history-limit', String(LINES));
      tmux(sock, 'new-window', '-d', '-t', 'hold:1', HISTORY_CMD.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' '));
      await sleep(1500);
      const text = execFileSync('tmux', ['-L', sock, 'capture-pane', '-epJ', '-S', `-${LINES}`, '-t', 'hold:1'], { maxBuffer: 64 << 20 });
      resurrect = gzipSync(text).length;
    } finally {
      try {
        tmux(sock, 'kill-server');
      } catch {
        // gone
      }
    }
  }
  rows.push({ bench: 'bytes on disk per pane, 10,000 lines with colour (KiB)', figure: fmt(perPane / 1024, 1), anchor: Number.isFinite(resurrect) ? `tmux-resurrect contents ${fmt(resurrect / 1024, 1)}` : 'tmux n/a', ratio: Number.isFinite(resurrect) ? `${fmt(perPane / resurrect)}×` : 'n/a', aim: 'report' });
  return rows;
}

/** pane/tag calls timed on each server for the journal's figure (the first tenth untimed). */
const JOURNAL_CALLS = 2000;

/**
 * The journal's cost on a structural round trip: two servers, one journaling and one
 * with no state, alive at once and asked in turn (which first alternates), so both
 * see the same machine. Measured one after the other, the two medians drifted ±30%
 * between runs on this 2-core machine (a journaling server once measured faster than
 * none), more than the cost measured.
 */
async function journalRows(dir: string): Promise<Row[]> {
  const open = async (extra: string[], tag: string) => {
    const d = path.join(dir, tag);
    fs.mkdirSync(d, { recursive: true });
    const srv = await startServerProc(d, extra);
    const c = await client(srv.socket);
    const { session } = await c.call('session/new', {});
    const pane = (await c.call('pane/list', { session })).panes[0]!.n;
    return { srv, c, pane, lat: [] as number[] };
  };
  const off = await open([], 'j-off');
  const on = await open(['--state', path.join(dir, 'j-on', 'state')], 'j-on');
  try {
    for (let i = 0; i < JOURNAL_CALLS; i++) {
      for (const s of i % 2 ? [off, on] : [on, off]) {
        const t0 = performance.now();
        await s.c.call('pane/tag', { pane: s.pane, user: `note ${i}` }); // a structural change: one journal record each
        s.lat.push((performance.now() - t0) * 1000);
      }
    }
  } finally {
    for (const s of [off, on]) {
      s.c.close();
      await s.srv.stop();
    }
  }
  const [a, b] = [summarize(off.lat.slice(JOURNAL_CALLS / 10)), summarize(on.lat.slice(JOURNAL_CALLS / 10))];
  return [{ bench: 'structural change round trip (pane/tag) with journaling, median (µs; interleaved with a server keeping no state)', figure: range(b, 0), anchor: `no state ${range(a, 0)}`, ratio: `${fmt((b.median / a.median - 1) * 100, 1)}%`, aim: '< 5%' }];
}

async function restartRows(dir: string, runs: number): Promise<Row[]> {
  const d = path.join(dir, 'restart');
  fs.mkdirSync(d, { recursive: true });
  const state = path.join(d, 'state');
  const srv = await startServerProc(d, ['--state', state]);
  const c = await client(srv.socket);
  const { session } = await c.call('session/new', { viewport: { cols: 240, rows: 80 } });
  // Split as a heap (pane i splits pane i/2): a balanced tiling where every pane has room for its prompt.
  for (let i = 2; i <= 20; i++) await c.call('pane/split', { pane: Math.floor(i / 2), direction: Math.floor(Math.log2(i)) % 2 ? 'vertical' : 'horizontal' });
  c.close();
  await srv.stop();
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const again = await startServerProc(d, ['--state', state]);
    const c2 = await client(again.socket);
    const panes = (await c2.call('pane/list', {})).panes.map((p) => p.n);
    const waiting = new Set(panes);
    while (waiting.size) {
      // A prompt below the restart label.
      for (const n of [...waiting]) if (/program was restarted[\s\S]*[$#]\s*$/.test((await c2.call('pty/screen', { pane: n })).text.replace(/\n/g, ''))) waiting.delete(n);
      if (waiting.size) await sleep(10);
    }
    times.push(performance.now() - t0);
    if (panes.length !== 20) throw new Error(`restart brought back ${panes.length} panes, not 20`);
    c2.close();
    await again.stop();
  }
  return [{ bench: 'daemon restart to 20 panes back at their prompts (ms)', figure: range(summarize(times), 0), anchor: '—', ratio: '—', aim: '< 2000 ms' }];
}

export async function durable(dir: string, runs: number, withTmux: boolean): Promise<Row[]> {
  if (!have('seq', ['1'])) throw new Error('the durable bench needs seq (coreutils)');
  return [...(await snapshotRows(dir, runs, withTmux)), ...(await journalRows(dir)), ...(await restartRows(dir, runs))];
}
