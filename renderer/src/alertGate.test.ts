import { describe, expect, it } from 'vitest';
import { AlertGate, type GateClock } from './alertGate';

/** A fake clock: timers run when the test advances time. */
function fakeClock() {
  let t = 0;
  let timers: { at: number; f: () => void; id: number }[] = [];
  let next = 1;
  const clock: GateClock = {
    now: () => t,
    set: (f, ms) => {
      const id = next++;
      timers.push({ at: t + ms, f, id });
      return id;
    },
    clear: (h) => (timers = timers.filter((x) => x.id !== h)),
  };
  const advance = (ms: number) => {
    const end = t + ms;
    for (;;) {
      const due = timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((x) => x !== due);
      t = due.at;
      due.f();
    }
    t = end;
  };
  return { clock, advance };
}

describe('AlertGate', () => {
  it('fires once the condition has held for the settle time', () => {
    const { clock, advance } = fakeClock();
    const g = new AlertGate(400, 5000, clock);
    const fired: string[] = [];
    g.offer('1:waiting', () => fired.push('a'));
    advance(399);
    expect(fired).toEqual([]);
    advance(1);
    expect(fired).toEqual(['a']);
  });

  it('drops an alert whose condition went away before it settled', () => {
    const { clock, advance } = fakeClock();
    const g = new AlertGate(400, 5000, clock);
    const fired: string[] = [];
    g.offer('1:waiting', () => fired.push('a'));
    advance(200);
    g.withdraw('1:waiting');
    advance(1000);
    expect(fired).toEqual([]);
  });

  it('turns a flapping state into one alert per cooldown, and still tells the state it settles in', () => {
    const { clock, advance } = fakeClock();
    const g = new AlertGate(400, 5000, clock);
    let fired = 0;
    for (let i = 0; i < 20; i++) {
      g.offer('1:waiting', () => fired++);
      advance(500); // waiting long enough to settle
      g.withdraw('1:waiting');
      advance(100);
    }
    // 12 s of flapping: the first at 0.4 s, then at most one per 5 s.
    expect(fired).toBeLessThanOrEqual(3);
    const before = fired;
    g.offer('1:waiting', () => fired++);
    advance(6000);
    expect(fired).toBe(before + 1);
  });

  it('keeps keys apart: one pane’s cooldown does not hold back another’s', () => {
    const { clock, advance } = fakeClock();
    const g = new AlertGate(400, 5000, clock);
    const fired: string[] = [];
    g.offer('1:waiting', () => fired.push('1'));
    g.offer('2:waiting', () => fired.push('2'));
    advance(400);
    expect(fired.sort()).toEqual(['1', '2']);
  });
});
