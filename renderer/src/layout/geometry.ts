// Draws the server's split tree as rectangles (fractions of the workspace) and the
// dividers between them. Pure and DOM-free: the server decides layout, this only
// projects it, so the same tree always draws the same way.
import type { LayoutNode, SplitDirection } from '../../../kits/protocol/model';

/** A rectangle as fractions 0..1 of the workspace. */
export interface FRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Tile {
  pane: number;
  rect: FRect;
}

export interface Divider {
  /** Path from the root: 'a'/'b' steps; unique per split, a stable React key. */
  path: string;
  direction: SplitDirection;
  ratio: number;
  /** The split's whole rectangle: a drag maps pointer position to ratio within it. */
  split: FRect;
  /** Where the divider line is drawn (zero thickness along its axis). */
  line: FRect;
  /** A pane whose nearest enclosing split of this direction is this one (for pane/ratio), if any. */
  ratioPane: number | null;
  /** The leaf just before the divider, whose far edge the divider is (for pane/resize). */
  edgePane: number;
}

export interface Drawing {
  tiles: Tile[];
  dividers: Divider[];
}

const FULL: FRect = { x: 0, y: 0, w: 1, h: 1 };

/** Leaves in order. */
export function leaves(node: LayoutNode | null): number[] {
  if (!node) return [];
  return node.type === 'leaf' ? [node.pane] : [...leaves(node.a), ...leaves(node.b)];
}

/**
 * A leaf under `node` that meets no split of `direction` on the way down, so the
 * split above `node` is its nearest split of that direction; null if none exists.
 */
function freeLeaf(node: LayoutNode, direction: SplitDirection): number | null {
  if (node.type === 'leaf') return node.pane;
  if (node.direction === direction) return null;
  return freeLeaf(node.a, direction) ?? freeLeaf(node.b, direction);
}

function lastLeaf(node: LayoutNode): number {
  return node.type === 'leaf' ? node.pane : lastLeaf(node.b);
}

/** Splits `r` at `ratio` percent: horizontal = side by side. */
export function splitRect(r: FRect, direction: SplitDirection, ratio: number): [FRect, FRect] {
  const f = ratio / 100;
  if (direction === 'horizontal') {
    const wa = r.w * f;
    return [{ x: r.x, y: r.y, w: wa, h: r.h }, { x: r.x + wa, y: r.y, w: r.w - wa, h: r.h }];
  }
  const ha = r.h * f;
  return [{ x: r.x, y: r.y, w: r.w, h: ha }, { x: r.x, y: r.y + ha, w: r.w, h: r.h - ha }];
}

/** The tree as tiles and dividers; a zoomed pane takes the whole space alone. */
export function draw(node: LayoutNode | null, zoomed: number | null = null): Drawing {
  const out: Drawing = { tiles: [], dividers: [] };
  if (!node) return out;
  if (zoomed !== null && leaves(node).includes(zoomed)) {
    out.tiles.push({ pane: zoomed, rect: FULL });
    return out;
  }
  const walk = (n: LayoutNode, r: FRect, path: string) => {
    if (n.type === 'leaf') {
      out.tiles.push({ pane: n.pane, rect: r });
      return;
    }
    const [ra, rb] = splitRect(r, n.direction, n.ratio);
    const line = n.direction === 'horizontal' ? { x: rb.x, y: r.y, w: 0, h: r.h } : { x: r.x, y: rb.y, w: r.w, h: 0 };
    out.dividers.push({
      path,
      direction: n.direction,
      ratio: n.ratio,
      split: r,
      line,
      ratioPane: freeLeaf(n.a, n.direction) ?? freeLeaf(n.b, n.direction),
      edgePane: lastLeaf(n.a),
    });
    walk(n.a, ra, path + 'a');
    walk(n.b, rb, path + 'b');
  };
  walk(node, FULL, '');
  return out;
}

/** The tiled rectangle of every pane, ignoring zoom (quadrants describe where a pane lives). */
export function tileRects(node: LayoutNode | null): Map<number, FRect> {
  return new Map(draw(node).tiles.map((t) => [t.pane, t.rect]));
}

/** The ratio (10..90) a pointer at fraction `pos` of the workspace gives a split. */
export function ratioAt(split: FRect, direction: SplitDirection, pos: { x: number; y: number }): number {
  const raw = direction === 'horizontal' ? (pos.x - split.x) / split.w : (pos.y - split.y) / split.h;
  return Math.min(90, Math.max(10, Math.round(raw * 1000) / 10));
}
