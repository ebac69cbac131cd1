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

function resolve(st: PredictionState, p: Prediction, outcome: Outcome, env: PredictionEnv, out: PassResult): void {
  st.active = st.active.filter((x) => x !== p);
  const r: Resolution = { ...p, outcome, resolvedAt: env.now };
  st.resolved.push(r);
  if (st.resolved.length > env.cfg.maxResolved) st.resolved.splice(0, st.resolved.length - env.cfg.maxResolved);
  out.resolved.push(r);
  count(st, outcome, env, out);
}

/** Folds one pass's detections into the active predictions. */
export function applyDetections(st: PredictionState, dets: readonly Detection[], env: PredictionEnv): PassResult {
  const out: PassResult = { created: [], resolved: [], calibrations: [] };
  const seen = new Set<string>();
  const byKey = new Map(st.active.map((p) => [predictionKey(p), p]));
  for (const d of dets) {
    const key = predictionKey(d);
    seen.add(key);
    const rec = recommend(d, env.label);
    const p = byKey.get(key);
    if (p) {
      Object.assign(p, { topics: d.topics, domain: d.domain, confidence: d.confidence, distance: d.distance, recommendation: rec, updatedAt: env.now, misses: 0 });
      continue;
    }
    const fresh: Prediction = { id: env.newId(), ...d, recommendation: rec, createdAt: env.now, updatedAt: env.now, misses: 0 };
    st.active.push(fresh);
    byKey.set(key, fresh);
    out.created.push(fresh);
  }
  for (const p of [...st.active]) {
    if (!env.live(p.a) || !env.live(p.b) || env.now - p.createdAt >= env.cfg.predictionTtlMs) {
      resolve(st, p, 'expired', env, out);
      continue;
    }
    if (seen.has(predictionKey(p))) continue;
    p.misses++;
    if (p.misses < env.cfg.resolveAfterMisses) continue;
    resolve(st, p, env.coordinated(p.a, p.b, p.createdAt) ? 'prevented' : 'false-positive', env, out);
  }
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
