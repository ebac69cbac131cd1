// Reaching a pane server from the command line: dial its endpoint (a socket path,
// $PANE_SOCKET, or any Endpoint string: exec:…, tls://…), wrap it in the kit's
// Connection and say hello, turning every way of finding nobody there into
// NoServerError (exit 3). Zod-free: every one-shot command comes through here.
import { Connection, type ResultCheck } from '../../client/connection';
import type { Transport } from '../../client/transport';
import type { Endpoint } from '../../protocol/endpoint';
import { describeEndpoint, parseEndpoint } from '../../protocol/endpointForm';
import type { HelloParams } from '../../protocol/hello';
import type { Capability } from '../../protocol/method';
import { dial, DialError } from '../endpoint';
import { paneVersion } from '../version';
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

/** Opens a transport to the endpoint; rejects with NoServerError naming it and why. */
export async function openEndpoint(where: string | Endpoint, timeoutMs = HELLO_TIMEOUT_MS, dropOnClose = false): Promise<Transport> {
  const endpoint = typeof where === 'string' ? parseEndpoint(where) : where;
  try {
    return await dial(endpoint, { timeoutMs, dropOnClose });
  } catch (e) {
    if (!(e instanceof DialError)) throw e;
    const code = e.code ?? '';
    const local = endpoint.kind === 'unix' || endpoint.kind === 'agent';
    throw new NoServerError(describeEndpoint(endpoint), local && code in ABSENT ? ABSENT[code] : e.reason);
  }
}

export interface ReachOptions {
  /** Who is calling (default pane-cli / cli). */
  client?: HelloParams['client'];
  capabilities?: Capability[];
  /** An agent's $PANE_TOKEN, so the server acts as (and limits) that agent. */
  token?: string;
  /** An attach grant's token ($PANE_GRANT): the server takes this client as that grant's guest. */
  grant?: string;
  timeoutMs?: number;
  /** Checks each result (kits/client/checkResults.ts); the one-shot CLI trusts them for display. */
  checkResult?: ResultCheck;
  /** A one-shot command drops the socket on close rather than waiting for the server's FIN. */
  dropOnClose?: boolean;
}

/**
 * Connects to the pane server at `where` (a socket path, or an Endpoint or its string
 * form) and says hello. Throws NoServerError when nothing answers there, and the
 * server's PaneFault when it refuses the handshake.
 */
export async function reachServer(where: string | Endpoint, opts: ReachOptions = {}): Promise<Connection> {
  const timeoutMs = opts.timeoutMs ?? HELLO_TIMEOUT_MS;
  const endpoint = typeof where === 'string' ? parseEndpoint(where) : where;
  const socketPath = describeEndpoint(endpoint);
  const transport = await openEndpoint(endpoint, timeoutMs, opts.dropOnClose ?? false);
  const conn = new Connection(transport, opts.checkResult ? { checkResult: opts.checkResult } : {});
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoServerError(socketPath, 'it did not answer hello in time')), timeoutMs);
  });
  const hello: Omit<HelloParams, 'protocol'> = { client: { version: paneVersion(), ...(opts.client ?? CLI_CLIENT) }, capabilities: opts.capabilities ?? CLI_CAPABILITIES };
  if (opts.token !== undefined) hello.token = opts.token;
  if (opts.grant !== undefined) hello.grant = opts.grant;
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
