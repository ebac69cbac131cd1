// Geometry computed once: every pane's frame, terminal body and quadrant from the
// tree, the floating layer, zoom and the viewport (with what a frame costs). The
// server calls placements() on each layout change; the window draws its result.
import { inView } from './floats';
import type { Chrome, Floating, LayoutNode, Placement, Quadrant, Rect, SplitDirection, Viewport } from '../protocol/model';
import { rects, splitCells } from './tree';

/** Without a window nothing is measured: the tag is one row, borders cost nothing. */
export const HEADLESS_CHROME: Chrome = { cols: 0, rows: 1 };

/** A pane wider (taller) than this fraction of the view spans both halves of that axis. */
const SPAN = 0.75;

/** The smallest terminal body: a PTY of 0 columns or rows makes programs misbehave. */
export const MIN_BODY = { cols: 2, rows: 1 } as const;

export function chromeOf(vp: Viewport): Chrome {
  return vp.chrome ?? HEADLESS_CHROME;
}

/** The terminal body inside a frame of w×h cells. */
export function bodyOf(frame: { w: number; h: number }, chrome: Chrome): { cols: number; rows: number } {
  return { cols: Math.max(MIN_BODY.cols, frame.w - chrome.cols), rows: Math.max(MIN_BODY.rows, frame.h - chrome.rows) };
}

/**
 * Cells a frame's chrome costs, from pixels: what the tag, borders and padding
 * take across and down, over one cell's size, rounded up so the body always fits.
 */
export function chromeCells(px: { across: number; down: number }, cell: { w: number; h: number }): Chrome {
  const c = (v: number, unit: number) => Math.min(16, Math.max(0, Math.ceil(v / unit - 1e-9)));
  return { cols: c(px.across, cell.w), rows: c(px.down, cell.h) };
}

function side(start: number, size: number, total: number): 'first' | 'second' | 'both' {
  if (size / total > SPAN) return 'both';
  return (start + size / 2) / total < 0.5 ? 'first' : 'second';
}

/** The quadrant of a rectangle within the view. */
export function quadrantOf(r: Rect, vp: { cols: number; rows: number }): Quadrant {
  const h = side(r.x, r.w, vp.cols);
  const v = side(r.y, r.h, vp.rows);
  if (h === 'both' && v === 'both') return 'full';
  if (h === 'both') return v === 'first' ? 'top' : 'bottom';
  if (v === 'both') return h === 'first' ? 'left' : 'right';
  return `${v === 'first' ? 'top' : 'bottom'}-${h === 'first' ? 'left' : 'right'}`;
}

/** A divider between the two sides of a split, in cells. */
export interface Divider {
  /** Path from the root: 'a'/'b' steps; unique per split, a stable React key. */
  path: string;
  direction: SplitDirection;
  ratio: number;
  /** The split's whole rectangle: a drag maps pointer position to ratio within it. */
  split: Rect;
  /** Where the divider line is (zero thickness along its axis). */
  line: Rect;
  /** A pane whose nearest enclosing split of this direction is this one (for pane/ratio), if any. */
  ratioPane: number | null;
  /** The leaf just before the divider, whose far edge the divider is (for pane/resize). */
  edgePane: number;
}

/** A leaf under `node` that meets no split of `direction` on the way down, so the split above is its nearest of that direction. */
function freeLeaf(node: LayoutNode, direction: SplitDirection): number | null {
  if (node.type === 'leaf') return node.pane;
  if (node.direction === direction) return null;
  return freeLeaf(node.a, direction) ?? freeLeaf(node.b, direction);
}

function lastLeaf(node: LayoutNode): number {
  return node.type === 'leaf' ? node.pane : lastLeaf(node.b);
}

/** The tree's dividers in cells of the view. */
export function dividers(node: LayoutNode | null, vp: { cols: number; rows: number }): Divider[] {
  const out: Divider[] = [];
  const walk = (n: LayoutNode, r: Rect, path: string) => {
    if (n.type === 'leaf') return;
    const [ra, rb] = splitCells(r, n.direction, n.ratio);
    const line = n.direction === 'horizontal' ? { x: rb.x, y: r.y, w: 0, h: r.h } : { x: r.x, y: rb.y, w: r.w, h: 0 };
    out.push({ path, direction: n.direction, ratio: n.ratio, split: r, line, ratioPane: freeLeaf(n.a, n.direction) ?? freeLeaf(n.b, n.direction), edgePane: lastLeaf(n.a) });
    walk(n.a, ra, path + 'a');
    walk(n.b, rb, path + 'b');
  };
  if (node) walk(node, { x: 0, y: 0, w: vp.cols, h: vp.rows }, '');
  return out;
}

/** The ratio (10..90) a pointer at `pos` (cells, fractional) gives a split. */
export function ratioAt(split: Rect, direction: SplitDirection, pos: { x: number; y: number }): number {
  const raw = direction === 'horizontal' ? (pos.x - split.x) / split.w : (pos.y - split.y) / split.h;
  return Math.min(90, Math.max(10, Math.round(raw * 1000) / 10));
}

export interface Layable {
  layout: LayoutNode | null;
  floating: Floating[];
  zoomed: number | null;
  viewport: Viewport;
}

/**
 * Every pane's placement. Tiles take their cells of the tree; a zoomed pane takes
 * the whole view (the others keep their sizes, hidden); floats take their own
 * rectangle, kept inside the view. The quadrant is where a pane lives, not the passing zoom.
 */
export function placements(s: Layable, tiles: Map<number, Rect> = rects(s.layout, s.viewport)): Placement[] {
  const vp = s.viewport;
  const chrome = chromeOf(vp);
  const full: Rect = { x: 0, y: 0, w: vp.cols, h: vp.rows };
  const out: Placement[] = [];
  const zoomed = s.zoomed;
  const put = (pane: number, home: Rect, floating: boolean, shown: boolean) => {
    const frame = pane === zoomed ? full : home;
    out.push({ pane, x: frame.x, y: frame.y, w: frame.w, h: frame.h, ...bodyOf(frame, chrome), quadrant: quadrantOf(home, vp), floating, shown });
  };
  const zoomedShown = zoomed !== null && (tiles.has(zoomed) || s.floating.some((f) => f.pane === zoomed && f.visible));
  for (const [pane, r] of tiles) put(pane, r, false, !zoomedShown || pane === zoomed);
  // A float is shown inside the view: a rectangle placed for a wider or taller window is moved in
  // and narrowed to fit this one (kept as it was, so the window grown again shows it there again).
  // It had run off a narrow window's edge, its right side and resize handle out of reach and its
  // program sized for columns no one could see.
  for (const f of s.floating) put(f.pane, inView(f, vp), true, f.visible && (!zoomedShown || f.pane === zoomed));
  return out;
}

/** The body a pane not yet in the layout would get once `layout` holds it (so it starts at its size, not resized after). */
export function bodyFor(s: Layable, pane: number): { cols: number; rows: number } {
  const p = placements(s).find((x) => x.pane === pane);
  return p ? { cols: p.cols, rows: p.rows } : wholeBody(s.viewport);
}

/** The body of a pane that has the whole view (a session's first pane). */
export function wholeBody(vp: Viewport): { cols: number; rows: number } {
  return bodyOf({ w: vp.cols, h: vp.rows }, chromeOf(vp));
}

