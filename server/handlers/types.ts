// The shape of a handler table: one file per message family maps method names
// to functions (acme's dispatch table, not a long switch).
import type { MethodName, Params, Result } from '../../kits/protocol/index';
import type { ClientConn } from '../transport/clientConn';
import type { PaneServer } from '../paneServer';

export interface HandlerContext {
  server: PaneServer;
  client: ClientConn;
}

export type HandlerFn<M extends MethodName> = (params: Params<M>, ctx: HandlerContext) => Result<M> | Promise<Result<M>>;

/** A family's table: any subset of methods, each fully typed from its name. */
export type HandlerTable = { [M in MethodName]?: HandlerFn<M> };
