// The transport side's registry of connected clients: it subscribes to the
// model's bus and puts each event on the wire of every client that asked for
// its family, names a stream sink's holder for the model's refusals, and closes
// every connection when the server stops. The model never sees a connection.
import { PRIVATE_EVENTS } from '../../kits/protocol/authority';
import { guestHears } from '../grants/scope';
import { principalKey, principalLabel } from '../../kits/protocol/principal';
import { stoppedFault } from '../../kits/protocol/fault';
import { eventFamily } from '../../kits/protocol/events';
import { eventFrame } from '../../kits/protocol/frameSize';
import type { PaneServer } from '../paneServer';
import type { ClientConn } from './clientConn';

/** What the registry needs of the state owner: its bus, the naming of a sink's holder, and its stop. */
export type ConnectionsHost = Pick<PaneServer, 'bus' | 'describeSink' | 'onDisconnect' | 'onStopped' | 'panes'>;

export class Connections implements Iterable<ClientConn> {
  private readonly set = new Set<ClientConn>();

  constructor(private readonly server: ConnectionsHost) {
    server.bus.subscribe((event, data, rev) => this.deliver(event, data, rev), { wire: true });
    server.describeSink = (sinkId) => {
      const c = this.find((x) => x.sink.id === sinkId);
      return c && `client ${c.name}`;
    };
    server.onDisconnect(() => {
      // A stop a client asked for is said to every other client before its connection closes: it is for good.
      // Who asked is named to the person's and agents' connections; a grant's guest, a joined host's link and a
      // connection that has not said hello (not yet known as anyone), told nothing else of who uses this server,
      // hear only that it was stopped.
      const named = this.stopAsker && stoppedFault(principalLabel(this.stopAsker.principal));
      const unnamed = stoppedFault();
      for (const c of [...this.set]) {
        if (this.waitingForStop.has(c)) continue;
        if (!named) c.close('server stopping');
        else c.closeSaying(c.helloed && (c.principal.kind === 'person' || c.principal.kind === 'agent') ? named : unnamed);
      }
    });
    server.onStopped(() => this.closeAll('server stopped'));
  }

  /**
   * Connections that asked for the stop: they stay open while the programs end and the
   * last snapshot is written, and close once all of that is done, so `pane stop`
   * returns when the daemon has really stopped.
   */
  private readonly waitingForStop = new Set<ClientConn>();

  /** Who asked for the stop first (server/stop): named to every other client as the server stops. */
  private stopAsker: ClientConn | undefined;

  /** A client asked for the stop (server/stop): its connection is held until the stop is done, and it is named as the one who stopped the server. */
  holdUntilStopped(c: ClientConn): void {
    this.waitingForStop.add(c);
    this.stopAsker ??= c;
  }

  add(c: ClientConn): void {
    this.set.add(c);
  }

  /** Forgets a connection; false when it was not (or no longer) registered. */
  delete(c: ClientConn): boolean {
    return this.set.delete(c);
  }

  has(c: ClientConn): boolean {
    return this.set.has(c);
  }

  get size(): number {
    return this.set.size;
  }

  [Symbol.iterator](): Iterator<ClientConn> {
    return this.set[Symbol.iterator]();
  }

  find(pred: (c: ClientConn) => boolean): ClientConn | undefined {
    for (const c of this.set) if (pred(c)) return c;
    return undefined;
  }

  closeAll(reason: string): void {
    for (const c of [...this.set]) c.close(reason);
  }

  /**
   * One event to every client subscribed to its family. The frame is built once,
   * on the first client that wants it, and the same string goes to every other:
   * a flood of events is not stringified once per client.
   */
  private deliver(event: string, data: unknown, rev: number): void {
    const fam = eventFamily(event);
    let frame: string | undefined;
    const priv = PRIVATE_EVENTS.has(event);
    for (const c of this.set) {
      if (!c.wantsEvent(fam)) continue;
      if (priv && (c.readOnly || c.principal.kind === 'grant')) continue; // the principal table: a read-only client or a grant's guest sees no mail or messages
      if (c.principal.kind === 'grant' && !guestHears(this.server, c.principal.session, event, data)) continue; // a guest hears of its session alone
      if (event === 'grant/changed' && c.principal.kind === 'agent' && (data as { by?: string }).by !== principalKey(c.principal)) continue; // an agent hears of the grants it issued alone
      frame ??= eventFrame(event, data, rev);
      c.sendRaw(frame);
    }
  }
}
