// Predictions with a lifecycle: detections become predictions, predictions
// resolve (prevented, occurred, false positive, expired), and every batch of
// resolutions recalibrates the threshold — up on false alarms, down on collisions.
import type { Batch, Outcome, Prediction, PredictionState, Resolution } from '../../kits/protocol/awareness';
import type { AwarenessConfig } from './config';
import { recommend, type Detection } from './convergence';

export interface PredictionEnv {
  now: number;
  cfg: AwarenessConfig;
  newId(): string;
  label(name: string): string;
  /** Is the agent still around (known and not stale)? */
  live(name: string): boolean;
  /** Did the two coordinate (a message between them, a claim by either) since then? */
  coordinated(a: string, b: string, since: number): boolean;
}

export interface Calibration {
  from: number;
  to: number;
  falsePositiveRate: number;
  occurredRate: number;
}

export interface PassResult {
  created: Prediction[];
  resolved: Resolution[];
  calibrations: Calibration[];
}

export function emptyPredictions(threshold: number): PredictionState {
  return {
    active: [],
    resolved: [],
    accuracy: { prevented: 0, occurred: 0, falsePositive: 0, expired: 0, missed: 0, thresholdAdjustments: 0 },
    batch: { prevented: 0, occurred: 0, falsePositive: 0, expired: 0 },
    threshold,
  };
}

/** Cross approach has a direction (a moves onto b); the other signals do not. */
export const predictionKey = (p: { type: string; a: string; b: string }) => `${p.type}|${p.a}|${p.b}`;

const BATCH_KEY: Record<Outcome, keyof Batch> = { prevented: 'prevented', occurred: 'occurred', 'false-positive': 'falsePositive', expired: 'expired' };

/** Thresholds move in hundredths, so repeated steps never drift (0.35 + 0.05 stays 0.4). */
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Counts one outcome and, once a batch is full, recalibrates. */
function count(st: PredictionState, outcome: Outcome, env: PredictionEnv, out: PassResult, missed = false): void {
  st.accuracy[BATCH_KEY[outcome]]++;
  if (missed) st.accuracy.missed++;
  st.batch[BATCH_KEY[outcome]]++;
  const { cfg } = env;
  const total = st.batch.prevented + st.batch.occurred + st.batch.falsePositive + st.batch.expired;
  if (total < cfg.calibrateEvery) return;
  const fp = st.batch.falsePositive / total;
  const occ = st.batch.occurred / total;
  let to = st.threshold;
  // A collision costs an agent's work, a false alarm a glance: when both limits are
  // broken, warning earlier wins.
  if (occ > cfg.occurredLimit) to = st.threshold - cfg.thresholdStep;
  else if (fp > cfg.falsePositiveLimit) to = st.threshold + cfg.thresholdStep;
  to = round2(Math.min(cfg.thresholdMax, Math.max(cfg.thresholdMin, to)));
  if (to !== st.threshold) {
    out.calibrations.push({ from: st.threshold, to, falsePositiveRate: fp, occurredRate: occ });
    st.threshold = to;
    st.accuracy.thresholdAdjustments++;
  }
  st.batch = { prevented: 0, occurred: 0, falsePositive: 0, expired: 0 };
}

/** Records a verdict on a prediction already taken out of the active list. */
function settle(st: PredictionState, p: Prediction, outcome: Outcome, env: PredictionEnv, out: PassResult): void {
  const r: Resolution = { ...p, outcome, resolvedAt: env.now };
  st.resolved.push(r);
  if (st.resolved.length > env.cfg.maxResolved) st.resolved.splice(0, st.resolved.length - env.cfg.maxResolved);
  out.resolved.push(r);
  count(st, outcome, env, out);
}

function resolve(st: PredictionState, p: Prediction, outcome: Outcome, env: PredictionEnv, out: PassResult): void {
  st.active = st.active.filter((x) => x !== p);
  settle(st, p, outcome, env, out);
}

const TYPE_INDEX: Record<string, number> = { 'mutual-deepening': 0, approaching: 1, 'cross-approach': 2, 'domain-proximity': 3 };

/**
 * predictionKey as a number for one pass: names are interned to small integers,
 * since building and hashing thousands of fresh key strings per prompt costs more
 * than the detection itself.
 */
function numericKeys(): { key: (p: { type: string; a: string; b: string }) => number; pair: (p: { a: string; b: string }) => number } {
  const ids = new Map<string, number>();
  const id = (n: string) => {
    let i = ids.get(n);
    if (i === undefined) ids.set(n, (i = ids.size));
    return i;
  };
  // 2^20 names per pass is far beyond any desktop; the products stay exact integers.
  const M = 1_048_576;
  return {
    key: (p) => (TYPE_INDEX[p.type]! * M + id(p.a)) * M + id(p.b),
    pair: (p) => {
      const x = id(p.a);
      const y = id(p.b);
      return x < y ? x * M + y : y * M + x;
    },
  };
}

const sameList = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((t, i) => t === y[i]);

/**
 * Folds one pass's detections into the active predictions. Linear in detections
 * plus predictions: with 100 agents in a few crowded areas there are thousands of
 * each, and this runs on every prompt.
 */
export function applyDetections(st: PredictionState, dets: readonly Detection[], env: PredictionEnv): PassResult {
  const out: PassResult = { created: [], resolved: [], calibrations: [] };
  const seen = new Set<Prediction>();
  const byKey = new Map<number, Prediction>();
  const { key, pair: pairKey } = numericKeys();
  for (const p of st.active) byKey.set(key(p), p);
  const fresh: Prediction[] = [];
  for (const d of dets) {
    const k = key(d);
    const p = byKey.get(k);
    if (p) {
      seen.add(p);
      p.misses = 0;
      if (p.confidence === d.confidence && p.distance === d.distance && sameList(p.topics, d.topics) && p.domain === d.domain) continue;
      // Only a changed prediction gets a new recommendation (the words are what agents read).
      Object.assign(p, { topics: d.topics, domain: d.domain, confidence: d.confidence, distance: d.distance, recommendation: recommend(d, env.label), updatedAt: env.now });
      continue;
    }
    const np: Prediction = { id: env.newId(), ...d, recommendation: recommend(d, env.label), createdAt: env.now, updatedAt: env.now, misses: 0 };
    byKey.set(k, np);
    seen.add(np);
    fresh.push(np);
    out.created.push(np);
  }
  // A pair still converging by any signal keeps all its predictions: signals trade
  // places as trajectories move (approaching becomes mutual deepening), and that is
  // neither a false alarm nor a new warning.
  const pairs = new Set<number>();
  for (const d of dets) pairs.add(pairKey(d));
  const keep: Prediction[] = [];
  const gone: [Prediction, Outcome][] = [];
  for (const p of st.active) {
    if (!env.live(p.a) || !env.live(p.b) || env.now - p.createdAt >= env.cfg.predictionTtlMs) gone.push([p, 'expired']);
    else if (seen.has(p)) keep.push(p);
    else if (pairs.has(pairKey(p))) {
      p.misses = 0;
      keep.push(p);
    }
    else if (++p.misses < env.cfg.resolveAfterMisses) keep.push(p);
    else gone.push([p, env.coordinated(p.a, p.b, p.createdAt) ? 'prevented' : 'false-positive']);
  }
  st.active = [...keep, ...fresh];
  for (const [p, outcome] of gone) settle(st, p, outcome, env, out);
  return out;
}

/**
 * Two agents wrote the same file (or one wrote into the other's claim): every open
 * prediction about the pair resolves as occurred; with none open, the collision
 * was missed, and counts as occurred for calibration (the threshold was too high).
 */
export function recordCollision(st: PredictionState, a: string, b: string, env: PredictionEnv): PassResult {
  const out: PassResult = { created: [], resolved: [], calibrations: [] };
  const pair = st.active.filter((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a));
  for (const p of pair) resolve(st, p, 'occurred', env, out);
  if (pair.length === 0) count(st, 'occurred', env, out, true);
  return out;
}

/** An explicit verdict from a person or an agent (`awareness/resolve`). */
export function resolveById(st: PredictionState, id: string, outcome: Outcome, env: PredictionEnv): PassResult | null {
  const p = st.active.find((x) => x.id === id);
  if (!p) return null;
  const out: PassResult = { created: [], resolved: [], calibrations: [] };
  resolve(st, p, outcome, env, out);
  return out;
}
