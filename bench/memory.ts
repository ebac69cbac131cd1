// Memory per terminal pane holding a full 10,000-line scrollback, pane server vs
// a tmux server holding the same; the whole server with 20 such panes (its RSS
// covers the screen worker, a thread of the same process) vs tmux with 20; and
// the server with 100 idle panes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { anonOf, client, rssOf, sleep, startServerProc, tmux } from './procs';
import { summarize, type Summary } from './stats';

const PANES = 10;
/** Issue 14's fleet: twenty agents with long histories. */
const FLEET = 20;
const LINES = 10_000;
/**
 * How long full panes sit idle before the settled figure is read. V8 gives back the
 * garbage of parsing 10 MB only once its memory reducer runs, several seconds into a
 * quiet spell; a pane full of history sits idle for hours, so the settled RSS is what
 * a user's machine carries. The peak is kept too.
 */
const SETTLE_MS = 25_000;
// 10,000 numbered lines of ~80 columns, then stay alive.
const FILL = `i=0; while [ $i -lt ${LINES} ]; do printf '%05d %s\\n' $i 'the quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJKLMNOPQRSTU'; i=$((i+1)); done; exec sleep 3600`;

export interface MemoryResult {
  paneFull: Summary;
  tmuxFull: Summary | null;
  /** Whole-process RSS with FLEET full panes. */
  pane20: Summary;
  tmux20: Summary | null;
  /** The same two, read right after the last line was parsed (before V8 gave memory back). */
  paneFullPeak: Summary;
  pane20Peak: Summary;
  /** The 20-pane server's anonymous memory (anonOf), settled and at the peak; tmux's with 20, settled. */
  anon20: Summary;
  anon20Peak: Summary;
  tmuxAnon20: Summary | null;
  idle100: number;
  idleBaseline: number;
}

/** RSS of the server before and after `n` panes each printed a full history. */
async function paneFull(dir: string, n = PANES): Promise<{ base: number; after: number; peak: number; anonAfter: number; anonPeak: number }> {
  // A directory per server: a socket left by one killed on its way out must not be mistaken for the next one's.
  const srv = await startServerProc(fs.mkdtempSync(path.join(dir, `full${n}-`)));
  try {
    const c = await client(srv.socket);
    await c.call('session/new', { name: 'm', launch: { program: '/bin/sleep', args: ['3600'] } });
    await sleep(300);
    const base = rssOf(srv.proc.pid!);
    const panes: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = await c.call('float/create', { session: 'm', w: 100, h: 40, launch: { program: '/bin/sh', args: ['-c', FILL] } });
      panes.push(r.pane);
    }
    // Wait until every pane has printed all its lines and the screen model has parsed them: the last
    // line on its bottom rows. A few rows a look, as tmux's side reads one number a window: a whole
    // snapshot (pty/screen: the history that fits a reply, text and escapes) every 100 ms made
    // megabytes of the bench's own garbage in both isolates, ~25 MiB of the peak read below.
    const last = String(LINES - 1).padStart(5, '0');
    for (const p of panes) {
      for (;;) {
        const g = await c.call('pty/grid', { pane: p, rows: 3 });
        if (g.lines.some((l) => l.startsWith(last))) break;
        await sleep(100);
      }
    }
    await sleep(500);
    const peak = rssOf(srv.proc.pid!);
    const anonPeak = anonOf(srv.proc.pid!);
    c.close();
    await sleep(SETTLE_MS);
    const after = rssOf(srv.proc.pid!);
    return { base, after, peak, anonAfter: anonOf(srv.proc.pid!), anonPeak };
  } finally {
    await srv.stop();
  }
}

/** RSS of a tmux server before and after `n` windows each printed a full history. */
function tmuxFull(n = PANES): { base: number; after: number; anonAfter: number } {
  const sock = `panebenchmem${process.pid}`;
  tmux(sock, 'new-session', '-d', '-x', '100', '-y', '40', 'sleep 3600');
  tmux(sock, 'set-option', '-g', 'history-limit', String(LINES));
  const pid = Number(tmux(sock, 'display-message', '-p', '#{pid}').trim());
  const base = rssOf(pid);
  for (let i = 0; i < n; i++) tmux(sock, 'new-window', '-d', FILL);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const done = tmux(sock, 'list-windows', '-F', '#{history_size}')
      .trim()
      .split('\n')
      .slice(1)
      .filter((h) => Number(h) >= LINES - 40).length;
    if (done >= n || Date.now() > deadline) break;
    spawnSync('sleep', ['0.1']);
  }
  const after = rssOf(pid);
  const anonAfter = anonOf(pid);
  spawnSync('tmux', ['-L', sock, 'kill-server']);
  return { base, after, anonAfter };
}

async function idle(dir: string): Promise<{ base: number; with100: number }> {
  const srv = await startServerProc(fs.mkdtempSync(path.join(dir, 'idle-')));
  try {
    const c = await client(srv.socket);
    await c.call('session/new', { name: 'idle', launch: { program: '/bin/cat', args: [] } });
    await sleep(300);
    const base = rssOf(srv.proc.pid!);
    for (let i = 0; i < 99; i++) await c.call('float/create', { session: 'idle', launch: { program: '/bin/cat', args: [] } });
    await sleep(1000);
    const with100 = rssOf(srv.proc.pid!);
    c.close();
    return { base, with100 };
  } finally {
    await srv.stop();
  }
}

export async function memory(dir: string, runs: number, withTmux: boolean): Promise<MemoryResult> {
  const p: number[] = [];
  const t: number[] = [];
  const p20: number[] = [];
  const t20: number[] = [];
  const pPeak: number[] = [];
  const p20Peak: number[] = [];
  const a20: number[] = [];
  const a20Peak: number[] = [];
  const ta20: number[] = [];
  const perPane = (r: { base: number; after: number }) => (r.after - r.base) / PANES;
  for (let i = 0; i < runs; i++) {
    const ten = await paneFull(dir);
    p.push(perPane(ten));
    pPeak.push((ten.peak - ten.base) / PANES);
    if (withTmux) t.push(perPane(tmuxFull()));
    const fleet = await paneFull(dir, FLEET);
    p20.push(fleet.after);
    p20Peak.push(fleet.peak);
    a20.push(fleet.anonAfter);
    a20Peak.push(fleet.anonPeak);
    if (withTmux) {
      const tf = tmuxFull(FLEET);
      t20.push(tf.after);
      ta20.push(tf.anonAfter);
    }
  }
  const id = await idle(dir);
  return { paneFull: summarize(p), tmuxFull: withTmux ? summarize(t) : null, pane20: summarize(p20), paneFullPeak: summarize(pPeak), pane20Peak: summarize(p20Peak), tmux20: withTmux ? summarize(t20) : null, anon20: summarize(a20), anon20Peak: summarize(a20Peak), tmuxAnon20: withTmux ? summarize(ta20) : null, idle100: id.with100, idleBaseline: id.base };
}
