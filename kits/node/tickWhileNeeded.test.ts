import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TickWhileNeeded } from './tickWhileNeeded';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('TickWhileNeeded', () => {
  it('ticks only between a poke and the first tick that leaves nothing needed', () => {
    let work = 0;
    const ticks: number[] = [];
    const t = new TickWhileNeeded(100, () => work > 0, () => ticks.push(work--));
    t.poke(); // nothing needed: no timer at all
    expect(t.running).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    work = 3;
    t.poke();
    t.poke(); // a second poke while running adds nothing
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(ticks).toEqual([3, 2, 1]);
    expect(t.running).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    work = 1;
    t.poke();
    vi.advanceTimersByTime(1_000);
    expect(ticks).toEqual([3, 2, 1, 1]);
  });

  it('makes no ticks once stopped, poked or not', () => {
    let n = 0;
    const t = new TickWhileNeeded(100, () => true, () => n++);
    t.poke();
    vi.advanceTimersByTime(250);
    t.stop();
    t.poke();
    vi.advanceTimersByTime(1_000);
    expect(n).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});
