import { describe, expect, it } from 'vitest';
import type { LayoutNode } from '../protocol/model';
import { placements } from './geometry';
import { LAYOUT_PRESETS, MAIN_PANE_PERCENT, presetLayout, presetOf, sameLayout, spread } from './presets';
import { invalidity, leaves, MAX_RATIO, MIN_RATIO } from './tree';

const leaf = (pane: number): LayoutNode => ({ type: 'leaf', pane });
const h = (a: LayoutNode, b: LayoutNode, ratio = 50): LayoutNode => ({ type: 'split', direction: 'horizontal', ratio, a, b });
const v = (a: LayoutNode, b: LayoutNode, ratio = 50): LayoutNode => ({ type: 'split', direction: 'vertical', ratio, a, b });
const vp = { cols: 240, rows: 60 };
/** Each tile's body in a 240×60 view, by pane. */
const bodies = (layout: LayoutNode) => new Map(placements({ layout, floating: [], zoomed: null, viewport: vp }).map((p) => [p.pane, p]));
const ratios = (n: LayoutNode): number[] => (n.type === 'leaf' ? [] : [n.ratio, ...ratios(n.a), ...ratios(n.b)]);

describe('preset layouts', () => {
  it('lays 1 to 40 panes out in every preset, keeping each pane once, in reading order, every ratio within bounds', () => {
    for (let n = 1; n <= 40; n++) {
      const panes = Array.from({ length: n }, (_, i) => i + 1);
      for (const p of LAYOUT_PRESETS) {
        const t = presetLayout(p, panes);
        expect(leaves(t), `${p} of ${n}`).toEqual(panes);
        expect(invalidity(t, new Set(panes)), `${p} of ${n}`).toBeNull();
        for (const r of ratios(t)) expect(r >= MIN_RATIO && r <= MAX_RATIO, `${p} of ${n}: ratio ${r}`).toBe(true);
      }
    }
  });

  it('gives even-horizontal panes the same width to a cell, and even-vertical the same height', () => {
    const panes = [1, 2, 3, 4, 5, 6, 7];
    const wide = [...bodies(presetLayout('even-horizontal', panes)).values()];
    expect(Math.max(...wide.map((p) => p.w)) - Math.min(...wide.map((p) => p.w))).toBeLessThanOrEqual(1);
    expect(new Set(wide.map((p) => p.h)).size).toBe(1);
    const tall = [...bodies(presetLayout('even-vertical', panes)).values()];
    expect(Math.max(...tall.map((p) => p.h)) - Math.min(...tall.map((p) => p.h))).toBeLessThanOrEqual(1);
  });

  it('makes the main pane large on the left (main-vertical) or on top (main-horizontal), the rest sharing the other part', () => {
    const mv = presetLayout('main-vertical', [1, 2, 3, 4], 3);
    expect(mv).toMatchObject({ direction: 'horizontal', ratio: MAIN_PANE_PERCENT, a: leaf(3) });
    expect(leaves(mv)).toEqual([3, 1, 2, 4]);
    const b = bodies(mv);
    expect(b.get(3)!.h).toBe(vp.rows);
    expect(new Set([1, 2, 4].map((p) => b.get(p)!.x)).size).toBe(1);
    const mh = presetLayout('main-horizontal', [1, 2, 3]);
    expect(mh).toMatchObject({ direction: 'vertical', a: leaf(1), b: { direction: 'horizontal' } });
  });

  it('tiles a grid: 5 panes in rows of 3 and 2, 9 in three rows of 3', () => {
    const rows = (t: LayoutNode) => [...new Set([...bodies(t).values()].map((p) => p.y))].length;
    expect(rows(presetLayout('tiled', [1, 2, 3, 4, 5]))).toBe(2);
    const nine = bodies(presetLayout('tiled', [1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(new Set([...nine.values()].map((p) => p.y)).size).toBe(3);
    expect(new Set([...nine.values()].map((p) => p.x)).size).toBe(3);
  });

  it('knows which preset a tree is in, and none for a tree made by hand', () => {
    for (const p of LAYOUT_PRESETS) expect(presetOf(presetLayout(p, [4, 5, 6, 7]))).toBe(p);
    expect(presetOf(h(leaf(1), v(leaf(2), leaf(3)), 30))).toBeNull();
    expect(presetOf(null)).toBeNull();
    expect(sameLayout(h(leaf(1), leaf(2)), h(leaf(1), leaf(2)))).toBe(true);
    expect(sameLayout(h(leaf(1), leaf(2)), v(leaf(1), leaf(2)))).toBe(false);
    expect(sameLayout(h(leaf(1), leaf(2)), h(leaf(2), leaf(1)))).toBe(false);
  });

  it('spreads a lopsided tree evenly along each split, keeping its shape', () => {
    // [1 | [2 | 3]] with 1 at 80%: three columns, a third each; the stack under 4 counts once.
    const t = spread(h(leaf(1), h(leaf(2), v(leaf(3), leaf(4), 90), 20), 80));
    expect(leaves(t)).toEqual([1, 2, 3, 4]);
    const b = bodies(t);
    const w = [1, 2, 3].map((p) => b.get(p)!.w);
    expect(Math.max(...w) - Math.min(...w)).toBeLessThanOrEqual(1);
    expect(Math.abs(b.get(3)!.h - b.get(4)!.h)).toBeLessThanOrEqual(1);
  });
});
