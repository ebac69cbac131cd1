// What a second Node process costs on a request's or a keystroke's way, measured
// apart from everything pane does in one: the floor under the hosts rows (issue 35).
// Two stand-ins, each its own Node process on a unix socket, as a daemon is:
// - a byte relay in front of a daemon's socket (each connection piped to it, bytes
//   passed and nothing read): what a forwarding hop costs before any parse or check;
// - a PTY relay: a program in a node-pty PTY, its bytes passed to and from one socket
//   client: what any Node daemon between a keystroke and its echo costs here;
// and the same PTY relay in C (bench/c/ptyRelay.c, built with the system's cc), so the
// run itself says how much of that hop is Node's.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { root } from './procs';

/** Longest a stand-in may take to say it listens. */
const READY_MS = 10_000;

/** argv: FRONT BACK. Each connection to FRONT is piped to a new connection to BACK; "ready" on stdout once it listens. */
const BYTE_RELAY = `const net = require('node:net');
const [front, back] = process.argv.slice(1);
net.createServer((c) => {
  const u = net.connect(back);
  c.pipe(u);
  u.pipe(c);
  c.on('error', () => u.destroy());
  u.on('error', () => c.destroy());
}).listen(front, () => process.stdout.write('ready\\n'));`;

/** argv: SOCKET NODE_PTY SCRIPT. SCRIPT runs in a PTY (sh -c); its bytes go to and from each client of SOCKET; "ready" once it listens. */
const PTY_RELAY = `const net = require('node:net');
const fs = require('node:fs');
const [sock, ptyPath, script] = process.argv.slice(1);
const pty = require(ptyPath);
const p = pty.spawn('/bin/sh', ['-c', script], { cols: 80, rows: 24, env: process.env });
let client = null;
p.onData((d) => client?.write(d));
net.createServer((c) => {
  client = c;
  // Written straight to the master, as the daemon writes keys (server/pty/nodePtyPort.ts), not through
  // node-pty's write, which takes a trip through libuv's thread pool: the floor is Node's best.
  // A full terminal (EAGAIN) or a partial write leaves the rest to node-pty's own queue.
  const put = (d) => {
    let n = 0;
    try {
      if (typeof p._fd === 'number') n = fs.writeSync(p._fd, d);
    } catch {}
    if (n < d.length) p.write(d.subarray(n));
  };
  c.on('data', put);
  c.on('error', () => undefined);
}).listen(sock, () => process.stdout.write('ready\\n'));`;

export interface StandIn {
  proc: ChildProcess;
  stop(): void;
}

function start(source: string, args: string[]): Promise<StandIn> {
  return startProgram(process.execPath, ['-e', source, ...args]);
}

function startProgram(program: string, args: string[]): Promise<StandIn> {
  const proc = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err = (err + String(d)).slice(-2000)));
  const stop = () => void (proc.exitCode === null && proc.signalCode === null && proc.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => (stop(), reject(new Error(`bench: a stand-in (${path.basename(program)}) did not listen within ${READY_MS} ms: ${err.trim() || 'nothing said'}`))), READY_MS);
    proc.stdout!.once('data', () => (clearTimeout(t), resolve({ proc, stop })));
    // 'close', not 'exit': its stderr is read whole by then.
    proc.once('close', (code) => (clearTimeout(t), reject(new Error(`bench: a stand-in (${path.basename(program)}) ended (${code}): ${err.trim() || 'nothing said'}`))));
  });
}

/** A Node process passing bytes between `front` (a unix socket it makes) and `back` (a daemon's socket). */
export function byteRelay(front: string, back: string): Promise<StandIn> {
  return start(BYTE_RELAY, [front, back]);
}

/** A Node process running `script` in a node-pty PTY, relaying it to one client of `socket`; the client returned connected. */
export async function ptyRelay(socket: string, script: string): Promise<StandIn & { client: net.Socket }> {
  const ptyPath = createRequire(import.meta.url).resolve('@lydell/node-pty');
  return connected(await start(PTY_RELAY, [socket, ptyPath, script]), socket);
}

/** The C PTY relay's source, beside this file in the checkout. */
const C_PTY_RELAY = path.join(root, 'bench', 'c', 'ptyRelay.c');

/**
 * The same PTY relay in C, built into `dir` with the system's cc; the client returned connected.
 * A string saying why instead where there is no cc or the build fails (the row then says so).
 */
export async function cPtyRelay(dir: string, socket: string, script: string): Promise<(StandIn & { client: net.Socket }) | string> {
  const bin = path.join(dir, 'ptyRelay');
  if (!fs.existsSync(bin)) {
    const built = spawnSync('cc', ['-O2', '-o', bin, C_PTY_RELAY, '-lutil'], { encoding: 'utf8' });
    if (built.error) return `no C compiler (cc: ${(built.error as NodeJS.ErrnoException).code ?? built.error.message})`;
    if (built.status !== 0) return `cc could not build ${path.relative(root, C_PTY_RELAY)}: ${built.stderr.trim().slice(0, 200)}`;
  }
  return connected(await startProgram(bin, [socket, script]), socket);
}

async function connected(s: StandIn, socket: string): Promise<StandIn & { client: net.Socket }> {
  try {
    const client = net.connect(socket);
    await new Promise<void>((resolve, reject) => {
      client.once('connect', resolve);
      client.once('error', reject);
    });
    return { ...s, client };
  } catch (e) {
    s.stop();
    throw e;
  }
}
