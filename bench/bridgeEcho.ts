// What the window's bridge costs a keystroke's echo. Default `npm start` puts a
// bridge process (electron/bridge.ts, in dist/start.mjs) between the page's
// WebSocket and the daemon's unix socket; here one real bridge (`pane start
// --attach SOCKET --serve`) relays a WebSocket client, a second WebSocket client
// talks to the same daemon's own HTTP front (`pane serve --http`: the path
// without the bridge), and a third its unix socket. Their echoes of one byte,
// each into its own `cat`, take turns in the same run. The page's own cost
// (xterm, React) is in none of them.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { Connection } from '../kits/client/connection';
// The server's wrapper of a Node `ws` socket serves the client end as well: it knows no side.
import { ServerWsTransport } from '../server/transport/wsServer';
import { client, isolatedEnv, root, sleep, startServerProc } from './procs';
import { summarize, type Summary } from './stats';

export interface BridgeEchoResult {
  /** WebSocket → bridge → the daemon's unix socket, as the default `npm start` runs. */
  bridged: Summary;
  /** WebSocket straight to the daemon's own HTTP front: the same client without the bridge. */
  ws: Summary;
  /** The daemon's unix socket, as the CLI talks. */
  unix: Summary;
}

/** Echoes measured each way; the ways take turns, so load on the machine falls on all alike. */
const ECHOES = 300;
/** How long one echo may take before the bench gives up on it. */
const ECHO_DEADLINE_MS = 10_000;
/** How long the bridge may take to say where it serves. */
const BRIDGE_START_MS = 15_000;

/** Starts a bridge to `socket` as `npm start` runs one, and waits for its launch URL. */
async function startBridgeProc(dir: string, socket: string): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, [path.join(root, 'dist', 'start.mjs'), '--attach', socket, '--serve'], { stdio: ['ignore', 'pipe', 'pipe'], env: isolatedEnv(dir) });
  let out = '';
  proc.stderr!.on('data', (d) => (out += String(d)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench bridge: no URL within ${BRIDGE_START_MS} ms: ${out}`)), BRIDGE_START_MS);
    proc.stdout!.on('data', (d) => {
      out += String(d);
      const m = /serving the window at (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.once('exit', (code) => reject(new Error(`bench bridge exited (${code}): ${out}`)));
  });
  return { proc, url };
}

/** Opens a launch URL as a browser would (spending its token for the cookie), then the WebSocket with that cookie. */
async function wsClient(url: string, name: string): Promise<Connection> {
  const origin = new URL(url).origin;
  const res = await fetch(url, { redirect: 'manual' });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error(`bench bridge: the launch URL gave no cookie (${res.status})`);
  const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/ws`, { headers: { cookie, origin } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const c = new Connection(new ServerWsTransport(ws));
  await c.hello({ client: { name, kind: 'bench' }, capabilities: ['read', 'write', 'attach'] });
  return c;
}

/** Counts the bytes each connection receives from `pane`, acking them so flow control never holds the pane. */
async function watch(c: Connection, pane: number): Promise<() => number> {
  let got = 0;
  c.onOutput((p, _off, data) => {
    if (p !== pane) return;
    got += data.byteLength;
    c.notify('pty/ack', { pane: p, bytes: data.byteLength });
  });
  await c.call('pty/attach', { pane, mode: 'from', from: 0, flowControl: true });
  return () => got;
}

const enc = new TextEncoder();

/** One echo: a byte into `cat`, ms until it comes back on this connection. */
async function echoOnce(c: Connection, pane: number, got: () => number): Promise<number> {
  const want = got() + 1;
  const t0 = performance.now();
  c.sendInput(pane, enc.encode('x'));
  while (got() < want) {
    if (performance.now() - t0 > ECHO_DEADLINE_MS) throw new Error('bench bridge: no echo');
    await new Promise((r) => setImmediate(r));
  }
  return performance.now() - t0;
}

export async function bridgeEcho(dir: string): Promise<BridgeEchoResult> {
  fs.mkdirSync(dir, { recursive: true });
  // The daemon also serves its own WebSocket, for the path without the bridge.
  const srv = await startServerProc(dir, ['--http', '0']);
  let bridge: ChildProcess | undefined;
  try {
    const unix = await client(srv.socket, 'bench-unix');
    // One `cat` per client, each attached by its client alone, in raw mode without the
    // tty's echo: every byte sent comes back once, and no echo of one client's key can
    // arrive while another is timing its own.
    const CAT = { program: '/bin/sh', args: ['-c', 'stty raw -echo; exec cat'] };
    await unix.call('session/new', { name: 'bridge', launch: CAT });
    const panes = [(await unix.call('pane/list', {})).panes[0]!.n];
    for (let i = 0; i < 2; i++) panes.push((await unix.call('pane/launch', { launch: CAT })).pane);
    const b = await startBridgeProc(dir, srv.socket);
    bridge = b.proc;
    const bridged = await wsClient(b.url, 'bench-bridged');
    const ws = await wsClient((await unix.call('server/launch-url', {})).url, 'bench-ws');
    const ways = [
      { c: bridged, pane: panes[0]!, lat: [] as number[] },
      { c: ws, pane: panes[1]!, lat: [] as number[] },
      { c: unix, pane: panes[2]!, lat: [] as number[] },
    ].map((w) => ({ ...w, got: (): number => 0 }));
    for (const w of ways) w.got = await watch(w.c, w.pane);
    await sleep(300);
    for (let i = 0; i < ECHOES; i++) {
      // Each way goes first in turn, so none always follows another's echo.
      for (let k = 0; k < ways.length; k++) {
        const w = ways[(i + k) % ways.length]!;
        w.lat.push(await echoOnce(w.c, w.pane, w.got));
      }
      await sleep(5 + Math.random() * 5);
    }
    for (const w of ways) w.c.close();
    return { bridged: summarize(ways[0]!.lat), ws: summarize(ways[1]!.lat), unix: summarize(ways[2]!.lat) };
  } finally {
    if (bridge && bridge.exitCode === null) {
      const gone = new Promise((r) => bridge!.once('exit', r));
      bridge.kill('SIGTERM');
      await Promise.race([gone, sleep(3000)]);
    }
    await srv.stop();
  }
}
