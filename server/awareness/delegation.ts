// Delegation: which idle agent's trajectory fits a task. An agent deep in the
// task's topics has the context loaded already; one whose topics are fading has
// it, but colder.
import type { AgentAwareness } from '../../kits/protocol/awareness';
import type { DomainIndex } from './domains';

export interface Suggestion {
  agent: string;
  score: number;
  /** Task topics the agent has worked on, by class. */
  matched: string[];
  reason: string;
}

/** How much a topic in each class says the agent is ready for it. */
export const FIT_WEIGHT = { deepening: 1, stable: 0.8, emerging: 0.6, fading: 0.3 } as const;
/** A task topic the agent never used but whose domain it works in. */
export const DOMAIN_WEIGHT = 0.25;

export function fit(task: readonly string[], a: AgentAwareness, idx: DomainIndex): { score: number; matched: string[] } {
  if (task.length === 0) return { score: 0, matched: [] };
  const cls = new Map<string, number>();
  for (const k of Object.keys(FIT_WEIGHT) as (keyof typeof FIT_WEIGHT)[]) for (const t of a.trajectory[k]) cls.set(t, FIT_WEIGHT[k]);
  const agentDomains = new Set(a.keyTopics.flatMap((t) => idx.get(t) ?? []));
  let sum = 0;
  const matched: string[] = [];
  for (const t of task) {
    const w = cls.get(t);
    if (w !== undefined) {
      sum += w;
      matched.push(t);
    } else if ((idx.get(t) ?? []).some((d) => agentDomains.has(d))) sum += DOMAIN_WEIGHT;
  }
  return { score: sum / task.length, matched };
}

/** Idle agents ranked by fit; agents that fit nothing are left out. */
export function suggest(task: readonly string[], agents: readonly AgentAwareness[], isIdle: (a: AgentAwareness) => boolean, idx: DomainIndex, label: (n: string) => string, max = 3): Suggestion[] {
  const out: Suggestion[] = [];
  for (const a of agents) {
    if (!isIdle(a)) continue;
    const f = fit(task, a, idx);
    if (f.score <= 0) continue;
    const reason = f.matched.length ? `${label(a.name)} has worked on ${f.matched.join(', ')}` : `${label(a.name)} works in the same area`;
    out.push({ agent: a.name, score: Math.round(f.score * 100) / 100, matched: f.matched, reason });
  }
  return out.sort((x, y) => y.score - x.score || (x.agent < y.agent ? -1 : 1)).slice(0, max);
}
