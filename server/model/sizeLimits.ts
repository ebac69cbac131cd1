// The largest sizes, in cells, the server accepts for a session viewport and a
// floating pane: a terminal's own bound (server/pty/sizeLimits.ts, where its cost
// is explained). Larger requests are clamped, not refused: a window on a huge
// screen still works, it just lays out in at most this many cells.
import { MAX_COLS, MAX_ROWS } from '../pty/sizeLimits';

export { MAX_COLS, MAX_ROWS };

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.trunc(v)));

/** A viewport within 2..MAX_COLS × 2..MAX_ROWS. */
export function clampViewport(v: { cols: number; rows: number }): { cols: number; rows: number } {
  return { cols: clamp(v.cols, 2, MAX_COLS), rows: clamp(v.rows, 2, MAX_ROWS) };
}

/** A floating rectangle's position and size within the same bounds (only the fields given). */
export function clampRect<T extends { x?: number; y?: number; w?: number; h?: number }>(r: T): T {
  const out = { ...r };
  if (out.x !== undefined) out.x = clamp(out.x, 0, MAX_COLS - 1);
  if (out.y !== undefined) out.y = clamp(out.y, 0, MAX_ROWS - 1);
  if (out.w !== undefined) out.w = clamp(out.w, 1, MAX_COLS);
  if (out.h !== undefined) out.h = clamp(out.h, 1, MAX_ROWS);
  return out;
}
