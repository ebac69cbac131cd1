// Ctrl-C under a flood, server level: how long after the key a client still
// receives and parses output. pane: a client attached with flow control that
// parses in @xterm/headless and acks what it parsed, as the renderer does. tmux:
// a client attached in a PTY, its output parsed by the same headless xterm.
// Both: bash runs `yes`, Ctrl-C is typed, "stopped" = nothing parsed for QUIET_MS.
import { execFileSync, spawnSync } from 'node:child_process';
import { Terminal } from '@xterm/headless';
import pty from '@lydell/node-pty';
// The renderer's ack policy (renderer/src/term/ackMeter.ts): every ACK_CHUNK parsed, or ACK_IDLE_MS after the last parse.
import { ACK_CHUNK, ACK_IDLE_MS } from '../kits/protocol/flow';
import { client, sleep, startServerProc } from './procs';
import { fmt, range, summarize, type Row, type Summary } from './stats';

/** Output has stopped once nothing was parsed for this long (the window itself is not counted); the renderer bench uses it too. */
export const QUIET_MS = 200;
const COLS = 200;
const ROWS = 50;
const BASH = ['/bin/bash', '--norc', '--noprofile', '-i'];

/** A headless xterm that counts parsed bytes and remembers when it last parsed. */
class Parsed {
  readonly term = new Terminal({ cols: COLS, rows: ROWS, scrollback: 5000, allowProposedApi: true });
  bytes = 0;
  last = performance.now();
  write(data: Uint8Array | string, then?: (n: number) => void): void {
    const n = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
    this.term.write(data, () => {
      this.bytes += n;
      this.last = performance.now();
      then?.(n);
    });
  }
  async grown(from: number, by: number, what: string): Promise<void> {
    for (const deadline = Date.now() + 15_000; this.bytes - from < by; ) {
      if (Date.now() > deadline) throw new Error(`bench ctrlc: ${what} never flooded`);
      await sleep(10);
    }
  }
  /** Time of the last parse before a QUIET_MS silence. */
  async quiet(): Promise<number> {
    for (const deadline = Date.now() + 30_000; ; ) {
      const idle = performance.now() - this.last;
      if (idle >= QUIET_MS) return this.last;
      if (Date.now() > deadline) throw new Error('bench ctrlc: output never stopped');
      await sleep(Math.max(5, QUIET_MS - idle));
    }
  }
}

export interface Side {
  flood(): Promise<void>;
  /** Types Ctrl-C; resolves with ms from the key to the last parsed byte, and the bytes parsed after it. */
  interrupt(): Promise<{ ms: number; bytes: number }>;
  close(): Promise<void>;
}

async function paneSide(dir: string): Promise<Side> {
  const srv = await startServerProc(dir);
  const c = await client(srv.socket, 'bench-ctrlc');
  const s = await c.call('session/new', { name: 'ctrlc', launch: { program: BASH[0]!, args: BASH.slice(1) } });
  const pane = (await c.call('pane/list', { session: s.session })).panes[0]!.n;
  await c.call('pty/resize', { pane, cols: COLS, rows: ROWS });
  const p = new Parsed();
  let pending = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending > 0) c.notify('pty/ack', { pane, bytes: pending });
    pending = 0;
  };
  c.onOutput((n, _off, data) => {
    if (n !== pane) return;
    p.write(data, (k) => {
      pending += k;
      if (pending >= ACK_CHUNK) flush();
      else timer ??= setTimeout(flush, ACK_IDLE_MS);
    });
  });
  await c.call('pty/attach', { pane, mode: 'from', from: 0, flowControl: true });
  await p.grown(0, 2, 'the prompt');
  const send = (s: string) => c.sendInput(pane, new TextEncoder().encode(s));
  return {
    async flood() {
      const b = p.bytes;
      send('yes\r');
      await p.grown(b, 256 << 10, 'pane');
    },
    async interrupt() {
      const b = p.bytes;
      const t0 = performance.now();
      send('\x03');
      const last = await p.quiet();
      return { ms: Math.max(0, last - t0), bytes: p.bytes - b };
    },
    async close() {
      flush();
      c.close();
      p.term.dispose();
      await srv.stop();
    },
  };
}

let tmuxServers = 0;

/** A tmux server running bash in a 200×50 pane with a client attached in a PTY (what a person in tmux sees). */
export async function tmuxSide(): Promise<Side> {
  const sock = `panebenchctrlc${process.pid}-${tmuxServers++}`;
  const env = { ...process.env, PS1: '$ ', TERM: 'xterm-256color' };
  execFileSync('tmux', ['-L', sock, '-f', '/dev/null', 'new-session', '-d', '-s', 'ctrlc', '-x', String(COLS), '-y', String(ROWS), BASH.join(' ')], { env });
  const cl = pty.spawn('tmux', ['-L', sock, '-f', '/dev/null', 'attach', '-t', 'ctrlc'], { cols: COLS, rows: ROWS, env, encoding: null as unknown as string });
  const p = new Parsed();
  cl.onData((d) => p.write(d as unknown as Uint8Array));
  await p.grown(0, 100, 'the tmux client');
  await sleep(300);
  return {
    async flood() {
      const b = p.bytes;
      cl.write('yes\r');
      // tmux redraws rather than forwards every byte: less reaches its client.
      await p.grown(b, 256 << 10, 'tmux');
    },
    async interrupt() {
      const b = p.bytes;
      const t0 = performance.now();
      cl.write('\x03');
      const last = await p.quiet();
      return { ms: Math.max(0, last - t0), bytes: p.bytes - b };
    },
    async close() {
      cl.kill();
      spawnSync('tmux', ['-L', sock, 'kill-server']);
      p.term.dispose();
    },
  };
}

/** One cycle of a side: the flood, a moment of it at a random phase of flow control's pause/resume, then Ctrl-C. */
export async function floodThenInterrupt(side: Side): Promise<{ ms: number; bytes: number }> {
  await side.flood();
  await sleep(100 + Math.random() * 200);
  return side.interrupt();
}

export interface CtrlcResult {
  pane: Summary;
  paneP95: number;
  paneBytes: Summary;
  tmux: Summary | null;
  tmuxP95: number;
  tmuxBytes: Summary | null;
}

const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]! : Number.NaN;
};

export async function ctrlc(dir: string, cycles: number, withTmux: boolean): Promise<CtrlcResult> {
  const pane = await paneSide(dir);
  const tm = withTmux ? await tmuxSide() : null;
  const pt: number[] = [];
  const pb: number[] = [];
  const tt: number[] = [];
  const tb: number[] = [];
  const sides = [{ side: pane, ms: pt, bytes: pb }, ...(tm ? [{ side: tm, ms: tt, bytes: tb }] : [])];
  try {
    for (let i = 0; i < cycles; i++) {
      for (const { side, ms, bytes } of sides) {
        const r = await floodThenInterrupt(side);
        ms.push(r.ms);
        bytes.push(r.bytes);
      }
    }
  } finally {
    await pane.close();
    await tm?.close();
  }
  return {
    pane: summarize(pt),
    paneP95: p95(pt),
    paneBytes: summarize(pb),
    tmux: tm ? summarize(tt) : null,
    tmuxP95: tm ? p95(tt) : Number.NaN,
    tmuxBytes: tm ? summarize(tb) : null,
  };
}

/** The section's rows for `npm run bench` (PANE_BENCH_ONLY=ctrlc). */
export async function ctrlcRows(dir: string, runs: number, withTmux: boolean): Promise<Row[]> {
  const r = await ctrlc(dir, Math.max(10, runs * 5), withTmux);
  const kib = (s: Summary) => range({ ...s, median: s.median / 1024, min: s.min / 1024, max: s.max / 1024 }, 0);
  const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? `${fmt(a / b)}×` : 'n/a');
  return [
    { bench: `Ctrl-C under \`yes\`, server level: key → last byte parsed by an acking client, median (ms), n=${r.pane.n}`, figure: range(r.pane, 1), anchor: r.tmux ? `tmux client ${range(r.tmux, 1)}` : 'tmux n/a', ratio: r.tmux ? ratio(r.pane.median, r.tmux.median) : 'n/a', aim: 'report' },
    { bench: 'Ctrl-C under `yes`, server level, p95 (ms)', figure: fmt(r.paneP95, 1), anchor: r.tmux ? `tmux client ${fmt(r.tmuxP95, 1)}` : 'tmux n/a', ratio: r.tmux ? ratio(r.paneP95, r.tmuxP95) : 'n/a', aim: '< 150 ms' },
    { bench: 'Ctrl-C under `yes`, server level: bytes parsed after the key (KiB)', figure: kib(r.paneBytes), anchor: r.tmuxBytes ? `tmux client ${kib(r.tmuxBytes)}` : 'tmux n/a', ratio: '—', aim: 'report' },
  ];
}
