// Snap zones for floating panes: edges give halves, corners quarters, the top the
// whole screen; edges stick; pixels become whole cells inside the viewport.
import { describe, expect, it } from 'vitest';
import { stick, toCells, zoneAt, zoneRect } from './snap';

describe('zones', () => {
  it('offers a half at an edge and a quarter near a corner', () => {
    expect(zoneAt(5, 400, 1000, 800)).toBe('left');
    expect(zoneAt(995, 400, 1000, 800)).toBe('right');
    expect(zoneAt(500, 795, 1000, 800)).toBe('bottom');
    expect(zoneAt(500, 3, 1000, 800)).toBe('full');
    expect(zoneAt(3, 50, 1000, 800)).toBe('top-left');
    expect(zoneAt(900, 2, 1000, 800)).toBe('top-right');
    expect(zoneAt(2, 750, 1000, 800)).toBe('bottom-left');
    expect(zoneAt(998, 790, 1000, 800)).toBe('bottom-right');
    expect(zoneAt(500, 400, 1000, 800)).toBeNull();
  });

  it('turns zones into the halves and quarters of the screen', () => {
    expect(zoneRect('right', 1000, 800)).toEqual({ x: 500, y: 0, w: 500, h: 800 });
    expect(zoneRect('bottom-left', 1000, 800)).toEqual({ x: 0, y: 400, w: 500, h: 400 });
    expect(zoneRect('full', 1000, 800)).toEqual({ x: 0, y: 0, w: 1000, h: 800 });
  });
});

describe('stick and cells', () => {
  it('pulls a rectangle within a few pixels of an edge onto it', () => {
    expect(stick({ x: 7, y: 300, w: 200, h: 100 }, 1000, 800)).toEqual({ x: 0, y: 300, w: 200, h: 100 });
    expect(stick({ x: 795, y: 695, w: 200, h: 100 }, 1000, 800)).toEqual({ x: 800, y: 700, w: 200, h: 100 });
    expect(stick({ x: 300, y: 300, w: 200, h: 100 }, 1000, 800)).toEqual({ x: 300, y: 300, w: 200, h: 100 });
  });

  it('rounds to whole cells and keeps the rectangle inside the viewport', () => {
    expect(toCells({ x: 85, y: 34, w: 400, h: 170 }, 8, 17, 100, 40)).toEqual({ x: 11, y: 2, w: 50, h: 10 });
    expect(toCells({ x: 790, y: 0, w: 400, h: 17 }, 8, 17, 100, 40)).toEqual({ x: 50, y: 0, w: 50, h: 1 });
  });
});
