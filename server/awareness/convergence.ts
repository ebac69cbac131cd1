// Convergence detection: the seed's four signals between every pair of live
// agents, each with its confidence formula. Pure: profiles in, detections out;
// predictions.ts turns detections into predictions with a lifecycle.
import type { AgentAwareness, PredictionType } from '../../kits/protocol/awareness';
import { bestSharedDomain, domainCounts, type DomainIndex } from './domains';
import { keyTopics } from './trajectory';

/** What the detector needs of an agent, precomputed once per pass. */
export interface Profile {
  name: string;
  key: string[];
  keySet: Set<string>;
  /** Key topics one prompt ago, for the rate of approach. */
  prevKeySet: Set<string>;
  deepening: Set<string>;
  stable: Set<string>;
  domains: Map<string, number>;
}

export interface Detection {
  type: PredictionType;
  a: string;
  b: string;
  topics: string[];
  domain: string | null;
  confidence: number;
  distance: number | null;
}

/** Jaccard overlap at which two agents are on the same work: the top of the threshold range. */
export const COLLISION_OVERLAP = 0.7;

// The seed's formulas, one function each, so the table tests read like the seed.
export const mutualDeepeningConfidence = (shared: number) => Math.min(1, 0.6 + 0.1 * shared);
export const approachingConfidence = (overlap: number) => overlap * 0.8;
export const crossApproachConfidence = (matches: number) => Math.min(1, 0.5 + 0.1 * matches);
export const domainProximityConfidence = (score: number) => 0.3 + 0.4 * score;

export function jaccard(x: Set<string>, y: Set<string>): number {
  if (x.size === 0 && y.size === 0) return 0;
  let inter = 0;
  for (const t of x) if (y.has(t)) inter++;
  return inter / (x.size + y.size - inter);
}

/**
 * Prompts until the overlap reaches COLLISION_OVERLAP at the rate it rose over
 * the last prompt; 0 when already there, null when it is not rising, at most
 * `horizon` (beyond the window the rate says nothing).
 */
export function distanceEstimate(now: number, before: number, horizon: number): number | null {
  if (now >= COLLISION_OVERLAP) return 0;
  const rate = now - before;
  if (rate <= 0) return null;
  return Math.min(horizon, Math.ceil((COLLISION_OVERLAP - now) / rate - 1e-9));
}

export function profileOf(a: AgentAwareness, idx: DomainIndex, topN: number): Profile {
  return {
    name: a.name,
    key: a.keyTopics,
    keySet: new Set(a.keyTopics),
    prevKeySet: new Set(keyTopics(a.window.slice(0, -1), topN)),
    deepening: new Set(a.trajectory.deepening),
    stable: new Set(a.trajectory.stable),
    domains: domainCounts(a.keyTopics, idx),
  };
}

const intersect = (x: Set<string>, y: Set<string>) => [...x].filter((t) => y.has(t));

/** Every signal between two agents. `threshold` gates the two overlap signals (approaching, domain proximity). */
export function detectPair(p: Profile, q: Profile, threshold: number, idx: DomainIndex, horizon: number): Detection[] {
  const out: Detection[] = [];
  const [a, b] = p.name < q.name ? [p, q] : [q, p];
  const mutual = intersect(a.deepening, b.deepening);
  if (mutual.length > 0) out.push({ type: 'mutual-deepening', a: a.name, b: b.name, topics: mutual, domain: null, confidence: mutualDeepeningConfidence(mutual.length), distance: null });
  const j = jaccard(a.keySet, b.keySet);
  if (j > threshold) {
    const before = jaccard(a.prevKeySet, b.prevKeySet);
    out.push({ type: 'approaching', a: a.name, b: b.name, topics: intersect(a.keySet, b.keySet), domain: null, confidence: approachingConfidence(j), distance: distanceEstimate(j, before, horizon) });
  }
  for (const [x, y] of [[a, b], [b, a]] as const) {
    // x deepens into what y has worked on steadily; topics both deepen are mutual, not cross.
    const m = intersect(x.deepening, y.stable);
    if (m.length > 0) out.push({ type: 'cross-approach', a: x.name, b: y.name, topics: m, domain: null, confidence: crossApproachConfidence(m.length), distance: null });
  }
  // Same domain, different words: only worth saying when nothing nearer was.
  if (out.length === 0) {
    const d = bestSharedDomain(a.key, b.key, idx, a.domains, b.domains);
    if (d && d.score > threshold) out.push({ type: 'domain-proximity', a: a.name, b: b.name, topics: d.topics, domain: d.domain, confidence: domainProximityConfidence(d.score), distance: null });
  }
  return out;
}

/** One pass over every pair: O(n²) pairs, each a few set intersections of ≤ topN words. */
export function detectAll(profiles: readonly Profile[], threshold: number, idx: DomainIndex, horizon: number): Detection[] {
  const out: Detection[] = [];
  for (let i = 0; i < profiles.length; i++) {
    for (let k = i + 1; k < profiles.length; k++) out.push(...detectPair(profiles[i]!, profiles[k]!, threshold, idx, horizon));
  }
  return out;
}

/** What to do about it, in words the agents and the human both read. */
export function recommend(d: Detection, label: (name: string) => string): string {
  const A = label(d.a);
  const B = label(d.b);
  const on = d.topics.slice(0, 4).join(', ');
  switch (d.type) {
    case 'mutual-deepening':
      return `${A} and ${B} are both deep in ${on}: agree now who owns which files (pane claim PATH), or hand one part over (pane handoff).`;
    case 'approaching':
      return `${A} and ${B} converge on ${on}${d.distance === null ? '' : d.distance === 0 ? ' (already overlapping)' : ` (about ${d.distance} prompt${d.distance === 1 ? '' : 's'} away)`}: message each other before editing shared files.`;
    case 'cross-approach':
      return `${A} is moving into ${on}, where ${B} has been working steadily: ask ${B} first, or leave it to ${B}.`;
    case 'domain-proximity':
      return `${A} and ${B} work in the same area (${d.domain}: ${on}): a note to each other about shared interfaces avoids surprises.`;
  }
}
