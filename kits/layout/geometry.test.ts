// Placements as the server computes them and the window draws them: frames in
// cells, bodies inside them by the frame's cost, quadrants, zoom, floats, dividers.
import { describe, expect, it } from 'vitest';
import type { Floating, LayoutNode } from '../protocol/model';
import { bodyFor, chromeCells, dividers, HEADLESS_CHROME, placements, quadrantOf, ratioAt, wholeBody } from './geometry';

const leaf = (pane: number): LayoutNode => ({ type: 'leaf', pane });
const h = (a: LayoutNode, b: LayoutNode, ratio = 50): LayoutNode => ({ type: 'split', direction: 'horizontal', ratio, a, b });
const v = (a: LayoutNode, b: LayoutNode, ratio = 50): LayoutNode => ({ type: 'split', direction: 'vertical', ratio, a, b });
const float = (pane: number, x: number, y: number, w: number, hh: number, visible = true): Floating => ({ pane, x, y, w, h: hh, z: 1, layer: 'default', visible });
const vp = { cols: 160, rows: 48, chrome: { cols: 1, rows: 2 } };
const by = (ps: ReturnType<typeof placements>) => Object.fromEntries(ps.map((p) => [p.pane, p]));

describe('placements', () => {
  it('gives one pane the whole view, its body smaller by the frame’s cost', () => {
    expect(placements({ layout: leaf(1), floating: [], zoomed: null, viewport: vp })).toEqual([
      { pane: 1, x: 0, y: 0, w: 160, h: 48, cols: 159, rows: 46, quadrant: 'full', floating: false, shown: true },
    ]);
  });

  it('counts the tag as one row when no window has measured the frame', () => {
    const [p] = placements({ layout: leaf(1), floating: [], zoomed: null, viewport: { cols: 80, rows: 24 } });
    expect(HEADLESS_CHROME).toEqual({ cols: 0, rows: 1 });
    expect(p).toMatchObject({ cols: 80, rows: 23 });
  });

  it('splits whole cells so tiles abut and cover the view, each with its quadrant', () => {
    const p = by(placements({ layout: h(leaf(1), v(leaf(2), leaf(3), 25), 40), floating: [], zoomed: null, viewport: vp }));
    expect(p[1]).toMatchObject({ x: 0, y: 0, w: 64, h: 48, cols: 63, rows: 46, quadrant: 'left' });
    expect(p[2]).toMatchObject({ x: 64, y: 0, w: 96, h: 12, cols: 95, rows: 10, quadrant: 'top-right' });
    expect(p[3]).toMatchObject({ x: 64, y: 12, w: 96, h: 36, cols: 95, rows: 34, quadrant: 'bottom-right' });
  });

  it('gives a zoomed pane the whole view and hides the rest at their own sizes; its quadrant stays where it lives', () => {
    const p = by(placements({ layout: h(leaf(1), leaf(2)), floating: [float(3, 10, 10, 40, 12)], zoomed: 2, viewport: vp }));
    expect(p[2]).toMatchObject({ x: 0, y: 0, w: 160, h: 48, cols: 159, rows: 46, quadrant: 'right', shown: true });
    expect(p[1]).toMatchObject({ w: 80, cols: 79, shown: false });
    expect(p[3]).toMatchObject({ shown: false });
  });

  it('places floats by their own rectangle, quadrant from where they sit; a hidden one keeps its size', () => {
    const p = by(placements({ layout: leaf(1), floating: [float(2, 0, 30, 40, 12), float(3, 100, 0, 40, 12, false)], zoomed: null, viewport: vp }));
    expect(p[2]).toMatchObject({ x: 0, y: 30, w: 40, h: 12, cols: 39, rows: 10, quadrant: 'bottom-left', floating: true, shown: true });
    expect(p[3]).toMatchObject({ cols: 39, rows: 10, quadrant: 'top-right', shown: false });
  });

  it('shows a float placed for a wider window inside a narrower one: moved in, narrowed to fit, small ones kept small', () => {
    const narrow = { cols: 60, rows: 20 };
    const p = by(placements({ layout: leaf(1), floating: [float(2, 40, 5, 80, 30), float(3, 50, 18, 6, 3)], zoomed: null, viewport: narrow }));
    // x 40 + w 80 ran 60 columns past the view's edge, and its program was 79 columns wide.
    expect(p[2]).toMatchObject({ x: 0, y: 0, w: 60, h: 20 });
    expect(p[2]!.cols).toBeLessThanOrEqual(60);
    expect(p[3]).toMatchObject({ x: 50, y: 17, w: 6, h: 3 });
    // The window grown again: the float is where it was put.
    expect(by(placements({ layout: leaf(1), floating: [float(2, 40, 5, 80, 30)], zoomed: null, viewport: vp }))[2]).toMatchObject({ x: 40, y: 5, w: 80, h: 30 });
  });

  it('sizes a pane before it exists from the layout that will hold it', () => {
    expect(bodyFor({ layout: h(leaf(1), leaf(-1)), floating: [], zoomed: null, viewport: vp }, -1)).toEqual({ cols: 79, rows: 46 });
    expect(wholeBody(vp)).toEqual({ cols: 159, rows: 46 });
  });
});

describe('quadrantOf', () => {
  it('names corners, halves that span an axis, and the whole view', () => {
    const q = (x: number, y: number, w: number, hh: number) => quadrantOf({ x, y, w, h: hh }, { cols: 100, rows: 100 });
    expect(q(0, 0, 50, 50)).toBe('top-left');
    expect(q(50, 50, 50, 50)).toBe('bottom-right');
    expect(q(0, 0, 50, 100)).toBe('left');
    expect(q(0, 50, 100, 50)).toBe('bottom');
    expect(q(0, 0, 100, 100)).toBe('full');
  });
});

describe('chromeCells', () => {
  it('rounds the frame’s pixels up to whole cells, so the body always fits', () => {
    expect(chromeCells({ across: 7, down: 27 }, { w: 7.83, h: 15 })).toEqual({ cols: 1, rows: 2 });
    expect(chromeCells({ across: 7, down: 27 }, { w: 6.5, h: 27 })).toEqual({ cols: 2, rows: 1 });
  });
});

describe('dividers', () => {
  it('puts a divider where each split cuts, naming the pane a drag addresses', () => {
    const d = dividers(h(leaf(1), v(leaf(2), leaf(3))), { cols: 100, rows: 40 });
    expect(d).toHaveLength(2);
    expect(d[0]).toMatchObject({ path: '', direction: 'horizontal', line: { x: 50, y: 0, w: 0, h: 40 }, ratioPane: 1, edgePane: 1 });
    expect(d[1]).toMatchObject({ path: 'b', direction: 'vertical', line: { x: 50, y: 20, w: 50, h: 0 }, ratioPane: 2, edgePane: 2 });
  });

  it('maps a pointer in cells to a ratio within the split, clamped to 10..90', () => {
    const split = { x: 0, y: 0, w: 100, h: 40 };
    expect(ratioAt(split, 'horizontal', { x: 30, y: 0 })).toBe(30);
    expect(ratioAt(split, 'vertical', { x: 0, y: 39.9 })).toBe(90);
  });
});
