// Flood isolation at the server level (no page): a keystroke's echo in one pane
// while another pane floods, against the same echo with no flood; and 4 panes
// flooding at once, each pane's share of what reaches a client that acks on receipt.
import fs from 'node:fs';
import { client, sleep, startServerProc } from './procs';
import { summarize, type Summary } from './stats';
import type { Connection } from '../kits/client/connection';

export interface FairnessResult {
  echoIdle: Summary;
  echoFlood: Summary;
  /** Bytes/s per pane with 4 flooding, and one alone. */
  shares: number[];
  alone: number;
}

const enc = new TextEncoder();

/** Attaches with flow control, acking every 64 KiB on receipt; counts bytes per pane. */
async function watch(c: Connection, panes: number[]): Promise<Map<number, number>> {
  const got = new Map<number, number>(panes.map((p) => [p, 0]));
  const pending = new Map<number, number>();
  c.onOutput((p, _off, data) => {
    if (!got.has(p)) return;
    got.set(p, got.get(p)! + data.byteLength);
    const n = (pending.get(p) ?? 0) + data.byteLength;
    if (n >= 64 * 1024) {
      c.notify('pty/ack', { pane: p, bytes: n });
      pending.set(p, 0);
    } else pending.set(p, n);
  });
  for (const p of panes) await c.call('pty/attach', { pane: p, mode: 'from', from: 0, flowControl: true });
  return got;
}

/** Each program in a float of its own: one tile halved again and again runs out of room (MIN_SPLIT_BODY). */
const launch = async (c: Connection, cmd: string) => (await c.call('float/create', { session: 'fair', w: 80, h: 24, launch: { program: '/bin/sh', args: ['-c', cmd] } })).pane;

/** One echo: a byte into `cat`, ms until it comes back. */
async function echoOnce(c: Connection, pane: number, got: Map<number, number>): Promise<number> {
  const before = got.get(pane)!;
  const t0 = performance.now();
  c.sendInput(pane, enc.encode('x'));
  for (const deadline = t0 + 10_000; got.get(pane)! === before; ) {
    if (performance.now() > deadline) throw new Error('bench fairness: no echo');
    await new Promise((r) => setImmediate(r));
  }
  return performance.now() - t0;
}

export async function fairness(dir: string, runs: number): Promise<FairnessResult> {
  fs.mkdirSync(dir, { recursive: true });
  const srv = await startServerProc(dir);
  try {
    const c = await client(srv.socket);
    await c.call('session/new', { name: 'fair', launch: { program: '/bin/cat', args: [] } });
    const cat = await launch(c, 'stty -icanon; exec cat');
    const got = await watch(c, [cat]);
    await sleep(300);
    const n = Math.max(20, runs * 10);
    const echoIdle: number[] = [];
    for (let i = 0; i < n; i++) {
      echoIdle.push(await echoOnce(c, cat, got));
      await sleep(10 + Math.random() * 10);
    }
    const yes = await launch(c, 'exec yes');
    const g2 = await watch(c, [yes]);
    await sleep(300);
    const echoFlood: number[] = [];
    for (let i = 0; i < n; i++) {
      echoFlood.push(await echoOnce(c, cat, got));
      await sleep(10 + Math.random() * 10);
    }
    void g2;
    // One flood alone, then four at once: bytes per second each.
    const rate = async (panes: number[]) => {
      const g = await watch(c, panes);
      await sleep(300);
      const b0 = panes.map((p) => g.get(p)!);
      const t0 = performance.now();
      await sleep(2000);
      const s = (performance.now() - t0) / 1000;
      return panes.map((p, i) => (g.get(p)! - b0[i]!) / s);
    };
    await c.call('pane/close', { pane: yes });
    const one = await launch(c, 'exec yes');
    const [alone] = await rate([one]);
    await c.call('pane/close', { pane: one });
    const four = [];
    for (let i = 0; i < 4; i++) four.push(await launch(c, 'exec yes'));
    const shares = await rate(four);
    c.close();
    return { echoIdle: summarize(echoIdle), echoFlood: summarize(echoFlood), shares, alone: alone! };
  } finally {
    await srv.stop();
  }
}
