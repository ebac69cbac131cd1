import { describe, expect, it } from 'vitest';
import type { LayoutNode } from '../protocol/model';
import { clampRatio, insertSplit, invalidity, leaves, neighbour, rects, removeLeaf, resizeEdge, setRatio, swapLeaves } from './tree';

const vp = { cols: 100, rows: 40 };

/** 1 | 2 over 3 : pane 1 on the left, 2 top-right, 3 bottom-right. */
function three(): LayoutNode {
  let t = insertSplit(null, null, 1, 'horizontal', 50);
  t = insertSplit(t, 1, 2, 'horizontal', 50);
  return insertSplit(t, 2, 3, 'vertical', 50);
}

describe('layout tree', () => {
  it('clamps ratios into 10..90', () => {
    expect(clampRatio(5)).toBe(10);
    expect(clampRatio(95)).toBe(90);
    expect(clampRatio(Number.NaN)).toBe(50);
    const t = insertSplit({ type: 'leaf', pane: 1 }, 1, 2, 'horizontal', 300);
    expect(t.type === 'split' && t.ratio).toBe(90);
  });

  it('keeps every leaf a live pane and every ratio in range through random edits', () => {
    let t: LayoutNode | null = null;
    const live = new Set<number>();
    let n = 0;
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 500; i++) {
      const ls = leaves(t);
      if (ls.length === 0 || rnd() < 0.55) {
        const target = ls.length ? ls[Math.floor(rnd() * ls.length)]! : null;
        n++;
        t = insertSplit(t, target, n, rnd() < 0.5 ? 'horizontal' : 'vertical', rnd() * 120 - 10);
        live.add(n);
      } else if (rnd() < 0.5) {
        const victim = ls[Math.floor(rnd() * ls.length)]!;
        t = removeLeaf(t, victim);
        live.delete(victim);
      } else {
        const p = ls[Math.floor(rnd() * ls.length)]!;
        t = resizeEdge(t, p, (['left', 'right', 'up', 'down'] as const)[Math.floor(rnd() * 4)]!, Math.floor(rnd() * 200), vp) ?? t;
      }
      expect(invalidity(t, live)).toBeNull();
      expect(new Set(leaves(t))).toEqual(live);
    }
  });

  it('collapses a split when one side closes, so the sibling takes the space', () => {
    const t = removeLeaf(three(), 3)!;
    const r = rects(t, vp);
    expect(r.get(2)).toEqual({ x: 50, y: 0, w: 50, h: 40 });
    expect(removeLeaf(removeLeaf(t, 2), 1)).toBeNull();
  });

  it('tiles the viewport exactly with no overlap', () => {
    const r = rects(three(), vp);
    expect(r.get(1)).toEqual({ x: 0, y: 0, w: 50, h: 40 });
    expect(r.get(2)).toEqual({ x: 50, y: 0, w: 50, h: 20 });
    expect(r.get(3)).toEqual({ x: 50, y: 20, w: 50, h: 20 });
    const area = [...r.values()].reduce((a, x) => a + x.w * x.h, 0);
    expect(area).toBe(vp.cols * vp.rows);
  });

  it('picks the geometric neighbour for directional focus', () => {
    const r = rects(three(), vp);
    expect(neighbour(r, 1, 'right')).toBe(2);
    expect(neighbour(r, 3, 'left')).toBe(1);
    expect(neighbour(r, 2, 'down')).toBe(3);
    expect(neighbour(r, 3, 'up')).toBe(2);
    expect(neighbour(r, 1, 'left')).toBeNull();
    expect(neighbour(r, 3, 'next', [1, 2, 3])).toBe(1);
    expect(neighbour(r, 1, 'prev', [1, 2, 3])).toBe(3);
  });

  it('moves the right edge of a pane by N cells', () => {
    const t = resizeEdge(three(), 1, 'right', 10, vp)!;
    expect(rects(t, vp).get(1)!.w).toBe(60);
    const back = resizeEdge(t, 2, 'left', 10, vp)!;
    expect(rects(back, vp).get(1)!.w).toBe(50);
    expect(resizeEdge(three(), 1, 'left', 5, vp)).toBeNull();
    const down = resizeEdge(three(), 2, 'down', 4, vp)!;
    expect(rects(down, vp).get(2)!.h).toBe(24);
  });

  it('sets the nearest enclosing ratio for a divider drag and swaps leaves', () => {
    const t = setRatio(three(), 3, 'horizontal', 30)!;
    expect(rects(t, vp).get(1)!.w).toBe(30);
    expect(leaves(swapLeaves(three(), 1, 3))).toEqual([3, 2, 1]);
  });
});
