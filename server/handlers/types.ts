// The shape of a handler table: one file per message family maps method names
// to functions (acme's dispatch table, not a long switch), and the context each
// handler is handed: the state, the caller, the server's services and its dispatcher.
import type { MethodName, Params, ParamsIn, Result } from '../../kits/protocol/index';
import type { ClientConn } from '../transport/clientConn';
import type { PaneServer } from '../paneServer';
import type { Services } from '../services';

export interface HandlerContext {
  server: PaneServer;
  client: ClientConn;
  /** The services registered on this server (namespace, config, agents, awareness). */
  services: Services;
  /** Runs another request through this server's dispatcher, as the same client: the same validation, capability checks and typed errors. */
  dispatch<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>>;
  /**
   * Set on a pane/input that came as a binary INPUT frame (keystrokes), to the pane number
   * the frame named: nobody reads its answer, only a refusal (an error frame). Keys for a
   * remote pane may then go over the host link as a binary frame too (hostService.ts).
   */
  keys?: number;
}

export type HandlerFn<M extends MethodName> = (params: Params<M>, ctx: HandlerContext) => Result<M> | Promise<Result<M>>;

/** A family's table: any subset of methods, each fully typed from its name. */
export type HandlerTable = { [M in MethodName]?: HandlerFn<M> };
