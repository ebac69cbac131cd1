import { describe, expect, it } from 'vitest';
import { makeConfig } from './config';
import type { Detection } from './convergence';
import { applyDetections, emptyPredictions, recordCollision, type PredictionEnv } from './predictions';

const cfg = makeConfig();
function env(o: Partial<PredictionEnv> = {}): PredictionEnv {
  let n = 0;
  return { now: 1000, cfg, newId: () => `p${++n}`, label: (x) => x, live: () => true, coordinated: () => false, ...o };
}
const det = (a = 'ada', b = 'bob'): Detection => ({ type: 'approaching', a, b, topics: ['auth'], domain: null, confidence: 0.4, distance: 2 });

describe('prediction lifecycle', () => {
  it('creates a prediction once and updates it while the signal lasts', () => {
    const st = emptyPredictions(0.35);
    expect(applyDetections(st, [det()], env()).created).toHaveLength(1);
    expect(applyDetections(st, [{ ...det(), confidence: 0.6 }], env({ now: 2000 })).created).toHaveLength(0);
    expect(st.active).toHaveLength(1);
    expect(st.active[0]).toMatchObject({ confidence: 0.6, updatedAt: 2000, createdAt: 1000 });
  });

  it('resolves a vanished signal after two misses: prevented when the pair coordinated, else a false positive', () => {
    for (const [coordinated, outcome] of [[true, 'prevented'], [false, 'false-positive']] as const) {
      const st = emptyPredictions(0.35);
      applyDetections(st, [det()], env());
      expect(applyDetections(st, [], env({ coordinated: () => coordinated })).resolved).toEqual([]);
      expect(applyDetections(st, [], env({ coordinated: () => coordinated })).resolved.map((r) => r.outcome)).toEqual([outcome]);
    }
  });

  it('keeps a pair’s predictions while any of its signals lasts (signals trade places; that is no false alarm)', () => {
    const st = emptyPredictions(0.35);
    applyDetections(st, [det()], env());
    const mutual = { ...det(), type: 'mutual-deepening' as const };
    for (let i = 0; i < 5; i++) expect(applyDetections(st, [mutual], env()).resolved).toEqual([]);
    expect(st.active.map((p) => p.type)).toEqual(['approaching', 'mutual-deepening']);
    applyDetections(st, [], env());
    expect(applyDetections(st, [], env()).resolved.map((r) => r.outcome)).toEqual(['false-positive', 'false-positive']);
  });

  it('expires a prediction whose agent went away or that outlived its TTL', () => {
    const st = emptyPredictions(0.35);
    applyDetections(st, [det('ada', 'bob'), det('cy', 'dee')], env());
    const r = applyDetections(st, [det('cy', 'dee')], env({ live: (x) => x !== 'bob' }));
    expect(r.resolved.map((x) => [x.a, x.outcome])).toEqual([['ada', 'expired']]);
    const late = applyDetections(st, [det('cy', 'dee')], env({ now: 1000 + cfg.predictionTtlMs }));
    expect(late.resolved.map((x) => [x.a, x.outcome])).toEqual([['cy', 'expired']]);
  });

  it('resolves every open prediction about a pair as occurred when they collide', () => {
    const st = emptyPredictions(0.35);
    applyDetections(st, [det(), { ...det(), type: 'mutual-deepening' }], env());
    expect(recordCollision(st, 'bob', 'ada', env()).resolved.map((r) => r.outcome)).toEqual(['occurred', 'occurred']);
    expect(st.accuracy).toMatchObject({ occurred: 2, missed: 0 });
  });

  it('counts a collision nobody predicted as missed', () => {
    const st = emptyPredictions(0.35);
    recordCollision(st, 'ada', 'bob', env());
    expect(st.accuracy).toMatchObject({ occurred: 1, missed: 1 });
  });
});

/** Feeds n resolutions of a kind through the real lifecycle (create, then collide or vanish). */
function resolveMany(st: ReturnType<typeof emptyPredictions>, outcomes: ('fp' | 'occ' | 'prev')[]) {
  const cals = [];
  for (const [i, o] of outcomes.entries()) {
    const d = det(`a${i}`, `b${i}`);
    applyDetections(st, [d], env());
    if (o === 'occ') cals.push(...recordCollision(st, d.a, d.b, env()).calibrations);
    else {
      const e = env({ coordinated: () => o === 'prev' });
      applyDetections(st, [], e);
      cals.push(...applyDetections(st, [], e).calibrations);
    }
  }
  return cals;
}

describe('self-calibration', () => {
  it('raises the threshold after 10 resolutions with more than 30% false positives', () => {
    const st = emptyPredictions(0.35);
    const cals = resolveMany(st, [...Array(4).fill('fp'), ...Array(6).fill('prev')]);
    expect(cals).toEqual([{ from: 0.35, to: 0.4, falsePositiveRate: 0.4, occurredRate: 0 }]);
    expect(st.accuracy.thresholdAdjustments).toBe(1);
  });

  it('leaves it alone at exactly 30% false positives and 10% collisions', () => {
    const st = emptyPredictions(0.35);
    expect(resolveMany(st, [...Array(3).fill('fp'), 'occ', ...Array(6).fill('prev')])).toEqual([]);
    expect(st.threshold).toBe(0.35);
  });

  it('lowers it when more than 10% collided, even if false positives are also high', () => {
    const st = emptyPredictions(0.35);
    expect(resolveMany(st, [...Array(5).fill('fp'), 'occ', 'occ', ...Array(3).fill('prev')]).map((c) => c.to)).toEqual([0.3]);
  });

  it('calibrates only once per 10 resolutions', () => {
    const st = emptyPredictions(0.35);
    expect(resolveMany(st, Array(9).fill('fp'))).toEqual([]);
    expect(resolveMany(st, ['fp'])).toHaveLength(1);
  });

  it('moves the right way over a long run and stays within [0.15, 0.70]', () => {
    const up = emptyPredictions(0.35);
    const seen: number[] = [];
    for (let i = 0; i < 30; i++) {
      resolveMany(up, Array(10).fill('fp'));
      seen.push(up.threshold);
    }
    expect(seen.slice(0, 8)).toEqual([0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.7]);
    expect(Math.max(...seen)).toBe(0.7);
    const down = emptyPredictions(0.35);
    for (let i = 0; i < 30; i++) resolveMany(down, Array(10).fill('occ'));
    expect(down.threshold).toBe(0.15);
    expect(down.accuracy.thresholdAdjustments).toBe(4);
  });
});
