// The binary split tree as pure functions, shared by the server and the window
// (zod-free): insert, remove (the sibling takes the space), the cells each side of
// a split gets, geometric neighbours, edge resize, swap. No state.
import type { Edge, FocusDirection } from '../protocol/pane';
import type { LayoutNode, Rect, SplitDirection, Viewport } from '../protocol/model';

export const MIN_RATIO = 10;
export const MAX_RATIO = 90;

export function clampRatio(r: number): number {
  if (!Number.isFinite(r)) return 50;
  return Math.min(MAX_RATIO, Math.max(MIN_RATIO, Math.round(r * 100) / 100));
}

/** Leaves in reading order (a before b): the order next/prev follow. */
export function leaves(node: LayoutNode | null): number[] {
  if (!node) return [];
  if (node.type === 'leaf') return [node.pane];
  return [...leaves(node.a), ...leaves(node.b)];
}

export function contains(node: LayoutNode | null, pane: number): boolean {
  return leaves(node).includes(pane);
}

/** Splits `target`'s leaf: target keeps `ratio` percent on the left/top, `pane` gets the rest. */
export function insertSplit(
  node: LayoutNode | null,
  target: number | null,
  pane: number,
  direction: SplitDirection,
  ratio: number,
): LayoutNode {
  const leaf: LayoutNode = { type: 'leaf', pane };
  if (!node) return leaf;
  if (target === null) return { type: 'split', direction, ratio: clampRatio(ratio), a: node, b: leaf };
  const go = (n: LayoutNode): LayoutNode => {
    if (n.type === 'leaf') {
      return n.pane === target ? { type: 'split', direction, ratio: clampRatio(ratio), a: n, b: leaf } : n;
    }
    return { ...n, a: go(n.a), b: go(n.b) };
  };
  return go(node);
}

/** Removes a leaf; its split collapses so the sibling takes the whole space. */
export function removeLeaf(node: LayoutNode | null, pane: number): LayoutNode | null {
  if (!node) return null;
  if (node.type === 'leaf') return node.pane === pane ? null : node;
  const a = removeLeaf(node.a, pane);
  const b = removeLeaf(node.b, pane);
  if (!a) return b;
  if (!b) return a;
  return a === node.a && b === node.b ? node : { ...node, a, b };
}

/**
 * Splits a rectangle of whole cells at `ratio` percent (horizontal = side by
 * side): side a gets the rounded share, side b the rest, so cells are never lost.
 */
export function splitCells(r: Rect, direction: SplitDirection, ratio: number): [Rect, Rect] {
  if (direction === 'horizontal') {
    const wa = Math.round((r.w * ratio) / 100);
    return [{ x: r.x, y: r.y, w: wa, h: r.h }, { x: r.x + wa, y: r.y, w: r.w - wa, h: r.h }];
  }
  const ha = Math.round((r.h * ratio) / 100);
  return [{ x: r.x, y: r.y, w: r.w, h: ha }, { x: r.x, y: r.y + ha, w: r.w, h: r.h - ha }];
}

/** Each leaf's rectangle (its frame) in cells of the viewport. */
export function rects(node: LayoutNode | null, vp: { cols: number; rows: number }): Map<number, Rect> {
  const out = new Map<number, Rect>();
  const go = (n: LayoutNode, r: Rect): void => {
    if (n.type === 'leaf') {
      out.set(n.pane, r);
      return;
    }
    const [ra, rb] = splitCells(r, n.direction, n.ratio);
    go(n.a, ra);
    go(n.b, rb);
  };
  if (node) go(node, { x: 0, y: 0, w: vp.cols, h: vp.rows });
  return out;
}

/**
 * The geometric neighbour of `from` in a direction: among panes wholly beyond
 * the edge, the one overlapping most along the edge, then the nearest.
 */
export function neighbour(all: Map<number, Rect>, from: number, dir: FocusDirection, order?: number[]): number | null {
  if (dir === 'next' || dir === 'prev') {
    const list = order ?? [...all.keys()];
    const i = list.indexOf(from);
    if (list.length === 0) return null;
    if (i < 0) return list[0] ?? null;
    const j = (i + (dir === 'next' ? 1 : -1) + list.length) % list.length;
    return list[j] ?? null;
  }
  const r = all.get(from);
  if (!r) return null;
  let best: { pane: number; overlap: number; dist: number } | null = null;
  for (const [pane, o] of all) {
    if (pane === from) continue;
    let dist: number;
    let overlap: number;
    if (dir === 'left' || dir === 'right') {
      dist = dir === 'left' ? r.x - (o.x + o.w) : o.x - (r.x + r.w);
      overlap = Math.min(r.y + r.h, o.y + o.h) - Math.max(r.y, o.y);
    } else {
      dist = dir === 'up' ? r.y - (o.y + o.h) : o.y - (r.y + r.h);
      overlap = Math.min(r.x + r.w, o.x + o.w) - Math.max(r.x, o.x);
    }
    if (dist < 0 || overlap <= 0) continue;
    if (!best || dist < best.dist || (dist === best.dist && overlap > best.overlap)) best = { pane, overlap, dist };
  }
  return best?.pane ?? null;
}

/**
 * Moves `pane`'s edge toward `edge` by `cells`: finds the nearest ancestor split
 * whose divider lies on that edge and shifts its ratio. Returns null when the
 * pane has no such edge (it touches the window border there).
 */
export function resizeEdge(node: LayoutNode | null, pane: number, edge: Edge, cells: number, vp: Viewport): LayoutNode | null {
  if (!node) return null;
  const want: SplitDirection = edge === 'left' || edge === 'right' ? 'horizontal' : 'vertical';
  // Path from the root to the leaf, recording which side we went down.
  const path: { split: Extract<LayoutNode, { type: 'split' }>; side: 'a' | 'b'; size: number }[] = [];
  let found = false;
  const walk = (n: LayoutNode, r: Rect): void => {
    if (found) return;
    if (n.type === 'leaf') {
      found = n.pane === pane;
      return;
    }
    const size = n.direction === 'horizontal' ? r.w : r.h;
    const [ra, rb] = splitCells(r, n.direction, n.ratio);
    path.push({ split: n, side: 'a', size });
    walk(n.a, ra);
    if (found) return;
    path[path.length - 1]!.side = 'b';
    walk(n.b, rb);
    if (!found) path.pop();
  };
  walk(node, { x: 0, y: 0, w: vp.cols, h: vp.rows });
  if (!found) return null;
  // The divider on the right/bottom edge is a split where we are side a; left/top: side b.
  const sideWanted = edge === 'right' || edge === 'down' ? 'a' : 'b';
  let target: (typeof path)[number] | undefined;
  for (let i = path.length - 1; i >= 0; i--) {
    const p = path[i]!;
    if (p.split.direction === want && p.side === sideWanted) {
      target = p;
      break;
    }
  }
  if (!target) return null;
  const delta = ((edge === 'right' || edge === 'down' ? 1 : -1) * cells * 100) / Math.max(1, target.size);
  const victim = target.split;
  const ratio = clampRatio(victim.ratio + delta);
  const rebuild = (n: LayoutNode): LayoutNode => {
    if (n === victim) return { ...n, ratio } as LayoutNode;
    if (n.type === 'leaf') return n;
    return { ...n, a: rebuild(n.a), b: rebuild(n.b) };
  };
  return rebuild(node);
}

/** Sets the ratio of the nearest split of `direction` enclosing `pane` (a divider drag). */
export function setRatio(node: LayoutNode | null, pane: number, direction: SplitDirection, ratio: number): LayoutNode | null {
  if (!node) return null;
  let victim: LayoutNode | null = null;
  const walk = (n: LayoutNode): boolean => {
    if (n.type === 'leaf') return n.pane === pane;
    if (walk(n.a) || walk(n.b)) {
      if (!victim && n.direction === direction) victim = n;
      return true;
    }
    return false;
  };
  if (!walk(node) || !victim) return null;
  const v: LayoutNode = victim;
  const rebuild = (n: LayoutNode): LayoutNode => {
    if (n === v) return { ...(n as Extract<LayoutNode, { type: 'split' }>), ratio: clampRatio(ratio) };
    if (n.type === 'leaf') return n;
    return { ...n, a: rebuild(n.a), b: rebuild(n.b) };
  };
  return rebuild(node);
}

/** Exchanges two leaves' places. */
export function swapLeaves(node: LayoutNode | null, p: number, q: number): LayoutNode | null {
  if (!node) return null;
  const go = (n: LayoutNode): LayoutNode => {
    if (n.type === 'leaf') return n.pane === p ? { type: 'leaf', pane: q } : n.pane === q ? { type: 'leaf', pane: p } : n;
    return { ...n, a: go(n.a), b: go(n.b) };
  };
  return go(node);
}

/** Checks the tree's invariants; returns the first violation, or null. */
export function invalidity(node: LayoutNode | null, live: Set<number>): string | null {
  const seen = new Set<number>();
  const go = (n: LayoutNode): string | null => {
    if (n.type === 'leaf') {
      if (!live.has(n.pane)) return `leaf ${n.pane} is not a live pane`;
      if (seen.has(n.pane)) return `pane ${n.pane} appears twice`;
      seen.add(n.pane);
      return null;
    }
    if (!(n.ratio >= MIN_RATIO && n.ratio <= MAX_RATIO)) return `ratio ${n.ratio} out of ${MIN_RATIO}..${MAX_RATIO}`;
    return go(n.a) ?? go(n.b);
  };
  return node ? go(node) : null;
}
