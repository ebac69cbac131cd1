// Scale (issue 35): a server with 20, 100 and 200 panes (each a real PTY running
// `cat`, ten to a session, as a long day's desktop), measured at each size: `pane ls
// --json` one-shot, a structural change (a split and its close, round trip), and the
// daemon's RSS against a tmux server holding the same number of `cat` windows. Each
// row's growth from 20 to 200 says whether cost is linear (10×) or better.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { client, paneBin, rssOf, sleep, startServerProc, timeCommand, tmux } from './procs';
import { summarize, type Summary } from './stats';

/** The sizes measured; the growth is from the first to the last. */
export const SCALE_SIZES = [20, 100, 200] as const;
/** Panes per session: a session of hundreds would be tiles too small to read, which is not how people work. */
const PER_SESSION = 10;
/** After the panes are made, the daemon settles (screens idle, rings trimmed) before its RSS is read. */
const SETTLE_MS = 2_000;

export interface ScaleRow {
  panes: number;
  ls: Summary;
  change: Summary;
  rss: number;
  tmuxRss: number | null;
}

export async function scale(dir: string, runs: number, withTmux: boolean): Promise<ScaleRow[]> {
  const out: ScaleRow[] = [];
  for (const n of SCALE_SIZES) {
    const d = fs.mkdtempSync(path.join(dir, `scale-${n}-`));
    const srv = await startServerProc(d);
    try {
      const c = await client(srv.socket);
      for (let s = 0; s * PER_SESSION < n; s++) {
        const made = await c.call('session/new', { name: `s${s}`, launch: { program: '/bin/cat', args: [] } });
        const panes = [(await c.call('session/get', { session: made.name })).focused!];
        // Each pane split at most twice, breadth first: tiles stay readable (no 5-column slivers).
        for (let k = 1; k < PER_SESSION && s * PER_SESSION + k < n; k++) {
          panes.push((await c.call('pane/split', { pane: panes[Math.floor((k - 1) / 2)]!, direction: k % 2 ? 'vertical' : 'horizontal', launch: { program: '/bin/cat', args: [] } })).pane);
        }
      }
      const first = (await c.call('session/get', { session: 's0' })).focused!;
      await sleep(SETTLE_MS);
      const rss = rssOf(srv.proc.pid!);
      const env = { ...process.env, PANE_SOCKET: srv.socket };
      const ls: number[] = [];
      const change: number[] = [];
      for (let i = 0; i < Math.max(5, runs * 2); i++) {
        ls.push(timeCommand(process.execPath, [paneBin, 'ls', '--json'], env));
        const t0 = performance.now();
        const { pane } = await c.call('pane/split', { pane: first, direction: 'vertical', launch: { program: '/bin/cat', args: [] } });
        await c.call('pane/close', { pane });
        change.push(performance.now() - t0);
      }
      c.close();
      out.push({ panes: n, ls: summarize(ls), change: summarize(change), rss, tmuxRss: withTmux ? tmuxRss(n) : null });
    } finally {
      await srv.stop();
    }
  }
  return out;
}

/** RSS of a tmux server holding `n` windows of `cat`. */
function tmuxRss(n: number): number {
  const sock = `panebenchscale${process.pid}-${n}`;
  try {
    tmux(sock, 'new-session', '-d', '-x', '100', '-y', '40', 'cat');
    for (let i = 1; i < n; i++) tmux(sock, 'new-window', '-d', 'cat');
    spawnSync('sleep', [String(SETTLE_MS / 1000)]);
    return rssOf(Number(tmux(sock, 'display-message', '-p', '#{pid}').trim()));
  } finally {
    spawnSync('tmux', ['-L', sock, 'kill-server']);
  }
}
