// Focus and zoom: which pane has the keyboard, and which fills the view. Focus
// always names a pane of the session (null only when it has none); every other
// operation that moves focus (split, float, tile, zoom) goes through `focus` here.
import { faults } from '../../../kits/protocol/error';
import type { Session } from '../../../kits/protocol/model';
import type { FocusDirection } from '../../../kits/protocol/pane';
import { leaves, neighbour, rects } from '../../../kits/layout/tree';
import { changes, mark, type SessionEvent } from './changes';

/** The session's panes: tiles in reading order, then floats in their list order (what next/prev walk). */
export function members(s: Session): number[] {
  return [...leaves(s.layout), ...s.floating.map((f) => f.pane)];
}

export function isTiled(s: Session, n: number): boolean {
  return leaves(s.layout).includes(n);
}

export function isFloating(s: Session, n: number): boolean {
  return s.floating.some((f) => f.pane === n);
}

/** Gives `n` the focus; refuses a pane that is not in the session. */
export function focus(s: Session, n: number): SessionEvent[] {
  if (!members(s).includes(n)) throw faults.failed(`pane ${n} is not in session ${s.name}`);
  const m = mark(s);
  s.focused = n;
  return changes(s, m);
}

/**
 * The pane a focus move lands on: next/prev walk every pane in order; a direction
 * picks the geometric neighbour among the tiles.
 */
export function focusTarget(s: Session, from: number, direction: FocusDirection): number {
  const tiles = rects(s.layout, s.viewport);
  const next = direction === 'next' || direction === 'prev' ? neighbour(tiles, from, direction, members(s)) : neighbour(tiles, from, direction);
  if (next === null) throw faults.failed(`no pane ${direction} of pane ${from}`);
  return next;
}

/**
 * What focusing a pane by hand does (a click, `pane focus`): a zoom on another
 * pane ends, a float comes to the top of its layer, and the pane takes focus.
 */
export function focusPane(s: Session, n: number): SessionEvent[] {
  const m = mark(s);
  if (s.zoomed !== null && s.zoomed !== n) s.zoomed = null;
  const f = s.floating.find((x) => x.pane === n);
  if (f) {
    const layer = s.floating.filter((x) => x.layer === f.layer);
    const top = Math.max(...layer.map((x) => x.z));
    if (f.z !== top || layer.filter((x) => x.z === top).length > 1) s.floating = s.floating.map((x) => (x === f ? { ...x, z: top + 1 } : x));
  }
  focus(s, n);
  return changes(s, m);
}

/**
 * Zooms `n` (fills the view with it) or ends the zoom: `want` undefined toggles.
 * Zooming focuses the pane. A float can be zoomed too (the placements in
 * kits/layout/geometry.ts draw it over the whole view while it is shown).
 */
export function zoom(s: Session, n: number, want?: boolean): SessionEvent[] {
  if (!members(s).includes(n)) throw faults.failed(`pane ${n} is not in session ${s.name}`);
  const m = mark(s);
  const on = want ?? s.zoomed !== n;
  s.zoomed = on ? n : null;
  if (on) focus(s, n);
  return changes(s, m);
}
