// A flooding pane is drawn every FLOOD_REDRAW_MS, and at once and every frame again
// when the flood ends, a key is typed or it is resized. The gate is a fake that
// records what the throttle asks of xterm's renderer; the clock is the test's.
// The real gate over xterm's render service is driven in Chromium by
// test/e2e/stream.test.ts ("draws a flooding pane a few times a second").
import { describe, expect, it } from 'vitest';
import { FLOOD_REDRAW_MS, FloodRedraw, type RedrawClock, type RenderGate } from './floodRedraw';

function rig(refuse = false) {
  const calls: string[] = [];
  const gate: RenderGate = {
    hold: () => (calls.push('hold'), !refuse),
    draw: () => void calls.push('draw'),
    free: () => void calls.push('free'),
  };
  let tick: (() => void) | null = null;
  const clock: RedrawClock = {
    every(fn, ms) {
      expect(ms).toBe(FLOOD_REDRAW_MS);
      tick = fn;
      return () => (tick = null);
    },
  };
  return { calls, r: new FloodRedraw(gate, clock), tick: () => tick?.(), ticking: () => tick !== null };
}

describe('FloodRedraw', () => {
  it('holds drawing while a flood is parsed and draws once a period', () => {
    const { calls, r, tick } = rig();
    r.flood();
    expect(r.holding).toBe(true);
    r.parsed(64 << 10);
    tick();
    r.parsed(64 << 10);
    tick();
    expect(calls).toEqual(['hold', 'draw', 'draw']);
  });

  it('draws at once and every frame again when a period passes with nothing parsed', () => {
    const { calls, r, tick, ticking } = rig();
    r.flood();
    r.parsed(1);
    tick();
    tick();
    expect(calls).toEqual(['hold', 'draw', 'free']);
    expect(r.holding).toBe(false);
    expect(ticking()).toBe(false);
  });

  it('lets go at once for a key, a resize or disposal, and holds again for the next flood', () => {
    const { calls, r, ticking } = rig();
    r.flood();
    r.release();
    expect(calls).toEqual(['hold', 'free']);
    expect(ticking()).toBe(false);
    r.release(); // not held: nothing to do
    r.flood();
    expect(calls).toEqual(['hold', 'free', 'hold']);
    expect(r.holding).toBe(true);
  });

  it('stays out of the way when drawing is already stopped by someone else (the pane is out of view)', () => {
    const { calls, r, ticking } = rig(true);
    r.flood();
    expect(r.holding).toBe(false);
    expect(ticking()).toBe(false);
    r.release();
    expect(calls).toEqual(['hold']);
  });

  it('re-asserts the hold on each flood batch (the pane came back into view meanwhile)', () => {
    const { calls, r } = rig();
    r.flood();
    r.flood();
    expect(calls).toEqual(['hold', 'hold']);
  });

  it('does nothing without a gate (xterm’s internals moved): every frame is drawn as xterm does', () => {
    const r = new FloodRedraw(null);
    r.flood();
    r.parsed(10);
    r.release();
    expect(r.holding).toBe(false);
  });
});
