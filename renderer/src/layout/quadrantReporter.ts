// Reports each pane's quadrant to the server as the attr `quadrant` on every layout
// change, only where it differs from what the server already holds.
import type { Session } from '../../../kits/protocol/model';
import { client } from '../net/client';
import { selectSession, store } from '../store';
import { tileRects } from './geometry';
import { quadrantOf, type Quadrant } from './quadrant';

/** Every pane of a session with its quadrant: tiles by their tiled place (zoom is a
 * passing view), floats by their rectangle within the viewport. */
export function quadrants(s: Session): Map<number, Quadrant> {
  const out = new Map<number, Quadrant>();
  for (const [pane, r] of tileRects(s.layout)) out.set(pane, quadrantOf(r));
  for (const f of s.floating) {
    out.set(f.pane, quadrantOf({ x: f.x / s.viewport.cols, y: f.y / s.viewport.rows, w: f.w / s.viewport.cols, h: f.h / s.viewport.rows }));
  }
  return out;
}

const sent = new Map<number, string>();

function report(): void {
  const st = store.getState();
  const s = selectSession(st);
  if (!s || st.conn.state !== 'open') return;
  for (const [pane, q] of quadrants(s)) {
    const p = st.panes[pane];
    if (!p || p.attrs.quadrant === q || sent.get(pane) === q) continue;
    sent.set(pane, q);
    void client.call('pane/attrs', { pane, set: { quadrant: q } }).catch(() => sent.delete(pane));
  }
}

export function installQuadrantReporter(): void {
  store.subscribe((st, prev) => {
    if (st.sessions !== prev.sessions || st.panes !== prev.panes || st.sessionId !== prev.sessionId) report();
  });
  client.onConnected(() => {
    sent.clear();
    report();
  });
}
