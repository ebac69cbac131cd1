// Sends the events a session operation returned on the server's bus, in order.
// `layout/changed` goes through PaneServer.layoutChanged, which first applies the
// geometry (placements, PTY sizes, quadrants) that the event carries.
import type { PaneServer } from '../../paneServer';
import type { SessionEvent } from './changes';

export function publish(server: PaneServer, events: readonly SessionEvent[]): void {
  for (const e of events) {
    if (e.event === 'layout/changed') server.layoutChanged(e.data.session);
    else server.publish(e.event, e.data);
  }
}
