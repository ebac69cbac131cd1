// Protocol round trip: a cheap request answered by the server over its unix
// socket, 1 client and 50 at once, vs a bare newline-JSON echo server.
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { client, startServerProc } from './procs';
import { summarize, type Summary } from './stats';

const ECHO_SRC = `
const net = require('node:net');
const srv = net.createServer((s) => {
  let buf = '';
  s.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const m = JSON.parse(line);
      s.write(JSON.stringify({ id: m.id, ok: true, result: { sessions: [] } }) + '\\n');
    }
  });
});
srv.listen(process.argv[2], () => process.send('ready'));
`;

async function echoServer(dir: string): Promise<{ sock: string; proc: ChildProcess }> {
  const file = path.join(dir, 'echo.cjs');
  fs.writeFileSync(file, ECHO_SRC);
  const sock = path.join(dir, 'echo.sock');
  const proc = fork(file, [sock], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((r) => proc.once('message', r));
  return { sock, proc };
}

async function echoClient(sock: string) {
  const s = net.createConnection({ path: sock });
  await new Promise((r) => s.once('connect', r));
  s.setNoDelay(true);
  let buf = '';
  const waiters = new Map<number, () => void>();
  s.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const m = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      waiters.get(m.id)?.();
    }
  });
  let id = 0;
  return {
    call: () =>
      new Promise<void>((r) => {
        const my = ++id;
        waiters.set(my, () => {
          waiters.delete(my);
          r();
        });
        s.write(`${JSON.stringify({ t: 'req', id: my, method: 'session/list', params: {} })}\n`);
      }),
    close: () => s.destroy(),
  };
}

async function measure(clients: { call: () => Promise<unknown> }[], perClient: number): Promise<number[]> {
  const lat: number[] = [];
  await Promise.all(
    clients.map(async (c) => {
      for (let i = 0; i < perClient; i++) {
        const t0 = performance.now();
        await c.call();
        lat.push((performance.now() - t0) * 1000);
      }
    }),
  );
  return lat;
}

/** Blocks each figure's calls are made in, the pane server's and the echo server's in turn. */
const ROUNDTRIP_BLOCKS = 10;
/**
 * Calls each server answers (spread over the clients) before the figures are timed.
 * The daemon runs for days, and V8 optimises a request's path, the daemon's and
 * the client kit's, only after thousands of calls: session/list from a fresh client
 * to a fresh daemon took 155, 99, 80, then 76 µs (median) in successive blocks of
 * 3,000 and stayed at 75-76 for four more; a warmed client against a fresh daemon
 * 110, 72, 66. The ten-line echo server and its client are at their pace within
 * ~50 calls. Timed from the start, the figure was mostly the JIT's warm-up, not a
 * request's cost. Both servers get the same warm-up; each one's first 3,000 calls
 * after it started are kept as the cold row.
 */
export const ROUNDTRIP_WARM_CALLS = 6000;
/** Calls of a fresh server timed for the cold rows (one client). */
export const ROUNDTRIP_COLD_CALLS = 3000;

/**
 * Where the one-client figures run: this process (the client) and the server on one
 * core, or on one core each. Left to the kernel, a server stayed beside its client or
 * on the other core for the whole run, and here the two differ ~3× for either server
 * (23 µs against 70 at the median): one full run read 0.35× the echo server, the next
 * 3.3×, as the two servers happened to fall. Pinned, both servers are timed in the
 * same place, and both places are reported.
 */
export type Placement = 'one core' | 'two cores';
const PLACEMENTS: readonly Placement[] = ['one core', 'two cores'];

/** Sets every thread of `pid` to the CPUs `cpus` (taskset's list form, or a hex mask with `mask`); false where taskset is missing or refuses. */
function pin(pid: number, cpus: string, mask = false): boolean {
  const r = spawnSync('taskset', ['-a', '-p', ...(mask ? [] : ['-c']), cpus, String(pid)], { stdio: 'ignore' });
  return r.status === 0;
}

/** This process's affinity mask now (hex, as taskset prints it), or null without taskset. */
function maskOf(pid: number): string | null {
  const r = spawnSync('taskset', ['-p', String(pid)], { encoding: 'utf8' });
  return r.status === 0 ? (/mask:\s*([0-9a-f]+)/i.exec(r.stdout)?.[1] ?? null) : null;
}

export interface RoundTripResult {
  clients: number;
  /** One client: where it and the servers ran; absent when nothing could be pinned (one core, no taskset) or for 50 clients (left to the kernel). */
  placement?: Placement;
  pane: Summary;
  echo: Summary;
  /** One client only: each server's first ROUNDTRIP_COLD_CALLS calls after it started. */
  cold?: { pane: Summary; echo: Summary };
}

export async function roundtrip(dir: string): Promise<RoundTripResult[]> {
  const srv = await startServerProc(dir);
  const echo = await echoServer(dir);
  const out: RoundTripResult[] = [];
  const own = maskOf(process.pid);
  try {
    for (const [n, per] of [
      [1, 3000],
      [50, 100],
    ] as const) {
      const pcs = await Promise.all(Array.from({ length: n }, () => client(srv.socket)));
      const ecs = await Promise.all(Array.from({ length: n }, () => echoClient(echo.sock)));
      const paneCalls = pcs.map((c) => ({ call: () => c.call('session/list', {}) }));
      const warmPer = Math.ceil(ROUNDTRIP_WARM_CALLS / n);
      const paneWarm = await measure(paneCalls, warmPer);
      const echoWarm = await measure(ecs, warmPer);
      // The servers are fresh for the first figure only (one client): its warm-up's first calls are the cold rows.
      const cold = n === 1 ? { pane: summarize(paneWarm.slice(0, ROUNDTRIP_COLD_CALLS)), echo: summarize(echoWarm.slice(0, ROUNDTRIP_COLD_CALLS)) } : undefined;
      // In alternating blocks, so a spell of load on the machine falls on both alike (one run of each in turn moved the ratio 0.9-2×).
      const timed = async (): Promise<{ pane: Summary; echo: Summary }> => {
        const p: number[] = [];
        const e: number[] = [];
        for (let b = 0; b < ROUNDTRIP_BLOCKS; b++) {
          p.push(...(await measure(paneCalls, per / ROUNDTRIP_BLOCKS)));
          e.push(...(await measure(ecs, per / ROUNDTRIP_BLOCKS)));
        }
        return { pane: summarize(p), echo: summarize(e) };
      };
      // One client is timed in each place (see Placement) where this machine lets it be pinned; 50 clients, and a machine
      // without taskset or a second core, are left to the kernel. A place that cannot be pinned ends the pinned rows.
      const pinnable = n === 1 && own !== null && os.availableParallelism() >= 2;
      let pinnedRows = 0;
      if (pinnable) {
        for (const placement of PLACEMENTS) {
          const server = placement === 'one core' ? '0' : '1';
          if (!pin(process.pid, '0') || !pin(srv.proc.pid!, server) || !pin(echo.proc.pid!, server)) break;
          out.push({ clients: n, placement, ...(await timed()), ...(cold && pinnedRows === 0 ? { cold } : {}) });
          pinnedRows++;
        }
        for (const pid of [process.pid, srv.proc.pid!, echo.proc.pid!]) pin(pid, own, true);
      }
      if (pinnedRows === 0) out.push({ clients: n, ...(await timed()), ...(cold ? { cold } : {}) });
      for (const c of pcs) c.close();
      for (const c of ecs) c.close();
    }
  } finally {
    if (own !== null) pin(process.pid, own, true);
    echo.proc.kill();
    await srv.stop();
  }
  return out;
}
