// `pane serve --stdio`: the protocol on stdin/stdout, for a client that reached this
// machine by ssh, `docker exec -i`, `kubectl exec -i` or any command. It is no second
// server: it attaches to the user's daemon on its socket (starting it if none runs, as
// the window does, so panes outlive the connection), writes the stdio preamble
// (kits/protocol/stdio.ts) and relays bytes both ways. Its authority is the OS account
// that runs it, the same as any local process's on the daemon's socket.
import fs from 'node:fs';
import net from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { encodeFrame, MAX_STREAM_FRAME } from '../kits/node/framing';
import { paneVersion } from '../kits/node/version';
import { stdioFramingRefusal, stdioPreamble } from '../kits/protocol/stdio';
import type { PipeIdentity } from '../kits/protocol/stdioAdopt';
import { Connection } from '../kits/client/connection';
import { connectUnix } from '../kits/node/socketTransport';
import { ensureDaemon } from './daemonStart';

export interface StdioServeOptions {
  socketPath: string;
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  /** Attach only; do not start a daemon when none answers (tests of the refusal). */
  noStart?: boolean;
}

/**
 * Watches the length prefixes of a framed byte stream without copying it, so the relay
 * refuses a frame over MAX_STREAM_FRAME itself, with a message, before the daemon sees
 * it (the daemon refuses one too, but only by closing).
 */
export class FrameLengthWatch {
  /** Bytes left of the frame being passed, after its prefix. */
  private left = 0;
  private head = Buffer.alloc(4);
  private have = 0;

  /** The length of the first frame over the bound in `chunk`, or null. */
  check(chunk: Buffer): number | null {
    let at = 0;
    while (at < chunk.byteLength) {
      if (this.left > 0) {
        const n = Math.min(this.left, chunk.byteLength - at);
        this.left -= n;
        at += n;
        continue;
      }
      const n = Math.min(4 - this.have, chunk.byteLength - at);
      chunk.copy(this.head, this.have, at, at + n);
      this.have += n;
      at += n;
      if (this.have < 4) break;
      this.have = 0;
      const len = this.head.readUInt32BE(0);
      if (len < 1 || len > MAX_STREAM_FRAME) return len;
      this.left = len;
    }
    return null;
  }
}

/** This process's stdin and stdout as fstat names them, when both are pipes (the only kind the daemon takes over). */
function ownPipes(): { stdin: PipeIdentity; stdout: PipeIdentity } | null {
  try {
    const [i, o] = [fs.fstatSync(0, { bigint: true }), fs.fstatSync(1, { bigint: true })];
    if (!i.isFIFO() || !o.isFIFO()) return null;
    return { stdin: { dev: String(i.dev), ino: String(i.ino) }, stdout: { dev: String(o.dev), ino: String(o.ino) } };
  } catch {
    return null;
  }
}

/**
 * Asks the daemon to take this process's stdio pipes over (stdio/adopt). When it did,
 * resolves with the exit code once that session ends (the daemon closes this
 * connection then); otherwise with why not, and nothing was read from stdin, so the
 * relay can start from the first byte.
 */
async function handOver(socketPath: string, pipes: { stdin: PipeIdentity; stdout: PipeIdentity }, preamble: () => void): Promise<number | string> {
  let conn: Connection;
  try {
    conn = new Connection(await connectUnix(socketPath));
  } catch (e) {
    return (e as Error).message;
  }
  try {
    await conn.hello({ client: { name: 'pane serve --stdio', kind: 'other', version: paneVersion() }, capabilities: ['admin'] });
    // Before the daemon reads stdin: the client sends nothing until it has seen this line.
    preamble();
    const done = new Promise<number>((resolve) => conn.onClose(() => resolve(0)));
    await conn.call('stdio/adopt', { pid: process.pid, ...pipes });
    return await done;
  } catch (e) {
    conn.close();
    return (e as Error).message;
  }
}

/** Runs the relay until either side ends; resolves with the exit code. */
export async function serveStdio(o: StdioServeOptions): Promise<number> {
  const stdin = o.stdin ?? process.stdin;
  const stdout = o.stdout ?? process.stdout;
  const stderr = o.stderr ?? process.stderr;
  const say = (s: string) => stderr.write(`pane serve --stdio: ${s}\n`);
  try {
    if (!o.noStart) await ensureDaemon(o.socketPath);
  } catch (e) {
    say(`no pane daemon: ${(e as Error).message}`);
    return 1;
  }
  let preambled = false;
  const preamble = () => {
    if (!preambled) stdout.write(stdioPreamble(paneVersion()));
    preambled = true;
  };
  // Our own stdio, when both are pipes (sshd's, docker exec's): the daemon takes them over and this process only waits.
  const pipes = o.stdin === undefined && o.stdout === undefined ? ownPipes() : null;
  if (pipes) {
    const adopted = await handOver(o.socketPath, pipes, preamble);
    if (typeof adopted === 'number') return adopted;
  }
  const sock = await new Promise<net.Socket | Error>((resolve) => {
    const s = net.createConnection({ path: o.socketPath });
    s.once('connect', () => {
      s.removeAllListeners('error');
      resolve(s);
    });
    s.once('error', (e) => resolve(e));
  });
  if (sock instanceof Error) {
    say(`cannot reach the pane daemon at ${o.socketPath}: ${sock.message}`);
    return 1;
  }
  preamble();
  return new Promise<number>((resolve) => {
    let code = 0;
    const watch = new FrameLengthWatch();
    const finish = () => resolve(code);
    sock.on('error', (e) => say(`the daemon's socket: ${e.message}`));
    stdout.on('error', () => sock.destroy());
    // Daemon → client: as it comes; the client's reading paces the daemon through the socket's backpressure.
    sock.pipe(stdout, { end: false });
    stdin.on('data', (chunk: Buffer) => {
      const bad = watch.check(chunk);
      if (bad !== null) {
        const message = stdioFramingRefusal(`a frame of ${bad} bytes is over the ${MAX_STREAM_FRAME}-byte limit (MAX_STREAM_FRAME)`);
        say(message);
        stdout.write(encodeFrame(JSON.stringify({ t: 'res', id: null, ok: false, error: { code: 'too-large', message } })));
        code = 1;
        stdin.pause();
        // The daemon sees the same length and cuts the connection off itself, in /pane/log.
        const head = Buffer.alloc(4);
        head.writeUInt32BE(bad >>> 0);
        sock.end(head);
        setTimeout(() => sock.destroy(), 1000).unref();
        return;
      }
      if (!sock.write(chunk)) {
        stdin.pause();
        sock.once('drain', () => stdin.resume());
      }
    });
    stdin.once('end', () => sock.end());
    stdin.once('error', () => sock.destroy());
    sock.once('close', () => {
      stdin.pause();
      if (stdout === process.stdout) stdout.write('', finish);
      else stdout.end(finish);
    });
  });
}
