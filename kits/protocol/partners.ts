// Whom an agent converges with, as every view names it (tags, peers view): one
// entry per other agent, its most confident open prediction, most confident
// first. Free of zod (types only), so the CLI's start-up path may use it.
import type { Prediction } from './awareness';

export interface Partner {
  name: string;
  prediction: Prediction;
}

export function partnersOf(name: string, predictions: readonly Prediction[]): Partner[] {
  return partnersByName(predictions).get(name) ?? [];
}

/**
 * partnersOf for every agent at once: one sort of the predictions, not one per agent,
 * so showing all agents' partners (their tags after a pass, /pane/agents) costs
 * P log P, not A × P log P, for P predictions among A agents.
 */
export function partnersByName(predictions: readonly Prediction[]): Map<string, Partner[]> {
  const out = new Map<string, Partner[]>();
  const seen = new Map<string, Set<string>>();
  const add = (self: string, other: string, p: Prediction) => {
    let s = seen.get(self);
    if (!s) seen.set(self, (s = new Set()));
    if (s.has(other)) return;
    s.add(other);
    const l = out.get(self);
    if (l) l.push({ name: other, prediction: p });
    else out.set(self, [{ name: other, prediction: p }]);
  };
  for (const p of [...predictions].sort((x, y) => y.confidence - x.confidence)) {
    add(p.a, p.b, p);
    if (p.b !== p.a) add(p.b, p.a, p);
  }
  return out;
}

/** Topics a convergence is named by: enough to say where two agents meet (token, refresh, token.ts). */
export const PARTNER_TOPICS = 4;

/** "qwen 73% on token, refresh, token.ts": one partner as finger and the agents board name it. */
export function partnerText(p: Partner): string {
  return `${p.name} ${Math.round(p.prediction.confidence * 100)}% on ${p.prediction.topics.slice(0, PARTNER_TOPICS).join(', ') || '-'}`;
}
