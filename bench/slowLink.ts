// Attaching over a slow link (issue 36.4): a session of 16 full panes (each 2,000
// coloured lines of history) reached through a user-space link of LINK_BITS_PER_S with
// LINK_RTT_MS of round trip (this machine's kernel has no netem), as a window far away
// attaches to every pane: the full snapshot (2,000 rows of history each, what a window
// on a fast link pulls) against the screen alone (what the window asks on a slow link,
// pty/attach history 0) and the plain rows of pty/grid. Then one pane floods while the
// viewer follows it: bytes a second on the wire as raw output against grid deltas
// polled every GRID_POLL_MS (what a status view or a metered viewer would ask).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '../kits/client/connection';
import { connectUnix } from '../kits/node/socketTransport';
import { sleep, startServerProc, tileEvenly } from './procs';
import { summarize, type Summary } from './stats';

/** The link: 1 Mbit/s, 100 ms round trip (a tether, a far continent's hotel Wi-Fi). */
export const LINK_BITS_PER_S = 1_000_000;
export const LINK_RTT_MS = 100;
/** Panes in the session, each filled with HISTORY_LINES of coloured output. */
const PANES = 16;
const HISTORY_LINES = 2_000;
/** How long the flood is followed, each way. */
const FLOOD_MS = 3_000;
/** A grid viewer's poll: ten frames a second is what a person reads. */
const GRID_POLL_MS = 100;

export interface SlowLinkResult {
  full: Summary;
  screen: Summary;
  grid: Summary;
  fullBytes: number;
  screenBytes: number;
  rawBytesPerS: number;
  gridBytesPerS: number;
}

/** Bytes a direction of the link holds in flight before it stops reading its sender (a link's buffers; TCP's window then holds the rest back). */
const LINK_BUFFER_MS = 500;

/**
 * A unix-socket proxy to `target` whose each direction carries `bitsPerS` at most and
 * arrives `rttMs / 2` after it was sent: what a slow link does to a byte. A sender
 * ahead of the wire by LINK_BUFFER_MS is not read until it is not (backpressure, as
 * TCP gives). Counts what crosses toward the client as it arrives there.
 */
async function slowProxy(dir: string, target: string, bitsPerS: number, rttMs: number): Promise<{ socket: string; down: () => number; close: () => void }> {
  const socket = path.join(dir, 'slow.sock');
  let down = 0;
  const bytesPerMs = bitsPerS / 8 / 1000;
  const pipe = (from: net.Socket, to: net.Socket, count: boolean) => {
    let free = 0; // when this direction's wire is free again
    from.on('data', (chunk: Buffer) => {
      const now = performance.now();
      const start = Math.max(now, free);
      free = start + chunk.length / bytesPerMs;
      const at = free + rttMs / 2;
      setTimeout(() => {
        if (count) down += chunk.length;
        if (to.writable) to.write(chunk);
      }, Math.max(0, at - now));
      if (free - now > LINK_BUFFER_MS) {
        from.pause();
        setTimeout(() => from.resume(), free - now - LINK_BUFFER_MS / 2);
      }
    });
    from.on('close', () => setTimeout(() => to.destroy(), rttMs / 2 + Math.max(0, free - performance.now())));
  };
  const srv = net.createServer((c) => {
    const up = net.connect(target);
    pipe(c, up, false);
    pipe(up, c, true);
    c.on('error', () => up.destroy());
    up.on('error', () => c.destroy());
  });
  await new Promise<void>((r) => srv.listen(socket, r));
  return { socket, down: () => down, close: () => srv.close() };
}

async function viewer(socket: string): Promise<Connection> {
  const c = new Connection(await connectUnix(socket));
  await c.hello({ client: { name: 'far viewer', kind: 'bench' }, capabilities: ['read', 'attach'] });
  return c;
}

export async function slowLink(dir: string, runs: number): Promise<SlowLinkResult> {
  const d = fs.mkdtempSync(path.join(dir, 'slowlink-'));
  const srv = await startServerProc(d);
  const near = new Connection(await connectUnix(srv.socket));
  await near.hello({ client: { name: 'bench', kind: 'bench' }, capabilities: ['read', 'write', 'attach', 'admin'] });
  const link = await slowProxy(d, srv.socket, LINK_BITS_PER_S, LINK_RTT_MS);
  try {
    // 16 panes, each with 2,000 coloured lines behind its screen.
    const fill = `i=1; while [ $i -le ${HISTORY_LINES} ]; do printf '\\033[3%dm%05d the quick brown fox jumps over the lazy dog\\033[0m\\n' $((i % 7 + 1)) $i; i=$((i+1)); done; echo FILLED; exec cat`;
    const s = await near.call('session/new', { name: 'far', launch: { program: '/bin/sh', args: ['-c', fill] } });
    const panes = await tileEvenly(near, s.session, PANES, async (pane, direction) => (await near.call('pane/split', { pane, direction, launch: { program: '/bin/sh', args: ['-c', fill] } })).pane);
    for (const n of panes) {
      for (let i = 0; i < 600; i++) {
        const g = await near.call('pty/grid', { pane: n, rows: 3 });
        if (g.lines.some((l) => l.includes('FILLED'))) break;
        await sleep(50);
      }
    }
    const full: number[] = [];
    const screen: number[] = [];
    const grid: number[] = [];
    let fullBytes = 0;
    let screenBytes = 0;
    for (let r = 0; r < runs; r++) {
      for (const [kind, out] of [['full', full], ['screen', screen], ['grid', grid]] as const) {
        const c = await viewer(link.socket);
        const before = link.down();
        const t0 = performance.now();
        // Every pane asked at once, as a window opening on the session does; the first usable screen is when the last answers.
        if (kind === 'grid') await Promise.all(panes.map((pane) => c.call('pty/grid', { pane, rows: 50 })));
        else await Promise.all(panes.map((pane) => c.call('pty/attach', { pane, mode: 'snapshot', ...(kind === 'screen' ? { history: 0 } : {}) })));
        out.push(performance.now() - t0);
        if (kind === 'full') fullBytes = link.down() - before;
        if (kind === 'screen') screenBytes = link.down() - before;
        c.close();
        await sleep(LINK_RTT_MS * 3);
      }
    }
    // One pane floods; a viewer follows its raw output, then another polls its grid deltas.
    const flood = (await near.call('pane/split', { pane: panes[0]!, launch: { program: '/bin/sh', args: ['-c', 'exec seq -f "line %.0f of a flood the far viewer follows" 1 1000000000000'] } })).pane;
    const raw = await viewer(link.socket);
    const r0 = link.down();
    await raw.call('pty/attach', { pane: flood, mode: 'from', from: 1e15 });
    await sleep(FLOOD_MS);
    const rawBytesPerS = ((link.down() - r0) / FLOOD_MS) * 1000;
    raw.close();
    await sleep(LINK_RTT_MS * 5);
    const g = await viewer(link.socket);
    const g0 = link.down();
    let base: number | undefined;
    const until = performance.now() + FLOOD_MS;
    while (performance.now() < until) {
      const a = await g.call('pty/grid', { pane: flood, rows: 50, ...(base !== undefined ? { delta: true, base } : {}) });
      base = a.offset;
      await sleep(GRID_POLL_MS);
    }
    const gridBytesPerS = ((link.down() - g0) / FLOOD_MS) * 1000;
    g.close();
    return { full: summarize(full), screen: summarize(screen), grid: summarize(grid), fullBytes, screenBytes, rawBytesPerS, gridBytesPerS };
  } finally {
    link.close();
    near.close();
    await srv.stop();
  }
}
