// Protocol round trip: a cheap request answered by the server over its unix
// socket, 1 client and 50 at once, vs a bare newline-JSON echo server.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
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

export interface RoundTripResult {
  clients: number;
  pane: Summary;
  echo: Summary;
}

export async function roundtrip(dir: string): Promise<RoundTripResult[]> {
  const srv = await startServerProc(dir);
  const echo = await echoServer(dir);
  const out: RoundTripResult[] = [];
  try {
    for (const [n, per] of [
      [1, 3000],
      [50, 100],
    ] as const) {
      const pcs = await Promise.all(Array.from({ length: n }, () => client(srv.socket)));
      const ecs = await Promise.all(Array.from({ length: n }, () => echoClient(echo.sock)));
      const paneCalls = pcs.map((c) => ({ call: () => c.call('session/list', {}) }));
      await measure(paneCalls, 50); // warm up both
      await measure(ecs, 50);
      // In alternating blocks, so a spell of load on the machine falls on both alike (one run of each in turn moved the ratio 0.9-2×).
      const p: number[] = [];
      const e: number[] = [];
      for (let b = 0; b < ROUNDTRIP_BLOCKS; b++) {
        p.push(...(await measure(paneCalls, per / ROUNDTRIP_BLOCKS)));
        e.push(...(await measure(ecs, per / ROUNDTRIP_BLOCKS)));
      }
      out.push({ clients: n, pane: summarize(p), echo: summarize(e) });
      for (const c of pcs) c.close();
      for (const c of ecs) c.close();
    }
  } finally {
    echo.proc.kill();
    await srv.stop();
  }
  return out;
}
