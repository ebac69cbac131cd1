// Focus and zoom: which pane has the keyboard, and which fills the view. Focus
// always names a pane of the session (null only when it has none); every other
// operation that moves focus (split, float, tile, zoom) goes through `focus` here.
import { faults } from '../../../kits/protocol/error';
import { RECENT_FOCUS_MAX, type Session } from '../../../kits/protocol/model';
import type { FocusMove } from '../../../kits/protocol/pane';
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

/** The panes focus may go back to: the tiles and the floats on view (a hidden one stays put away). */
export function onView(s: Session): number[] {
  return [...leaves(s.layout), ...s.floating.filter((f) => f.visible).map((f) => f.pane)];
}

/** A focus history after the focus left `from` for `to`: `from` first, `to` out of it (it is the focus now), RECENT_FOCUS_MAX at most. */
export function remember(recent: readonly number[] | undefined, from: number | null, to: number): number[] {
  const rest = (recent ?? []).filter((p) => p !== from && p !== to);
  return (from === null || from === to ? rest : [from, ...rest]).slice(0, RECENT_FOCUS_MAX);
}

/** The pane focused last before `from` that is still on view (`shown`), or null: where `pane focus last` and a close go back to. */
export function lastFocused(recent: readonly number[] | undefined, from: number | null, shown: readonly number[]): number | null {
  return (recent ?? []).find((p) => p !== from && shown.includes(p)) ?? null;
}

/** Gives `n` the focus (the pane it leaves goes first in the session's `recent`); refuses a pane that is not in the session. */
export function focus(s: Session, n: number): SessionEvent[] {
  if (!members(s).includes(n)) throw faults.failed(`pane ${n} is not in session ${s.name}`);
  const m = mark(s);
  if (s.focused !== n) s.recent = remember(s.recent, s.focused, n);
  s.focused = n;
  return changes(s, m);
}

/**
 * The pane a focus move lands on: next/prev walk every pane in order; a direction
 * picks the geometric neighbour among the tiles; last goes back to the pane focused
 * before (`recent`: the session's own, or a context's when the move is in one).
 */
export function focusTarget(s: Session, from: number, direction: FocusMove, recent: readonly number[] | undefined = s.recent): number {
  if (direction === 'last') {
    const back = lastFocused(recent, from, onView(s));
    if (back === null) throw faults.failed(`no pane was focused before pane ${from} that is still on view`);
    return back;
  }
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
