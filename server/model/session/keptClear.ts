// A float of someone other than the person (an agent's, a grant's guest's) is never
// drawn over the pane the person types into: their window would show that pane while
// their keys went beneath it (decision 060). Checked after such a caller places a float
// (handlers/keptClear.ts), and after the person's focus moves or a zoom ends (publish.ts),
// which can put their pane under a float already there.
import { clearOf, inView } from '../../../kits/layout/floats';
import { placements } from '../../../kits/layout/geometry';
import type { Rect, Session } from '../../../kits/protocol/model';
import type { SessionEvent } from './changes';
import { updateFloat } from './floats';

/** The frame of the pane the person's focus is on, as their window shows it, when float `n` could cover it (none while a zoom shows one pane alone: floats are not drawn then). */
export function personsPane(s: Session, n: number): Rect | null {
  if (s.focused === null || s.focused === n || s.zoomed !== null) return null;
  const p = placements(s).find((x) => x.pane === s.focused && x.shown);
  return p ? { x: p.x, y: p.y, w: p.w, h: p.h } : null;
}

/**
 * Float `n`, if it is shown over the pane the person's focus is on, moved off it into the
 * largest strip beside it (clearOf), or hidden where there is no room (the dock lists it;
 * the person shows it).
 */
export function keepOffPersonsPane(s: Session, n: number): SessionEvent[] {
  const f = s.floating.find((x) => x.pane === n);
  const keep = f?.visible ? personsPane(s, n) : null;
  if (!f || !keep) return [];
  const at = inView(f, s.viewport);
  const to = clearOf(at, keep, s.viewport);
  if (to === at) return [];
  return updateFloat(s, n, to ?? { visible: false });
}

/** After the person's focus moved in `s`: every float not `mine` kept off their pane. */
export function othersFloatsKeptClear(s: Session, mine: (pane: number) => boolean): SessionEvent[] {
  const out: SessionEvent[] = [];
  for (const f of [...s.floating]) if (f.visible && !mine(f.pane)) out.push(...keepOffPersonsPane(s, f.pane));
  return out;
}
