// Haiku's BHandler, for events: a handler takes the kinds it knows and passes
// the rest to the next one; the last in the chain reports "not understood".
import type { EventData, EventName } from '../protocol/events';

export type EventCallback<E extends EventName> = (data: EventData<E>, rev: number) => void;

/** Dispatches events by name; chain handlers with `setNext`. */
export class Handler {
  private readonly table = new Map<string, ((data: unknown, rev: number) => void)[]>();
  private next: Handler | undefined;
  private notUnderstood: ((event: string) => void) | undefined;

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

  setNext(next: Handler | undefined): void {
    this.next = next;
  }

  /** Called for events no handler in the chain takes. */
  onNotUnderstood(cb: (event: string) => void): void {
    this.notUnderstood = cb;
  }

  /** Returns true when some handler in the chain took the event. */
  dispatch(event: string, data: unknown, rev: number): boolean {
    const list = this.table.get(event);
    if (list && list.length > 0) {
      for (const cb of list) cb(data, rev);
      return true;
    }
    if (this.next) return this.next.dispatch(event, data, rev);
    this.notUnderstood?.(event);
    return false;
  }
}
