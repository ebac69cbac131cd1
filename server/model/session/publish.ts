// Sends the events a session operation returned on the server's bus, in order.
// `layout/changed` goes through PaneServer.layoutChanged, which first applies the
// geometry (placements, PTY sizes, quadrants) that the event carries. Where the
// person's focus moved or a zoom ended, a float of someone else's that now covers
// their pane is moved off it first (keptClear.ts), in the same publish: no window
// draws it over that pane for a frame.
import type { PaneServer } from '../../paneServer';
import type { SessionEvent } from './changes';
import { othersFloatsKeptClear } from './keptClear';

export function publish(server: PaneServer, events: readonly SessionEvent[]): void {
  const kept: SessionEvent[] = [];
  for (const [i, e] of events.entries()) {
    if (e.event !== 'focus/changed') continue;
    const s = server.sessions.get(e.data.session);
    if (!s || s.floating.length === 0) continue;
    const mine = (n: number) => server.panes.get(n)?.owner === server.user;
    // Once, and before the focus event: a window applies the floats' new places with (not after) the focus that needed them.
    // A correction is this session's layout/changed, which carries the session itself: one already going out before this focus event sends the floats' new places too.
    for (const c of othersFloatsKeptClear(s, mine)) if (!alreadyLaidOut(c, [...kept, ...events.slice(0, i)])) kept.push(c);
  }
  for (const e of [...kept, ...events]) {
    if (e.event === 'layout/changed') server.layoutChanged(e.data.session);
    else server.publish(e.event, e.data);
  }
}

/** Whether `events` (those published before the focus event at hand) already hold the layout/changed that `c` is: the same session object, sent whole when published. */
function alreadyLaidOut(c: SessionEvent, events: readonly SessionEvent[]): boolean {
  return c.event === 'layout/changed' && events.some((x) => x.event === 'layout/changed' && x.data.session === c.data.session);
}
