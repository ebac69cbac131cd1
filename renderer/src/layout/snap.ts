// Snap zones for floating panes: dragging the pointer to a screen edge offers a
// half, to a corner a quarter, to the top middle the whole screen (Windows-style
// zones); a rectangle near an edge sticks to it. Pure: pixels in, pixels out.

export interface PxRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type SnapZone = 'left' | 'right' | 'top' | 'bottom' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right' | 'full';

/** How close (px) the pointer must come to an edge to offer a zone. */
export const ZONE_EDGE = 24;
/** How close (px) a rectangle's edge must come to the screen's to stick to it. */
export const STICK = 12;

/** The zone the pointer at (px, py) offers in a screen of w×h, if any. */
export function zoneAt(px: number, py: number, w: number, h: number): SnapZone | null {
  const l = px <= ZONE_EDGE;
  const r = px >= w - ZONE_EDGE;
  const t = py <= ZONE_EDGE;
  const b = py >= h - ZONE_EDGE;
  // Corners are generous (a quarter of the edge) so quarters are easy to hit.
  const nearTop = py < h / 4;
  const nearBottom = py > (h * 3) / 4;
  const nearLeft = px < w / 4;
  const nearRight = px > (w * 3) / 4;
  if ((l && nearTop) || (t && nearLeft)) return 'top-left';
  if ((r && nearTop) || (t && nearRight)) return 'top-right';
  if ((l && nearBottom) || (b && nearLeft)) return 'bottom-left';
  if ((r && nearBottom) || (b && nearRight)) return 'bottom-right';
  if (l) return 'left';
  if (r) return 'right';
  if (t) return 'full';
  if (b) return 'bottom';
  return null;
}

/** The rectangle a zone stands for. */
export function zoneRect(zone: SnapZone, w: number, h: number): PxRect {
  const hw = w / 2;
  const hh = h / 2;
  switch (zone) {
    case 'left': return { x: 0, y: 0, w: hw, h };
    case 'right': return { x: hw, y: 0, w: w - hw, h };
    case 'top': return { x: 0, y: 0, w, h: hh };
    case 'bottom': return { x: 0, y: hh, w, h: h - hh };
    case 'top-left': return { x: 0, y: 0, w: hw, h: hh };
    case 'top-right': return { x: hw, y: 0, w: w - hw, h: hh };
    case 'bottom-left': return { x: 0, y: hh, w: hw, h: h - hh };
    case 'bottom-right': return { x: hw, y: hh, w: w - hw, h: h - hh };
    case 'full': return { x: 0, y: 0, w, h };
  }
}

/** Moves a rectangle so any edge within STICK px of the screen's edge touches it. */
export function stick(r: PxRect, w: number, h: number): PxRect {
  let { x, y } = r;
  if (Math.abs(x) <= STICK) x = 0;
  if (Math.abs(x + r.w - w) <= STICK) x = w - r.w;
  if (Math.abs(y) <= STICK) y = 0;
  if (Math.abs(y + r.h - h) <= STICK) y = h - r.h;
  return { x, y, w: r.w, h: r.h };
}

/** Pixels → whole cells, never below one cell or outside the viewport. */
export function toCells(r: PxRect, cellW: number, cellH: number, cols: number, rows: number): PxRect {
  const w = Math.max(1, Math.min(cols, Math.round(r.w / cellW)));
  const h = Math.max(1, Math.min(rows, Math.round(r.h / cellH)));
  const x = Math.max(0, Math.min(cols - w, Math.round(r.x / cellW)));
  const y = Math.max(0, Math.min(rows - h, Math.round(r.y / cellH)));
  return { x, y, w, h };
}
