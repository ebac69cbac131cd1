// The engine's predictions: a convergence pass over the live agents
// (convergence.ts detects, predictions.ts keeps the lifecycle and calibrates),
// collisions and explicit verdicts, each result reported as events once.
import type { AgentAwareness, Outcome, PredictionState, Resolution } from '../../kits/protocol/awareness';
import type { AwarenessConfig } from './config';
import { detectAll, profileOf } from './convergence';
import type { DomainIndex } from './domains';
import type { AwarenessEvent } from './engineTypes';
import { applyDetections, recordCollision, resolveById, type PassResult, type PredictionEnv } from './predictions';

export interface ForecastHost {
  now(): number;
  cfg: AwarenessConfig;
  newId(): string;
  label(name: string): string;
  /** Live agents, by name. */
  live(): AgentAwareness[];
  /** Is the agent known and not stale? */
  isLive(name: string): boolean;
  /** Did the two coordinate (a message between them, a claim by either) since then? */
  coordinated(a: string, b: string, since: number): boolean;
  /** The domain index as it stands (profiles are cached per index). */
  idx(): DomainIndex;
  /** The repository of a cwd (its git top level), or null. */
  repoOf(cwd: string): string | null;
  emit(e: AwarenessEvent): void;
  /** The predictions' part of the state changed. */
  changed(): void;
}

export class Forecaster {
  constructor(
    readonly st: PredictionState,
    private readonly h: ForecastHost,
  ) {}

  private env(): PredictionEnv {
    const h = this.h;
    return { now: h.now(), cfg: h.cfg, newId: () => h.newId(), label: h.label, live: (n) => h.isLive(n), coordinated: (a, b, since) => h.coordinated(a, b, since) };
  }

  private report(r: PassResult): void {
    for (const p of r.created) this.h.emit({ kind: 'predicted', prediction: p });
    for (const x of r.resolved) this.h.emit({ kind: 'resolved', resolution: x });
    for (const c of r.calibrations) this.h.emit({ kind: 'calibrated', calibration: c });
    this.h.changed();
  }

  /** One convergence pass over every live agent. */
  pass(): PassResult {
    const idx = this.h.idx();
    const { topN, window } = this.h.cfg;
    const profiles = this.h.live().map((a) => profileOf(a, idx, topN, (d) => this.h.repoOf(d)));
    const r = applyDetections(this.st, detectAll(profiles, this.st.threshold, idx, window), this.env());
    this.report(r);
    return r;
  }

  /** Two agents wrote one file (or one wrote into the other's claim). */
  collision(a: string, b: string, file: string): void {
    this.h.emit({ kind: 'collision', a, b, file });
    this.report(recordCollision(this.st, a, b, this.env()));
  }

  /** An explicit verdict on an open prediction; null when there is none by that id. */
  resolve(id: string, outcome: Outcome): Resolution | null {
    const r = resolveById(this.st, id, outcome, this.env());
    if (!r) return null;
    this.report(r);
    return r.resolved[0] ?? null;
  }
}
