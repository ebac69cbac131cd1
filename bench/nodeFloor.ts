// What a second Node process costs on a request's or a keystroke's way, measured
// apart from everything pane does in one: the floor under the hosts rows (issue 35).
// Two stand-ins, each its own Node process on a unix socket, as a daemon is:
// - a byte relay in front of a daemon's socket (each connection piped to it, bytes
//   passed and nothing read): what a forwarding hop costs before any parse or check;
// - a PTY relay: a program in a node-pty PTY, its bytes passed to and from one socket
//   client: what any Node daemon between a keystroke and its echo costs here.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';

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
const [sock, ptyPath, script] = process.argv.slice(1);
const pty = require(ptyPath);
const p = pty.spawn('/bin/sh', ['-c', script], { cols: 80, rows: 24, env: process.env });
let client = null;
p.onData((d) => client?.write(d));
net.createServer((c) => {
  client = c;
  c.on('data', (d) => p.write(d));
  c.on('error', () => undefined);
}).listen(sock, () => process.stdout.write('ready\\n'));`;

export interface StandIn {
  proc: ChildProcess;
  stop(): void;
}

function start(source: string, args: string[]): Promise<StandIn> {
  const proc = spawn(process.execPath, ['-e', source, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err = (err + String(d)).slice(-2000)));
  const stop = () => void (proc.exitCode === null && proc.signalCode === null && proc.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => (stop(), reject(new Error(`bench: a Node stand-in did not listen within ${READY_MS} ms: ${err.trim() || 'nothing said'}`))), READY_MS);
    proc.stdout!.once('data', () => (clearTimeout(t), resolve({ proc, stop })));
    // 'close', not 'exit': its stderr is read whole by then.
    proc.once('close', (code) => (clearTimeout(t), reject(new Error(`bench: a Node stand-in ended (${code}): ${err.trim() || 'nothing said'}`))));
  });
}

/** A Node process passing bytes between `front` (a unix socket it makes) and `back` (a daemon's socket). */
export function byteRelay(front: string, back: string): Promise<StandIn> {
  return start(BYTE_RELAY, [front, back]);
}

/** A Node process running `script` in a node-pty PTY, relaying it to one client of `socket`; the client returned connected. */
export async function ptyRelay(socket: string, script: string): Promise<StandIn & { client: net.Socket }> {
  const ptyPath = createRequire(import.meta.url).resolve('@lydell/node-pty');
  const s = await start(PTY_RELAY, [socket, ptyPath, script]);
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
