// A float of someone other than the person (an agent's, a grant's guest's) is never
// drawn over the pane the person types into: their window would show that pane while
// their keys went beneath it (decision 060). Checked after such a caller places a float
// (handlers/keptClear.ts), and after the person's focus moves or a zoom ends (publish.ts),
// which can put their pane under a float already there.
import { clearOf, inView } from '../../../kits/layout/floats';
import { placements } from '../../../kits/layout/geometry';
import type { Rect, Session } from '../../../kits/protocol/model';
import { changes, mark, type SessionEvent } from './changes';
import { updateFloat } from './floats';

/** The frame of the tile the person's focus is on, as their window shows it (none while a zoom shows one pane alone: floats are not drawn then, nor while the focus is on a float). */
function focusedTile(s: Session): Rect | null {
  if (s.focused === null || s.zoomed !== null) return null;
  const p = placements(s).find((x) => x.pane === s.focused && x.shown);
  return p ? { x: p.x, y: p.y, w: p.w, h: p.h } : null;
}

/** The frame of the pane the person's focus is on when float `n` could cover it. */
export function personsPane(s: Session, n: number): Rect | null {
  return s.focused === n ? null : focusedTile(s);
}

/** Float `n` moved off `keep` (the frame of the pane the focus is on) into the largest strip beside it (clearOf), or hidden where there is no room, saying for which pane (the dock lists it; the window says why; the person shows it). */
function moveOff(s: Session, n: number, keep: Rect): SessionEvent[] {
  const f = s.floating.find((x) => x.pane === n);
  if (!f?.visible || s.focused === null) return [];
  const at = inView(f, s.viewport);
  const to = clearOf(at, keep, s.viewport);
  return to === at ? [] : updateFloat(s, n, to ?? { visible: false, keptOff: s.focused });
}

/** Float `n`, if it is shown over the pane the person's focus is on, moved off it. */
export function keepOffPersonsPane(s: Session, n: number): SessionEvent[] {
  const keep = personsPane(s, n);
  return keep ? moveOff(s, n, keep) : [];
}

/**
 * After the person's focus moved in `s`: every float not `mine` kept off their pane,
 * as one change (a layout/changed at most: a float the focus is on is not moved, so the
 * focus stays).
 */
export function othersFloatsKeptClear(s: Session, mine: (pane: number) => boolean): SessionEvent[] {
  const keep = focusedTile(s);
  if (!keep) return [];
  const m = mark(s);
  for (const f of [...s.floating]) if (f.visible && f.pane !== s.focused && !mine(f.pane)) moveOff(s, f.pane, keep);
  return changes(s, m);
}
