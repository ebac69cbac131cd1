// Floating rectangles in cells: where a new float opens (cascading from the last
// so it never hides it), and the keyboard's move and resize, always kept inside
// the view. Pure; the server applies them, the window only draws the result.
import type { Edge, FocusDirection } from '../protocol/pane';
import type { Floating, Rect } from '../protocol/model';

/** Smallest float, in cells: room for a tag's name and a few lines (the window's drag limit too). */
export const FLOAT_MIN = { w: 12, h: 4 } as const;
/** How far each new float sits from the last: enough to leave the last one's tag readable. */
export const CASCADE = { cols: 3, rows: 2 } as const;
/** Share of the view a new float takes on each axis. */
const DEFAULT_SHARE = 0.6;

type View = { cols: number; rows: number };

/** A float centred in the view, 60% of it each way. */
export function centredRect(vp: View): Rect {
  const w = Math.min(vp.cols, Math.max(FLOAT_MIN.w, Math.round(vp.cols * DEFAULT_SHARE)));
  const h = Math.min(vp.rows, Math.max(FLOAT_MIN.h, Math.round(vp.rows * DEFAULT_SHARE)));
  return { x: Math.max(0, Math.round((vp.cols - w) / 2)), y: Math.max(0, Math.round((vp.rows - h) / 2)), w, h };
}

/**
 * Where the next float opens: centred when none is shown, else offset down and
 * right from the topmost shown one; back at the centre (or wrapped round) when
 * that would leave the view.
 */
export function cascadeRect(vp: View, floats: readonly Floating[]): Rect {
  const base = centredRect(vp);
  const shown = floats.filter((f) => f.visible);
  if (shown.length === 0) return base;
  const last = shown.reduce((a, b) => (b.z >= a.z ? b : a));
  const next = { ...base, x: last.x + CASCADE.cols, y: last.y + CASCADE.rows };
  const fits = next.x + next.w <= vp.cols && next.y + next.h <= vp.rows;
  const taken = (r: Rect) => shown.some((f) => f.x === r.x && f.y === r.y);
  if (fits && !taken(next)) return next;
  if (!taken(base)) return base;
  // Off the edge and the centre taken: wrap the cascade round the room left in the view.
  return { ...base, x: next.x % Math.max(1, vp.cols - base.w + 1), y: next.y % Math.max(1, vp.rows - base.h + 1) };
}

/** Keeps a rectangle inside the view and at least the minimum size (where the view allows). */
export function clampRect(r: Rect, vp: View): Rect {
  const w = Math.min(vp.cols, Math.max(Math.min(FLOAT_MIN.w, vp.cols), r.w));
  const h = Math.min(vp.rows, Math.max(Math.min(FLOAT_MIN.h, vp.rows), r.h));
  return { x: Math.min(Math.max(0, r.x), vp.cols - w), y: Math.min(Math.max(0, r.y), vp.rows - h), w, h };
}

/**
 * A float's rectangle as it is shown: inside the view, its size kept where the view has room
 * (no minimum added, unlike clampRect: a float made small stays small), else the view's.
 */
export function inView(r: Rect, vp: View): Rect {
  const w = Math.max(1, Math.min(r.w, vp.cols));
  const h = Math.max(1, Math.min(r.h, vp.rows));
  return { x: Math.max(0, Math.min(r.x, vp.cols - w)), y: Math.max(0, Math.min(r.y, vp.rows - h)), w, h };
}

/** The float moved by `cells` toward `dir` (the swap keys on a tile move a float). */
export function movedRect(f: Rect, dir: FocusDirection, cells: number, vp: View): Rect {
  const dx = dir === 'left' ? -cells : dir === 'right' ? cells : 0;
  const dy = dir === 'up' ? -cells : dir === 'down' ? cells : 0;
  return clampRect({ ...f, x: f.x + dx, y: f.y + dy }, vp);
}

/**
 * The float resized by `cells` (the resize keys on a tile): its bottom-right
 * corner follows the arrow, as when dragging that corner — right and down grow it,
 * left and up shrink it.
 */
export function resizedRect(f: Rect, edge: Edge, cells: number, vp: View): Rect {
  const dw = edge === 'right' ? cells : edge === 'left' ? -cells : 0;
  const dh = edge === 'down' ? cells : edge === 'up' ? -cells : 0;
  const w = Math.max(FLOAT_MIN.w, Math.min(vp.cols - f.x, f.w + dw));
  const h = Math.max(FLOAT_MIN.h, Math.min(vp.rows - f.y, f.h + dh));
  return clampRect({ ...f, w, h }, vp);
}

const overlaps = (a: Rect, b: Rect): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * `want` placed so that it leaves `keep` (the pane the person types into) uncovered:
 * as asked when it does already; else moved into the largest strip of the view beside
 * `keep` (left, right, above or below it), as near where it was asked as that strip
 * allows and narrowed to fit; null when no strip holds even FLOAT_MIN.
 */
export function clearOf(want: Rect, keep: Rect, vp: View): Rect | null {
  if (!overlaps(want, keep)) return want;
  const strips: Rect[] = [
    { x: 0, y: 0, w: keep.x, h: vp.rows },
    { x: keep.x + keep.w, y: 0, w: vp.cols - (keep.x + keep.w), h: vp.rows },
    { x: 0, y: 0, w: vp.cols, h: keep.y },
    { x: 0, y: keep.y + keep.h, w: vp.cols, h: vp.rows - (keep.y + keep.h) },
  ];
  let best: { r: Rect; area: number; far: number } | null = null;
  for (const s of strips) {
    if (s.w < FLOAT_MIN.w || s.h < FLOAT_MIN.h) continue;
    const w = Math.min(want.w, s.w);
    const h = Math.min(want.h, s.h);
    const r = { x: Math.min(Math.max(want.x, s.x), s.x + s.w - w), y: Math.min(Math.max(want.y, s.y), s.y + s.h - h), w, h };
    const area = w * h;
    const far = Math.abs(r.x - want.x) + Math.abs(r.y - want.y);
    if (!best || area > best.area || (area === best.area && far < best.far)) best = { r, area, far };
  }
  return best?.r ?? null;
}
