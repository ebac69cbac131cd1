// Drawing the server's tree: rectangles for tiles, lines for dividers, and which
// pane a divider drag addresses.
import { describe, expect, it } from 'vitest';
import type { LayoutNode } from '../../../kits/protocol/model';
import { draw, leaves, ratioAt, tileRects } from './geometry';

const leaf = (pane: number): LayoutNode => ({ type: 'leaf', pane });
const h = (a: LayoutNode, b: LayoutNode, ratio = 50): LayoutNode => ({ type: 'split', direction: 'horizontal', ratio, a, b });
const v = (a: LayoutNode, b: LayoutNode, ratio = 50): LayoutNode => ({ type: 'split', direction: 'vertical', ratio, a, b });

describe('draw', () => {
  it('draws one pane over the whole workspace with no dividers', () => {
    expect(draw(leaf(1))).toEqual({ tiles: [{ pane: 1, rect: { x: 0, y: 0, w: 1, h: 1 } }], dividers: [] });
  });

  it('puts a horizontal split side by side at its ratio, with a vertical divider line', () => {
    const d = draw(h(leaf(1), leaf(2), 30));
    expect(d.tiles).toEqual([
      { pane: 1, rect: { x: 0, y: 0, w: 0.3, h: 1 } },
      { pane: 2, rect: { x: 0.3, y: 0, w: 0.7, h: 1 } },
    ]);
    expect(d.dividers).toHaveLength(1);
    expect(d.dividers[0]).toMatchObject({ direction: 'horizontal', ratio: 30, line: { x: 0.3, y: 0, w: 0, h: 1 }, ratioPane: 1, edgePane: 1 });
  });

  it('stacks a vertical split and nests splits inside their parent rectangle', () => {
    const d = draw(h(leaf(1), v(leaf(2), leaf(3), 25)));
    expect(d.tiles.map((t) => [t.pane, t.rect])).toEqual([
      [1, { x: 0, y: 0, w: 0.5, h: 1 }],
      [2, { x: 0.5, y: 0, w: 0.5, h: 0.25 }],
      [3, { x: 0.5, y: 0.25, w: 0.5, h: 0.75 }],
    ]);
    const inner = d.dividers.find((x) => x.direction === 'vertical')!;
    expect(inner.line).toEqual({ x: 0.5, y: 0.25, w: 0.5, h: 0 });
    expect(inner.split).toEqual({ x: 0.5, y: 0, w: 0.5, h: 1 });
  });

  it('tiles cover the workspace exactly, without overlap, for any tree', () => {
    const tree = v(h(leaf(1), v(leaf(2), leaf(3), 70), 40), h(leaf(4), leaf(5), 60), 55);
    const d = draw(tree);
    const area = d.tiles.reduce((s, t) => s + t.rect.w * t.rect.h, 0);
    expect(area).toBeCloseTo(1, 10);
    expect(d.dividers).toHaveLength(4);
    expect(d.tiles.map((t) => t.pane)).toEqual(leaves(tree));
  });

  it('draws only the zoomed pane, full size, while zoomed', () => {
    expect(draw(h(leaf(1), leaf(2)), 2)).toEqual({ tiles: [{ pane: 2, rect: { x: 0, y: 0, w: 1, h: 1 } }], dividers: [] });
    // ...but tileRects (quadrants) still sees where each pane lives.
    expect(tileRects(h(leaf(1), leaf(2))).get(2)).toEqual({ x: 0.5, y: 0, w: 0.5, h: 1 });
  });

  it('addresses a divider by a pane whose nearest split of that direction is it, or by its edge pane when none is', () => {
    // H(H(1,4), H(2,3)): every leaf meets an inner horizontal split first.
    const d = draw(h(h(leaf(1), leaf(4)), h(leaf(2), leaf(3))));
    const root = d.dividers.find((x) => x.path === '')!;
    expect(root.ratioPane).toBeNull();
    expect(root.edgePane).toBe(4);
    // H(V(1,2), 3): pane 1's nearest horizontal split is the root.
    expect(draw(h(v(leaf(1), leaf(2)), leaf(3))).dividers.find((x) => x.path === '')!.ratioPane).toBe(1);
  });

  it('draws nothing for an empty session', () => {
    expect(draw(null)).toEqual({ tiles: [], dividers: [] });
  });
});

describe('ratioAt', () => {
  it('maps a pointer position inside the split to a ratio, clamped to 10..90', () => {
    const split = { x: 0.5, y: 0, w: 0.5, h: 1 };
    expect(ratioAt(split, 'horizontal', { x: 0.75, y: 0.3 })).toBe(50);
    expect(ratioAt(split, 'horizontal', { x: 0.51, y: 0.3 })).toBe(10);
    expect(ratioAt(split, 'horizontal', { x: 1.2, y: 0.3 })).toBe(90);
    expect(ratioAt({ x: 0, y: 0, w: 1, h: 1 }, 'vertical', { x: 0.9, y: 0.333 })).toBe(33.3);
  });
});
