// Quadrants from geometry: corners, halves that span, and the whole window.
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../kits/protocol/model';
import { quadrantOf } from './quadrant';
import { quadrants } from './quadrantReporter';

describe('quadrantOf', () => {
  it('names the four corners', () => {
    expect(quadrantOf({ x: 0, y: 0, w: 0.5, h: 0.5 })).toBe('top-left');
    expect(quadrantOf({ x: 0.5, y: 0, w: 0.5, h: 0.5 })).toBe('top-right');
    expect(quadrantOf({ x: 0, y: 0.5, w: 0.5, h: 0.5 })).toBe('bottom-left');
    expect(quadrantOf({ x: 0.5, y: 0.5, w: 0.5, h: 0.5 })).toBe('bottom-right');
  });

  it('names a pane that spans an axis by the side it keeps', () => {
    expect(quadrantOf({ x: 0, y: 0, w: 0.5, h: 1 })).toBe('left');
    expect(quadrantOf({ x: 0.6, y: 0, w: 0.4, h: 1 })).toBe('right');
    expect(quadrantOf({ x: 0, y: 0, w: 1, h: 0.3 })).toBe('top');
    expect(quadrantOf({ x: 0, y: 0.5, w: 1, h: 0.5 })).toBe('bottom');
    expect(quadrantOf({ x: 0, y: 0, w: 1, h: 1 })).toBe('full');
  });

  it('places an uneven pane by its centre', () => {
    expect(quadrantOf({ x: 0, y: 0, w: 0.66, h: 1 })).toBe('left');
    expect(quadrantOf({ x: 0.1, y: 0.6, w: 0.3, h: 0.2 })).toBe('bottom-left');
  });
});

describe('quadrants of a session', () => {
  it('covers tiles by tree position and floats by their rectangle in the viewport', () => {
    const s = {
      layout: { type: 'split', direction: 'horizontal', ratio: 50, a: { type: 'leaf', pane: 1 }, b: { type: 'split', direction: 'vertical', ratio: 50, a: { type: 'leaf', pane: 2 }, b: { type: 'leaf', pane: 3 } } },
      floating: [{ pane: 9, x: 60, y: 30, w: 30, h: 15, z: 1, layer: 'default', visible: true }],
      viewport: { cols: 100, rows: 50 },
    } as unknown as Session;
    expect(Object.fromEntries(quadrants(s))).toEqual({ 1: 'left', 2: 'top-right', 3: 'bottom-right', 9: 'bottom-right' });
  });
});
