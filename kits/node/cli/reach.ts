// Reaching a pane server from the command line: open the unix socket, wrap it in
// the kit's Connection and say hello, turning every way of finding nobody there
// into NoServerError (exit 3). Zod-free: every one-shot command comes through here.
import net from 'node:net';
import { Connection, type ResultCheck } from '../../client/connection';
import type { HelloParams } from '../../protocol/hello';
import type { Capability } from '../../protocol/method';
import { SocketTransport } from '../socketTransport';
import { NoServerError } from './errors';

/** How long a server may take to accept and answer hello before we call it absent. */
export const HELLO_TIMEOUT_MS = 5_000;

/** Who the command line says it is, and what it may do (the server narrows it for an agent's token). */
export const CLI_CLIENT: HelloParams['client'] = { name: 'pane-cli', kind: 'cli' };
export const CLI_CAPABILITIES: Capability[] = ['read', 'write', 'attach', 'admin'];

/** OS errors that mean "no server listens at that path", with the words we show for them. */
const ABSENT: Record<string, string | undefined> = {
  ENOENT: undefined, // no such socket file: plainly no server
  ECONNREFUSED: 'a stale socket file; nothing listens on it',
  ENOTSOCK: 'the path is not a socket',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a parent of the path is not a directory',
  ENAMETOOLONG: 'the path is too long for a unix socket',
};

/** Opens a stream to the socket; rejects with NoServerError naming the path. */
export function openSocket(socketPath: string, timeoutMs = HELLO_TIMEOUT_MS): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.createConnection({ path: socketPath });
    const timer = setTimeout(() => {
      s.destroy();
      reject(new NoServerError(socketPath, 'it did not accept the connection in time'));
    }, timeoutMs);
    s.once('connect', () => {
      clearTimeout(timer);
      s.removeAllListeners('error');
      resolve(s);
    });
    s.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const code = e.code ?? '';
      reject(new NoServerError(socketPath, code in ABSENT ? ABSENT[code] : e.message));
    });
  });
}

export interface ReachOptions {
  /** Who is calling (default pane-cli / cli). */
  client?: HelloParams['client'];
  capabilities?: Capability[];
  /** An agent's $PANE_TOKEN, so the server acts as (and limits) that agent. */
  token?: string;
  timeoutMs?: number;
  /** Checks each result (kits/client/checkResults.ts); the one-shot CLI trusts them for display. */
  checkResult?: ResultCheck;
  /** A one-shot command drops the socket on close rather than waiting for the server's FIN. */
  dropOnClose?: boolean;
}

/**
 * Connects to the pane server at `socketPath` and says hello. Throws NoServerError
 * when nothing answers there, and the server's PaneFault when it refuses the handshake.
 */
export async function reachServer(socketPath: string, opts: ReachOptions = {}): Promise<Connection> {
  const timeoutMs = opts.timeoutMs ?? HELLO_TIMEOUT_MS;
  const socket = await openSocket(socketPath, timeoutMs);
  const conn = new Connection(new SocketTransport(socket, 'unix', { dropOnClose: opts.dropOnClose ?? false }), opts.checkResult ? { checkResult: opts.checkResult } : {});
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoServerError(socketPath, 'it did not answer hello in time')), timeoutMs);
  });
  const hello: Omit<HelloParams, 'protocol'> = { client: opts.client ?? CLI_CLIENT, capabilities: opts.capabilities ?? CLI_CAPABILITIES };
  if (opts.token !== undefined) hello.token = opts.token;
  try {
    await Promise.race([conn.hello(hello), late]);
    return conn;
  } catch (e) {
    const wasOpen = !conn.closed;
    conn.close();
    // A server that hangs up before answering is as good as absent; a typed refusal is not.
    if (e instanceof NoServerError) throw e;
    if (!wasOpen && conn.welcome === undefined) throw new NoServerError(socketPath, 'it closed the connection before answering hello');
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
