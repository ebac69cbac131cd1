// Whom an agent converges with, as every view names it (tags, peers view): one
// entry per other agent, its most confident open prediction, most confident
// first. Free of zod (types only), so the CLI's start-up path may use it.
import type { Prediction } from './awareness';

export interface Partner {
  name: string;
  prediction: Prediction;
}

export function partnersOf(name: string, predictions: readonly Prediction[]): Partner[] {
  const out: Partner[] = [];
  const seen = new Set<string>();
  for (const p of [...predictions].sort((x, y) => y.confidence - x.confidence)) {
    if (p.a !== name && p.b !== name) continue;
    const other = p.a === name ? p.b : p.a;
    if (seen.has(other)) continue;
    seen.add(other);
    out.push({ name: other, prediction: p });
  }
  return out;
}

/** Topics a convergence is named by: enough to say where two agents meet (token, refresh, token.ts). */
export const PARTNER_TOPICS = 4;

/** "qwen 73% on token, refresh, token.ts": one partner as finger and the agents board name it. */
export function partnerText(p: Partner): string {
  return `${p.name} ${Math.round(p.prediction.confidence * 100)}% on ${p.prediction.topics.slice(0, PARTNER_TOPICS).join(', ') || '-'}`;
}
