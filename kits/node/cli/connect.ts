// The one way a CLI-side tool (pane, the namespace, agents) reaches a server with
// the kit's validating Connection: connect + hello, absence mapped to exit 3.
import { Connection } from '../../client/connection';
import type { Capability } from '../../protocol/method';
import { PROTOCOL_VERSION, type HelloParams } from '../../protocol/hello';
import { SocketTransport } from '../socketTransport';
import { NoServerError } from './errors';
import { HELLO_TIMEOUT_MS, openSocket } from './reach';

export { NoServerError } from './errors';

export interface ConnectCliOptions {
  /** Who is calling (default pane-cli / cli). */
  client?: HelloParams['client'];
  capabilities?: Capability[];
  token?: string;
  timeoutMs?: number;
}

/**
 * Connects to the pane server at `socketPath` and says hello.
 * Throws NoServerError (exit code 3 via exitCodeOf) when nothing answers there,
 * and the server's PaneFault when it refuses the handshake.
 */
export async function connectCli(socketPath: string, opts: ConnectCliOptions = {}): Promise<Connection> {
  const timeoutMs = opts.timeoutMs ?? HELLO_TIMEOUT_MS;
  const socket = await openSocket(socketPath, timeoutMs);
  const conn = new Connection(new SocketTransport(socket, 'unix'));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoServerError(socketPath, 'it did not answer hello in time')), timeoutMs);
  });
  const hello: HelloParams = {
    protocol: PROTOCOL_VERSION,
    client: opts.client ?? { name: 'pane-cli', kind: 'cli' },
    capabilities: opts.capabilities ?? ['read', 'write', 'attach', 'admin'],
  };
  if (opts.token !== undefined) hello.token = opts.token;
  try {
    await Promise.race([conn.hello(hello), late]);
    return conn;
  } catch (e) {
    const wasOpen = !conn.closed;
    conn.close();
    if (e instanceof NoServerError) throw e;
    if (!wasOpen && conn.welcome === undefined) throw new NoServerError(socketPath, 'it closed the connection before answering hello');
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
