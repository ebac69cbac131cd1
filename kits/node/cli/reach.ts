// Reaching a pane server from the command line: open the unix socket and say
// hello, turning every way of finding nobody there into NoServerError (exit 3).
import net from 'node:net';
import { NoServerError } from './errors';
import { WireClient } from './wire';

/** How long a server may take to accept and answer hello before we call it absent. */
export const HELLO_TIMEOUT_MS = 5_000;

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

/** Connects the CLI's lean client and completes the handshake. */
export async function connectWire(socketPath: string, timeoutMs = HELLO_TIMEOUT_MS, token?: string): Promise<WireClient> {
  const socket = await openSocket(socketPath, timeoutMs);
  const client = new WireClient(socket);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoServerError(socketPath, 'it did not answer hello in time')), timeoutMs);
  });
  try {
    await Promise.race([client.hello(token), late]);
    return client;
  } catch (e) {
    client.close();
    // A server that hangs up before answering is as good as absent; a typed refusal is not.
    if (e instanceof NoServerError) throw e;
    if (client.welcome === undefined && (e as { code?: string }).code === 'failed' && client.closed) {
      throw new NoServerError(socketPath, 'it closed the connection before answering hello');
    }
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
