// Convergence as a person sees it: one notice per pair of agents, however many
// predictions (approaching, mutual deepening, ...) the engine keeps about them and
// however often a pass re-finds them. A pass that changes what the notice says
// updates it in place; a pair with no open prediction left has its notice withdrawn.
import type { AwarenessNotice, Outcome, Prediction } from '../../kits/protocol/awareness';

/** Topics a notice names at most; the rest are in the predictions. */
export const NOTICE_TOPICS = 4;

export type NoticeChange = { kind: 'notice'; notice: AwarenessNotice } | { kind: 'withdrawn'; id: string; outcome: Outcome; message: string };

export interface NoticeEnv {
  now: number;
  /** "ada (top-left)". */
  label(name: string): string;
  panesOf(name: string): number[];
  /** The headline for one prediction (presenter.headline). */
  headline(p: Prediction): string;
}

/** The notice id of a pair, names sorted so "bob+ada" and "ada+bob" are one. */
export function pairId(a: string, b: string): string {
  return a < b ? `${a}+${b}` : `${b}+${a}`;
}

function sameNotice(x: AwarenessNotice, y: Omit<AwarenessNotice, 'since' | 'updatedAt' | 'updates'>): boolean {
  return x.message === y.message && x.topics.join('\n') === y.topics.join('\n') && x.panes.join() === y.panes.join() && x.predictions.join() === y.predictions.join();
}

export class NoticeBook {
  private readonly shown = new Map<string, AwarenessNotice>();
  /** Outcomes of resolutions since the last sync, by pair: why a notice goes. */
  private readonly outcomes = new Map<string, Outcome>();

  all(): AwarenessNotice[] {
    return [...this.shown.values()];
  }

  /** A prediction about the pair resolved; the next sync says so if the notice goes. */
  resolved(a: string, b: string, outcome: Outcome): void {
    this.outcomes.set(pairId(a, b), outcome);
  }

  /**
   * Brings the notices in line with the open predictions; returns what changed.
   * With `due`, only the pairs it names are looked at (those a pass or a move could
   * have changed): a notice is worded from every prediction about its pair, so the
   * other pairs' notices stand as they were.
   */
  sync(active: readonly Prediction[], env: NoticeEnv, due?: (id: string, a: string, b: string) => boolean): NoticeChange[] {
    const byPair = new Map<string, Prediction[]>();
    for (const p of active) {
      const id = pairId(p.a, p.b);
      if (due && !due(id, p.a, p.b)) continue;
      const list = byPair.get(id);
      if (list) list.push(p);
      else byPair.set(id, [p]);
    }
    const out: NoticeChange[] = [];
    for (const [id, preds] of byPair) {
      // The wording follows the strongest kind of signal, not whichever prediction
      // scored highest this pass, so a notice does not flip between phrasings.
      preds.sort((x, y) => KIND_RANK[x.type] - KIND_RANK[y.type] || y.confidence - x.confidence || x.createdAt - y.createdAt);
      const best = preds[0]!;
      const had = this.shown.get(id);
      // The strongest topics now, with those already shown keeping their place (new ones follow).
      const top = [...new Set(preds.flatMap((p) => p.topics))].slice(0, NOTICE_TOPICS);
      const topics = [...new Set([...(had?.topics ?? []).filter((t) => top.includes(t)), ...top])];
      const [a, b] = [best.a, best.b] as const;
      const want = {
        id,
        agents: (a < b ? [a, b] : [b, a]) as [string, string],
        topics,
        message: env.headline({ ...best, topics }),
        panes: [...env.panesOf(a), ...env.panesOf(b)],
        predictions: preds.map((p) => p.id).sort(),
      };
      if (had && sameNotice(had, want)) continue;
      const notice: AwarenessNotice = had ? { ...want, since: had.since, updatedAt: env.now, updates: had.updates + 1 } : { ...want, since: env.now, updatedAt: env.now, updates: 0 };
      this.shown.set(id, notice);
      out.push({ kind: 'notice', notice });
    }
    for (const [id, n] of this.shown) {
      if (byPair.has(id) || (due && !due(id, n.agents[0], n.agents[1]))) continue;
      this.shown.delete(id);
      const outcome = this.outcomes.get(id) ?? 'expired';
      out.push({ kind: 'withdrawn', id, outcome, message: `${env.label(n.agents[0])} and ${env.label(n.agents[1])}: ${OUTCOME_TEXT[outcome]}` });
    }
    if (due) {
      for (const id of this.outcomes.keys()) if (!this.shown.has(id) || byPair.has(id)) this.outcomes.delete(id);
    } else this.outcomes.clear();
    return out;
  }
}

/** Which prediction words the notice: converging first, then one moving onto the other's ground, then mere proximity. */
const KIND_RANK: Record<Prediction['type'], number> = { 'mutual-deepening': 0, approaching: 0, 'cross-approach': 1, 'domain-proximity': 2 };

const OUTCOME_TEXT: Record<Outcome, string> = {
  prevented: 'no longer converging (they coordinated)',
  occurred: 'collided (both wrote the same file)',
  'false-positive': 'no longer converging',
  expired: 'convergence went stale',
};
