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
