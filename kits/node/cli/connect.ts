// The way a long-lived tool on the command line's side (the namespace mount, the
// MCP server, tests) reaches a server: reachServer with every result checked
// against its schema. Kept apart from reach.ts so one-shot commands never load zod.
import type { Connection } from '../../client/connection';
import { checkResults } from '../../client/checkResults';
import type { Endpoint } from '../../protocol/endpoint';
import { reachServer, type ReachOptions } from './reach';

export { NoServerError } from './errors';

export type ConnectCliOptions = Omit<ReachOptions, 'checkResult'>;

/**
 * Connects to the pane server at `where` (a socket path, or an Endpoint or its string
 * form) and says hello, checking results. Throws NoServerError (exit code 3 via
 * exitCodeOf) when nothing answers there, and the server's PaneFault when it refuses the handshake.
 */
export function connectCli(where: string | Endpoint, opts: ConnectCliOptions = {}): Promise<Connection> {
  return reachServer(where, { ...opts, checkResult: checkResults });
}
