// Events by name: a Connection's `events` table. A callback is registered per
// event kind and called with the payload and its rev; events nobody asked for are
// dropped (a client subscribes to families, so it may see kinds it ignores).
import type { EventData, EventName } from '../protocol/events';

export type EventCallback<E extends EventName> = (data: EventData<E>, rev: number) => void;

/** Dispatches events to the callbacks registered for their name. */
export class Handler {
  private readonly table = new Map<string, ((data: unknown, rev: number) => void)[]>();

  /** Handles one event kind; returns a function that removes the callback. */
  on<E extends EventName>(event: E, cb: EventCallback<E>): () => void {
    const list = this.table.get(event) ?? [];
    list.push(cb as (data: unknown, rev: number) => void);
    this.table.set(event, list);
    return () => {
      const l = this.table.get(event);
      if (l) this.table.set(event, l.filter((f) => f !== cb));
    };
  }

  /** Returns true when some callback took the event. */
  dispatch(event: string, data: unknown, rev: number): boolean {
    const list = this.table.get(event);
    if (!list || list.length === 0) return false;
    for (const cb of list) cb(data, rev);
    return true;
  }
}
