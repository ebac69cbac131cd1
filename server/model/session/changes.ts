// What a session operation tells its caller to publish: existing protocol events
// (kits/protocol/events.ts), derived by comparing the session before and after
// the operation, so no caller decides for itself which event a change needs.
import type { EventData } from '../../../kits/protocol/events';
import type { Session } from '../../../kits/protocol/model';

type Ev<E extends 'layout/changed' | 'focus/changed' | 'session/created' | 'session/renamed' | 'session/closed'> = { event: E; data: EventData<E> };
/** An event a session operation returns; `publish` (./publish.ts) sends it on the server's bus. */
export type SessionEvent = Ev<'layout/changed'> | Ev<'focus/changed'> | Ev<'session/created'> | Ev<'session/renamed'> | Ev<'session/closed'>;

export const layoutEvent = (s: Session): SessionEvent => ({ event: 'layout/changed', data: { session: s } });
export const focusEvent = (s: Session): SessionEvent => ({ event: 'focus/changed', data: { session: s.id, focused: s.focused, zoomed: s.zoomed } });
export const createdEvent = (s: Session): SessionEvent => ({ event: 'session/created', data: { session: s } });

/**
 * The session fields an operation may replace. Operations never mutate a tree,
 * array or viewport in place (kits/layout is pure), so identity tells what changed.
 */
export interface Mark {
  layout: Session['layout'];
  floating: Session['floating'];
  zoomed: Session['zoomed'];
  focused: Session['focused'];
  viewport: Session['viewport'];
}

export function mark(s: Session): Mark {
  return { layout: s.layout, floating: s.floating, zoomed: s.zoomed, focused: s.focused, viewport: s.viewport };
}

/** The events a change since `m` needs: the layout (tree, floats, zoom, view), then focus (which carries zoom too). */
export function changes(s: Session, m: Mark): SessionEvent[] {
  const out: SessionEvent[] = [];
  if (s.layout !== m.layout || s.floating !== m.floating || s.zoomed !== m.zoomed || s.viewport !== m.viewport) out.push(layoutEvent(s));
  if (s.focused !== m.focused || s.zoomed !== m.zoomed) out.push(focusEvent(s));
  return out;
}
