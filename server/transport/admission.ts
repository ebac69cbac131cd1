// What a connection may cost before it has said hello, on every transport: a
// time limit and a byte limit, and how many connections each transport holds.
// A client that has not proven itself gets a few seconds and a few KiB, no more.
import type net from 'node:net';

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
 * Watches a raw socket until `helloed()` says yes: closes it when the hello does
 * not come within HELLO_TIMEOUT_MS or more than MAX_BYTES_BEFORE_HELLO arrive first.
 * Register after the transport's own data listener, so a hello in a chunk counts as said.
 */
export function guardUntilHello(raw: net.Socket, helloed: () => boolean, close: (reason: string) => void, o: { timeoutMs?: number; log?: (line: string) => void } = {}): void {
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
