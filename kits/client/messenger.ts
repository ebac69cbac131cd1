// BMessenger: only an address (a pane, or a session) plus typed calls aimed at it.
import type { PaneRef, SessionRef } from '../protocol/ids';
import type { MethodName, ParamsIn, Result } from '../protocol/index';
import type { Connection } from './connection';

export interface Address {
  pane?: PaneRef;
  session?: SessionRef;
}

/** Sends requests to one pane or session; the address fills `pane` / `session`. */
export class Messenger {
  constructor(
    readonly connection: Connection,
    readonly address: Address,
  ) {}

  /** Calls `method` with the address merged under explicit params. */
  send<M extends MethodName>(method: M, params: Omit<ParamsIn<M>, 'pane' | 'session'> & Partial<Address> = {} as never): Promise<Result<M>> {
    return this.connection.call(method, { ...this.address, ...params } as unknown as ParamsIn<M>);
  }

  /** A messenger for another address on the same connection. */
  to(address: Address): Messenger {
    return new Messenger(this.connection, address);
  }
}
