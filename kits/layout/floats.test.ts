// Floats from the keyboard and new floats: cascading, moving and resizing stay in the view.
import { describe, expect, it } from 'vitest';
import type { Floating } from '../protocol/model';
import { CASCADE, cascadeRect, centredRect, clearOf, FLOAT_MIN, movedRect, resizedRect } from './floats';

const vp = { cols: 100, rows: 40 };
const f = (x: number, y: number, z = 1, visible = true): Floating => ({ pane: z, x, y, w: 60, h: 24, z, layer: 'default', visible });

describe('cascadeRect', () => {
  it('centres the first float', () => {
    expect(cascadeRect(vp, [])).toEqual(centredRect(vp));
    expect(centredRect(vp)).toEqual({ x: 20, y: 8, w: 60, h: 24 });
  });

  it('offsets each new float from the topmost one instead of covering it', () => {
    const first = cascadeRect(vp, []);
    const second = cascadeRect(vp, [f(first.x, first.y, 1)]);
    expect(second).toMatchObject({ x: first.x + CASCADE.cols, y: first.y + CASCADE.rows });
    const third = cascadeRect(vp, [f(first.x, first.y, 1), f(second.x, second.y, 2)]);
    expect(third).toMatchObject({ x: second.x + CASCADE.cols, y: second.y + CASCADE.rows });
  });

  it('never leaves the view, and ignores hidden floats', () => {
    const r = cascadeRect(vp, [f(40, 16, 1)]);
    expect(r.x + r.w).toBeLessThanOrEqual(vp.cols);
    expect(r.y + r.h).toBeLessThanOrEqual(vp.rows);
    expect(cascadeRect(vp, [f(20, 8, 1, false)])).toEqual(centredRect(vp));
  });
});

describe('keyboard move and resize', () => {
  it('moves by cells and stops at the view’s edge', () => {
    expect(movedRect({ x: 10, y: 5, w: 20, h: 10 }, 'right', 4, vp)).toEqual({ x: 14, y: 5, w: 20, h: 10 });
    expect(movedRect({ x: 78, y: 5, w: 20, h: 10 }, 'right', 4, vp)).toMatchObject({ x: 80 });
    expect(movedRect({ x: 1, y: 0, w: 20, h: 10 }, 'up', 2, vp)).toMatchObject({ y: 0 });
  });

  it('moves the bottom-right corner: right and down grow, left and up shrink, never below the minimum', () => {
    expect(resizedRect({ x: 10, y: 5, w: 20, h: 10 }, 'right', 4, vp)).toEqual({ x: 10, y: 5, w: 24, h: 10 });
    expect(resizedRect({ x: 10, y: 5, w: 20, h: 10 }, 'up', 2, vp)).toEqual({ x: 10, y: 5, w: 20, h: 8 });
    expect(resizedRect({ x: 10, y: 5, w: FLOAT_MIN.w, h: 10 }, 'left', 4, vp)).toMatchObject({ w: FLOAT_MIN.w });
    expect(resizedRect({ x: 90, y: 5, w: 10, h: 10 }, 'right', 4, vp)).toMatchObject({ w: 12, x: 88 });
  });
});

describe('clearOf: a float kept off the pane the person types into', () => {
  const vp = { cols: 120, rows: 40 };
  it('leaves a float that covers nothing of it where it was asked', () => {
    const want = { x: 70, y: 5, w: 40, h: 20 };
    expect(clearOf(want, { x: 0, y: 0, w: 60, h: 40 }, vp)).toEqual(want);
  });
  it('moves one that would cover it into the largest strip beside it, as near as it can, narrowed to fit', () => {
    // The person's tile is the left half: the float goes to the right half, at the row it asked for.
    expect(clearOf({ x: 30, y: 8, w: 72, h: 24 }, { x: 0, y: 0, w: 60, h: 40 }, vp)).toEqual({ x: 60, y: 8, w: 60, h: 24 });
    // The person's tile is the top row band: below it.
    expect(clearOf({ x: 10, y: 5, w: 50, h: 20 }, { x: 0, y: 0, w: 120, h: 15 }, vp)).toEqual({ x: 10, y: 15, w: 50, h: 20 });
  });
  it('finds no room when the pane fills the view or leaves strips smaller than FLOAT_MIN', () => {
    expect(clearOf({ x: 10, y: 5, w: 50, h: 20 }, { x: 0, y: 0, w: 120, h: 40 }, vp)).toBeNull();
    expect(clearOf({ x: 10, y: 5, w: 50, h: 20 }, { x: FLOAT_MIN.w - 1, y: FLOAT_MIN.h - 1, w: 120 - 2 * (FLOAT_MIN.w - 1), h: 40 - 2 * (FLOAT_MIN.h - 1) }, vp)).toBeNull();
  });
});
