// The floating layer's rules: float and tile (a pane is a tile or a float, never
// both), where a new float opens, move and resize (rectangles clamped to the
// server's size limits), z-order within a layer, visibility.
import { faults } from '../../../kits/protocol/error';
import type { Floating, Rect, Session } from '../../../kits/protocol/model';
import type { FocusDirection } from '../../../kits/protocol/pane';
import type { Params } from '../../../kits/protocol/index';
import { insertSplit, leaves, removeLeaf } from '../../../kits/layout/tree';
import { cascadeRect, inView, movedRect } from '../../../kits/layout/floats';
import { clampRect } from '../sizeLimits';
import { changes, mark, type SessionEvent } from './changes';
import { focus, isFloating, isTiled, lastFocused, onView } from './focus';

/** Where a request asks a float to be (any part left out takes the cascade's). */
type FloatAt = Pick<Params<'pane/float'>, 'x' | 'y' | 'w' | 'h'>;

/** Cells one keyboard move of a float takes: the same steps the renderer's resize keys use. */
export const FLOAT_STEP = { cols: 4, rows: 2 } as const;

/** A float's record; refuses a pane that is not floating. */
export function floatOf(s: Session, n: number): Floating {
  const f = s.floating.find((x) => x.pane === n);
  if (!f) throw faults.failed(`pane ${n} is not floating`);
  return f;
}

/** Where a pane that starts floating opens: cascaded from the last float, never over it. */
export function defaultFloatRect(s: Session): Rect {
  return cascadeRect(s.viewport, s.floating);
}

/** The lowest and highest z in a layer (0 counts, so a first float goes to 1). */
function zRange(s: Session, layer: string) {
  const zs = s.floating.filter((f) => f.layer === layer).map((f) => f.z);
  return { min: Math.min(0, ...zs), max: Math.max(0, ...zs) };
}

/** Replaces one float's fields, its rectangle clamped; the array is new so snapshots never alias. */
export function replaceFloat(s: Session, n: number, change: Partial<Floating>): Floating {
  let out: Floating | undefined;
  s.floating = s.floating.map((f) => (f.pane === n ? (out = clampRect(shownAgain({ ...f, ...change, pane: n }))) : f));
  if (!out) throw faults.failed(`pane ${n} is not floating`);
  return out;
}

/** A float shown no longer says why it was hidden. */
function shownAgain(f: Floating): Floating {
  if (!f.visible || f.keptOff === undefined) return f;
  const { keptOff: _, ...rest } = f;
  return rest;
}

/**
 * A float that opens or is brought forward while another pane is zoomed ends that
 * zoom, as focusing any pane by hand does: a zoom shows the zoomed pane alone, so the
 * float would take the keyboard unseen (the scratch key typed into nothing visible).
 */
function endOthersZoom(s: Session, n: number): void {
  if (s.zoomed !== null && s.zoomed !== n) s.zoomed = null;
}

/** Adds the new pane `n` as a float (float/create) on top of its layer, and focuses it (`takeFocus` false: an agent's float takes not the session's focus). */
export function addFloat(s: Session, n: number, at: Pick<Params<'float/create'>, 'x' | 'y' | 'w' | 'h' | 'z' | 'layer'>, takeFocus = true): SessionEvent[] {
  const m = mark(s);
  const d = defaultFloatRect(s);
  const layer = at.layer ?? 'default';
  const rect = clampRect({ x: at.x ?? d.x, y: at.y ?? d.y, w: at.w ?? d.w, h: at.h ?? d.h });
  s.floating = [...s.floating, { pane: n, ...rect, z: at.z ?? zRange(s, layer).max + 1, layer, visible: true }];
  // Not focused (an agent's float), it takes no keys: the person's zoom stays, and the float is drawn when it ends.
  if (takeFocus) {
    endOthersZoom(s, n);
    focus(s, n);
  }
  return changes(s, m);
}

/** Lifts a tile out of the tree into a float above every other (its zoom ends); focuses it unless `takeFocus` is false. */
export function float(s: Session, n: number, at: FloatAt = {}, takeFocus = true): SessionEvent[] {
  const m = mark(s);
  if (!isFloating(s, n)) {
    const d = defaultFloatRect(s);
    const z = Math.max(0, ...s.floating.map((f) => f.z)) + 1;
    const rect = clampRect({ x: at.x ?? d.x, y: at.y ?? d.y, w: at.w ?? d.w, h: at.h ?? d.h });
    s.layout = removeLeaf(s.layout, n);
    if (s.zoomed === n) s.zoomed = null;
    s.floating = [...s.floating, { pane: n, ...rect, z, layer: 'default', visible: true }];
  }
  if (takeFocus) focus(s, n);
  return changes(s, m);
}

/** Puts a float back in the tree, beside the focused tile (else the last), side by side; focuses it unless `takeFocus` is false. */
export function tile(s: Session, n: number, takeFocus = true): SessionEvent[] {
  const m = mark(s);
  if (isFloating(s, n)) {
    s.floating = s.floating.filter((f) => f.pane !== n);
    const anchor = s.focused !== null && s.focused !== n && isTiled(s, s.focused) ? s.focused : (leaves(s.layout).at(-1) ?? null);
    s.layout = insertSplit(s.layout, anchor, n, 'horizontal', 50);
  }
  if (takeFocus) focus(s, n);
  return changes(s, m);
}

/** `pane/float`'s modes: float, tile, or toggle between them. */
export function setFloating(s: Session, n: number, mode: Params<'pane/float'>['mode'], at: FloatAt = {}, takeFocus = true): SessionEvent[] {
  const toFloat = mode === 'toggle' ? !isFloating(s, n) : mode === 'float';
  return toFloat ? float(s, n, at, takeFocus) : tile(s, n, takeFocus);
}

/**
 * Changes a float's fields (move, resize, z, layer, visibility) and keeps focus where it
 * is, unless the float hidden had it: then the focus goes back to the pane focused before
 * it that is still on view (as a close does), so no key goes to a pane no one sees.
 */
export function updateFloat(s: Session, n: number, change: Partial<Omit<Floating, 'pane'>>): SessionEvent[] {
  const m = mark(s);
  replaceFloat(s, n, change);
  if (change.visible === false && s.focused === n) {
    const back = lastFocused(s.recent, n, onView(s)) ?? onView(s)[0];
    if (back !== undefined) focus(s, back);
  }
  return changes(s, m);
}

/** Puts a float above the others of its layer (unchanged if it is already the top). */
export function raise(s: Session, n: number): SessionEvent[] {
  const f = floatOf(s, n);
  const { max } = zRange(s, f.layer);
  return updateFloat(s, n, { z: max === f.z ? f.z : max + 1 });
}

/** Puts a float below the others of its layer (unchanged if it is already the bottom). */
export function lower(s: Session, n: number): SessionEvent[] {
  const f = floatOf(s, n);
  const { min } = zRange(s, f.layer);
  return updateFloat(s, n, { z: min === f.z ? f.z : min - 1 });
}

/** float/focus: shows the float, raises it and focuses it. */
export function focusFloat(s: Session, n: number): SessionEvent[] {
  const m = mark(s);
  const f = floatOf(s, n);
  const { max } = zRange(s, f.layer);
  replaceFloat(s, n, { z: max + (max === f.z ? 0 : 1), visible: true });
  endOthersZoom(s, n);
  focus(s, n);
  return changes(s, m);
}

/** Moves a float one keyboard step toward `direction` (what swap does to a tile), inside the view. */
export function nudgeFloat(s: Session, n: number, direction: Exclude<FocusDirection, 'next' | 'prev'>): SessionEvent[] {
  const f = floatOf(s, n);
  const cells = direction === 'left' || direction === 'right' ? FLOAT_STEP.cols : FLOAT_STEP.rows;
  return updateFloat(s, n, movedRect(inView(f, s.viewport), direction, cells, s.viewport));
}
