// The model's event bus: every change is published here once, stamped with the
// next rev, and handed to whoever subscribed. The model knows no channel; the
// transport side (server/transport/connections.ts) subscribes and frames events
// for its connections, and in-process observers (namespace, agents, awareness,
// persistence) subscribe beside it.
import type { EventData, EventName } from '../../kits/protocol/events';

/** One subscriber: the event's name, its data and the rev it was stamped with. */
export type BusListener = (event: string, data: unknown, rev: number) => void;

export class EventBus {
  /** The rev of the last event published (0 before any). */
  rev = 0;
  private wire: BusListener[] = [];
  private observers: BusListener[] = [];

  /** Stamps the event with the next rev and hands it to every subscriber, wire subscribers first; returns that rev. */
  publish<E extends EventName>(event: E, data: EventData<E>): number {
    const rev = ++this.rev;
    for (const l of this.wire) l(event, data as unknown, rev);
    for (const l of this.observers) l(event, data as unknown, rev);
    return rev;
  }

  /**
   * Calls cb with every event from now on; returns its unsubscribe. A `wire`
   * subscriber (the connections that put events on the wire) is called before
   * every observer, so an observer that publishes in answer to an event cannot
   * put its own (later-rev) event on the wire ahead of the one it answers.
   */
  subscribe(cb: BusListener, o: { wire?: boolean } = {}): () => void {
    if (o.wire) this.wire = [...this.wire, cb];
    else this.observers = [...this.observers, cb];
    return () => {
      this.wire = this.wire.filter((f) => f !== cb);
      this.observers = this.observers.filter((f) => f !== cb);
    };
  }
}
