// Convergence and calibration over long synthetic sequences through the whole
// engine: pairs of agents converge and then either drift apart unannounced
// (false alarms) or collide on a file (occurred), and the threshold follows.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/awareness/clock';
import { Awareness } from '../../server/awareness/engine';

/** A seeded generator, so a failure reproduces. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const SHARED = ['cache', 'redis', 'eviction', 'ttl', 'warmup', 'shard'];
const OWN = (tag: string) => Array.from({ length: 6 }, (_, i) => `${tag}w${String.fromCharCode(97 + i)}`);

/** One episode: two fresh agents converge, then drift apart or collide. */
function episode(aw: Awareness, clock: ManualClock, i: number, end: 'drift' | 'talk' | 'collide', rand: () => number) {
  const a = `a${i}`;
  const b = `b${i}`;
  const pick = (xs: string[], n: number) => [...xs].sort(() => rand() - 0.5).slice(0, n).join(' ');
  for (let k = 0; k < 2; k++) {
    aw.prompt(a, pick(OWN(a), 4));
    aw.prompt(b, pick(OWN(b), 4));
  }
  for (let k = 0; k < 4; k++) {
    clock.advance(10_000);
    aw.prompt(a, `${pick(SHARED, 4)} ${pick(OWN(a), 1)}`);
    aw.prompt(b, `${pick(SHARED, 4)} ${pick(OWN(b), 1)}`);
  }
  if (end === 'talk') aw.message({ from: a, target: { kind: 'agent', name: b }, type: 'info', priority: 'normal', text: 'I take the cache, you the shard' });
  if (end === 'collide') {
    aw.tool(a, { files: [`/p/${i}/cache.ts`], write: true });
    aw.tool(b, { files: [`/p/${i}/cache.ts`], write: true });
  } else {
    for (let k = 0; k < 10; k++) {
      aw.prompt(a, pick(OWN(a), 4));
      aw.prompt(b, pick(OWN(b), 4));
    }
  }
  aw.end(a);
  aw.end(b);
}

describe('calibration over long runs', () => {
  it('raises the threshold when predictions keep turning out false, and stops at 0.70', () => {
    const clock = new ManualClock();
    const aw = new Awareness({ clock });
    const rand = rng(1);
    const seen = [aw.predictionState().threshold];
    for (let i = 0; i < 120; i++) {
      episode(aw, clock, i, 'drift', rand);
      seen.push(aw.predictionState().threshold);
    }
    const st = aw.predictionState();
    expect(st.accuracy.falsePositive).toBeGreaterThan(50);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(st.threshold).toBe(0.7);
    expect(Math.max(...seen)).toBe(0.7);
  });

  it('lowers it when predicted collisions happen anyway, and stops at 0.15', () => {
    const clock = new ManualClock();
    const aw = new Awareness({ clock });
    const rand = rng(2);
    const seen = [aw.predictionState().threshold];
    for (let i = 0; i < 120; i++) {
      episode(aw, clock, i, 'collide', rand);
      seen.push(aw.predictionState().threshold);
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeLessThanOrEqual(seen[i - 1]!);
    expect(aw.predictionState().threshold).toBe(0.15);
    expect(Math.min(...seen)).toBe(0.15);
  });

  it('settles when false alarms and collisions are within bounds', () => {
    const clock = new ManualClock();
    const aw = new Awareness({ clock });
    const rand = rng(3);
    // Warned pairs message each other and drift apart (prevented); one in ten does not (false alarms).
    const seen: number[] = [];
    for (let i = 0; i < 60; i++) {
      episode(aw, clock, i, i % 10 === 5 ? 'drift' : 'talk', rand);
      seen.push(aw.predictionState().threshold);
    }
    const st = aw.predictionState();
    expect(st.accuracy.prevented).toBeGreaterThan(50);
    expect(st.accuracy.falsePositive).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([0.35]));
  });
});
