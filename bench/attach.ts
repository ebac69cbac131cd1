// A terminal client's echo: a key typed into the person's terminal → the echo drawn
// on it, through `pane attach` (the built CLI, in a PTY, drawing from its screen
// model) and through `tmux attach` (a tmux client in a PTY), the program in both
// being the same `cat` in raw mode; and the floor, that cat in a PTY of its own.
// The rounds alternate, so all three meet the same load on the machine.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import pty from '@lydell/node-pty';
import { client, paneBin, sleep, startServerProc } from './procs';
import { fmt, range, summarize, type Row, type Summary } from './stats';

const CAT = "stty raw -echo; exec cat";
const COLS = 100;
const ROWS = 30;
/** Rounds discarded first (JIT, caches), then measured. */
const WARMUP = 20;
/** Each wait for an echo is bounded: a lost one fails the section, saying which side. */
const ECHO_WAIT_MS = 5_000;

/** A terminal (a PTY we hold the master of) running `argv`, and a waiter for the next output that holds a byte. */
function terminal(file: string, args: string[], env: NodeJS.ProcessEnv): { write: (s: string) => void; next: (ch: string, what: string) => Promise<number>; seen: () => string; kill: () => void } {
  const t = pty.spawn(file, args, { cols: COLS, rows: ROWS + 1, env: env as Record<string, string>, name: 'xterm-256color' });
  let all = '';
  let want: { ch: string; done: (at: number) => void } | null = null;
  t.onData((d) => {
    all = (all + d).slice(-4096);
    if (want && d.includes(want.ch)) {
      const w = want;
      want = null;
      w.done(performance.now());
    }
  });
  return {
    write: (s) => t.write(s),
    next: (ch, what) =>
      new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`bench attach: no echo of ${JSON.stringify(ch)} from ${what} in ${ECHO_WAIT_MS} ms; its screen ends: ${JSON.stringify(all.slice(-300))}`)), ECHO_WAIT_MS);
        want = { ch, done: (at) => (clearTimeout(timer), resolve(at)) };
      }),
    seen: () => all,
    kill: () => t.kill(),
  };
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 15_000; !ok(); await sleep(20)) if (Date.now() > deadline) throw new Error(`bench attach: ${what} never came`);
}

export interface AttachEcho {
  pane: Summary;
  tmux: Summary | null;
  raw: Summary;
}

export async function attachEcho(dir: string, rounds: number, withTmux: boolean): Promise<AttachEcho> {
  fs.mkdirSync(dir, { recursive: true });
  const srv = await startServerProc(dir);
  const c = await client(srv.socket, 'bench-attach');
  const s = await c.call('session/new', { name: 'attach', launch: { program: '/bin/sh', args: ['-c', CAT] } });
  const n = (await c.call('pane/list', { session: s.session })).panes[0]!.n;
  await c.call('pty/resize', { pane: n, cols: COLS, rows: ROWS });
  c.close();
  const env = { ...process.env, TERM: 'xterm-256color' };
  const paneT = terminal(process.execPath, [paneBin, '--socket', srv.socket, 'attach', '-t', String(n)], env);
  const sock = `panebenchattach${process.pid}`;
  if (withTmux) execFileSync('tmux', ['-L', sock, '-f', '/dev/null', 'new-session', '-d', '-s', 'attach', '-x', String(COLS), '-y', String(ROWS), CAT, ';', 'set', '-g', 'status', 'off'], { env });
  const tmuxT = withTmux ? terminal('tmux', ['-L', sock, '-f', '/dev/null', 'attach', '-t', 'attach'], env) : null;
  const rawT = terminal('/bin/sh', ['-c', CAT], env);
  const p: number[] = [];
  const t: number[] = [];
  const r: number[] = [];
  try {
    await until('pane attach’s status row', () => paneT.seen().includes('detaches'));
    if (tmuxT) await until('the tmux client', () => tmuxT.seen().length > 0);
    await sleep(300);
    const sides = [
      { term: paneT, into: p, what: 'pane attach' },
      ...(tmuxT ? [{ term: tmuxT, into: t, what: 'tmux attach' }] : []),
      { term: rawT, into: r, what: 'cat in a PTY' },
    ];
    for (let i = 0; i < rounds + WARMUP; i++) {
      // Letters a..z in turn; a row wraps now and then, which both clients draw.
      const ch = String.fromCharCode(97 + (i % 26));
      for (const side of sides) {
        const seen = side.term.next(ch, side.what);
        const t0 = performance.now();
        side.term.write(ch);
        const at = await seen;
        if (i >= WARMUP) side.into.push((at - t0) * 1000);
        // Apart, so one side's drawing does not overlap the next one's key.
        await sleep(5);
      }
      if (i % 60 === 59) for (const side of sides) side.term.write('\r\n');
    }
  } finally {
    paneT.write('\x1c');
    await sleep(100);
    paneT.kill();
    tmuxT?.kill();
    rawT.kill();
    if (withTmux) spawnSync('tmux', ['-L', sock, 'kill-server']);
    await srv.stop();
  }
  return { pane: summarize(p), tmux: withTmux ? summarize(t) : null, raw: summarize(r) };
}

/** The section's rows for `npm run bench` (PANE_BENCH_ONLY=attach). */
export async function attachRows(dir: string, runs: number, withTmux: boolean): Promise<Row[]> {
  const e = await attachEcho(dir, Math.max(100, runs * 40), withTmux);
  const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? `${fmt(a / b)}×` : 'n/a');
  return [
    { bench: `keystroke → echo drawn in a terminal by \`pane attach\`, median (µs), n=${e.pane.n}`, figure: range(e.pane, 0), anchor: e.tmux ? `tmux attach ${range(e.tmux, 0)}` : 'tmux n/a', ratio: e.tmux ? ratio(e.pane.median, e.tmux.median) : 'n/a', aim: 'report (two Node processes on the path where tmux has two C ones)' },
    { bench: 'keystroke → echo drawn by `pane attach`, p99 (µs)', figure: fmt(e.pane.p99, 0), anchor: e.tmux ? `tmux attach ${fmt(e.tmux.p99, 0)}` : 'tmux n/a', ratio: e.tmux ? ratio(e.pane.p99, e.tmux.p99) : 'n/a', aim: '< 16 ms (the next frame)' },
    { bench: 'keystroke → echo drawn by `pane attach` vs the same cat in a PTY of its own (the floor; µs)', figure: range(e.pane, 0), anchor: `cat in a PTY ${range(e.raw, 0)}`, ratio: ratio(e.pane.median, e.raw.median), aim: 'report' },
  ];
}
