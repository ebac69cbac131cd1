// What a connection may cost before it has said hello, on every transport: a
// time limit and a byte limit, how many connections each door holds (the person's
// socket and every agent's come in through admitStream), and how many refusal
// lines a door may log. A client that has not proven itself gets a few seconds and
// a few KiB, no more.
import { encodeFrame } from '../../kits/node/framing';
import type { StreamTransport } from '../../kits/node/streamTransport';

/**
 * Time from connect to a successful hello. Every pane client sends hello first
 * thing (the CLI, the renderer, FUSE, MCP all do it in one round trip); ten
 * seconds covers a loaded machine many times over, and a socket opened and left
 * silent is gone after it.
 */
export const HELLO_TIMEOUT_MS = 10_000;
/**
 * Bytes a connection may send before its hello succeeds. A hello is ~200 bytes;
 * without this a client could make the server assemble frames of up to the
 * 8 MiB wire limit on every connection without ever saying who it is.
 */
export const MAX_BYTES_BEFORE_HELLO = 64 << 10;
/**
 * Unix-socket connections at once. Each CLI call, `pane watch`, FUSE mount, MCP
 * server and agent hook is one; a busy desktop with many agents holds tens.
 * Past it, a new connection gets a `busy` error frame and is closed.
 */
export const MAX_UNIX_CONNECTIONS = 256;
/**
 * Connections at once on one agent's own socket (its home's pane.sock). An agent's
 * CLI, its FUSE mount, its MCP server and its hooks each hold one or a few; 32 is
 * several times a busy agent, and one agent filling its door leaves the others' alone.
 */
export const MAX_AGENT_SOCKET_CONNECTIONS = 32;
/**
 * Connections at once on all agents' sockets together: agents are many doors, and
 * without a total, N agents could hold N × MAX_AGENT_SOCKET_CONNECTIONS of the server.
 * The same as the person's socket holds.
 */
export const MAX_AGENT_CONNECTIONS = 256;

/**
 * Refusal lines one door may write to the logs in a second; past it they are
 * counted, and the count is said in one line before the door's next line. A page or a local process can make
 * a door refuse as fast as it connects: without this it could push every other line
 * out of /pane/log (which keeps the last LOG_KEEP bytes) and fill the daemon's log.
 */
export const MAX_REFUSAL_LINES_PER_SECOND = 20;

/** Wraps a door's log so that it writes at most MAX_REFUSAL_LINES_PER_SECOND lines a second. */
export function throttledLog(log: (line: string) => void): (line: string) => void {
  let second = 0;
  let written = 0;
  let dropped = 0;
  return (line) => {
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) {
      if (dropped > 0) log(`${dropped} more refusals in one second were not written (at most ${MAX_REFUSAL_LINES_PER_SECOND} a second)`);
      second = now;
      written = 0;
      dropped = 0;
    }
    if (written++ < MAX_REFUSAL_LINES_PER_SECOND) log(line);
    else dropped++;
  };
}

/** Open connections on one door (or on a set of doors together), refused past `limit`. */
export class ConnectionCap {
  open = 0;
  constructor(
    readonly limit: number,
    /** The door as a refusal names it: "the pane server's socket", "agent ada's socket". */
    readonly door: string,
  ) {}
}

/** What a stream door needs of the client it makes, to guard it until hello. */
export interface Admitted {
  readonly helloed: boolean;
  close(reason: string): void;
}

/**
 * What the guards need of a connection's byte stream, whatever carries it (a unix or
 * TLS socket, a child's stdout, the raw socket under a WebSocket): every Node stream has it.
 */
export interface GuardedStream {
  on(event: 'data', cb: (chunk: Buffer) => void): unknown;
  removeListener(event: 'data', cb: (chunk: Buffer) => void): unknown;
  once(event: 'close', cb: () => void): unknown;
  destroy(): unknown;
}

/**
 * Admits one stream connection (any transport from the stream adapter, kits/node/streamTransport.ts)
 * through `caps`: past any cap's limit it gets a `busy` error frame naming the door, the rule
 * and the fix, and is closed; otherwise it counts in every cap until it closes, `start` makes
 * its client, and the client is guarded until hello (time and bytes). Every stream door (the
 * person's socket, each agent's, a TLS listener) comes in here, so they hold the same rules.
 */
export function admitStream<C extends Admitted>(t: StreamTransport, caps: ConnectionCap[], start: (t: StreamTransport) => C, o: { timeoutMs?: number | undefined; log?: (line: string) => void } = {}): C | undefined {
  const { input, output } = t;
  input.on('error', () => undefined);
  output.on('error', () => undefined);
  const full = caps.find((c) => c.open >= c.limit);
  if (full) {
    const message = `${full.door}: ${full.limit} connections at once is the limit; close some pane clients and retry`;
    o.log?.(`refused a connection: ${message}`);
    const error = { code: 'busy', message };
    t.pauseReading();
    // Destroy only after the refusal has left (end's callback): a timer from the
    // write could drop the frame when a loaded loop has not flushed it yet.
    output.end(encodeFrame(JSON.stringify({ t: 'res', id: null, ok: false, error })), () =>
      setTimeout(() => {
        output.destroy();
        input.destroy();
      }, 200).unref(),
    );
    return undefined;
  }
  for (const c of caps) c.open++;
  t.onClose(() => {
    for (const c of caps) c.open--;
  });
  const conn = start(t);
  const log = o.log;
  guardUntilHello(input, () => conn.helloed, (why) => conn.close(why), { ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}), ...(log ? { log: (why: string) => log(`closed a connection before hello: ${why}`) } : {}) });
  return conn;
}

/**
 * Watches a raw stream until `helloed()` says yes: closes it when the hello does
 * not come within HELLO_TIMEOUT_MS or more than MAX_BYTES_BEFORE_HELLO arrive first.
 * Register after the transport's own data listener, so a hello in a chunk counts as said.
 */
export function guardUntilHello(raw: GuardedStream, helloed: () => boolean, close: (reason: string) => void, o: { timeoutMs?: number; log?: (line: string) => void } = {}): void {
  const timeoutMs = o.timeoutMs ?? HELLO_TIMEOUT_MS;
  let bytes = 0;
  const stop = () => {
    clearTimeout(timer);
    raw.removeListener('data', onData);
  };
  const refuse = (why: string) => {
    stop();
    o.log?.(why);
    close(why);
    setTimeout(() => raw.destroy(), 200).unref();
  };
  const onData = (chunk: Buffer) => {
    if (helloed()) return stop();
    bytes += chunk.byteLength;
    if (bytes > MAX_BYTES_BEFORE_HELLO) refuse(`${bytes} bytes before hello (limit ${MAX_BYTES_BEFORE_HELLO})`);
  };
  const timer = setTimeout(() => {
    if (helloed()) return stop();
    refuse(`no hello within ${timeoutMs} ms`);
  }, timeoutMs);
  timer.unref();
  raw.on('data', onData);
  raw.once('close', stop);
}

/** Why a WebSocket without the launch cookie or the secret is closed (the server and the window's bridge say it alike). */
export const NEEDS_SECRET = 'this WebSocket needs the launch cookie (open the URL pane printed) or the per-launch secret as the hello token';
