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
  /** Files across its window: touched by its tools or named in its prompts. */
  files: Set<string>;
  /** The repository it works in (the git top level of its cwd), when known. */
  repo: string | null;
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

/*
 * Where two agents work weighs more than the words they share (issue 34: two CLIs
 * asked about one function in one file of one repository scored 48%, a pair in an
 * unrelated repository 59%). Each signal's confidence (the seed's formulas, below)
 * is then weighed by place: a file both touched or named adds SHARED_FILE_BONUS
 * (for up to MAX_FILE_BONUSES files), one repository adds SAME_REPO_BONUS, and two
 * different repositories scale it by OTHER_REPO_FACTOR (the same words there are
 * about different code). A shared file is a signal of its own when the words share
 * nothing: SHARED_FILE_BASE plus the bonuses.
 */
export const SHARED_FILE_BONUS = 0.15;
export const MAX_FILE_BONUSES = 3;
export const SAME_REPO_BONUS = 0.1;
export const OTHER_REPO_FACTOR = 0.5;
export const SHARED_FILE_BASE = 0.4;

/** A signal's confidence weighed by where the two agents work. */
export function placed(confidence: number, sharedFiles: number, repos: 'same' | 'other' | 'unknown'): number {
  const c = repos === 'other' ? confidence * OTHER_REPO_FACTOR : confidence;
  const bonus = SHARED_FILE_BONUS * Math.min(MAX_FILE_BONUSES, sharedFiles) + (repos === 'same' ? SAME_REPO_BONUS : 0);
  return Math.min(1, c + bonus);
}

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

/** Profiles change only when the window does (every update replaces the window array), so they are cached on it. */
const profileCache = new WeakMap<readonly unknown[], { idx: DomainIndex; p: Profile }>();

export function profileOf(a: AgentAwareness, idx: DomainIndex, topN: number, repoOf: (cwd: string) => string | null = () => null): Profile {
  const repo = a.cwd === null ? null : repoOf(a.cwd);
  const hit = profileCache.get(a.window);
  if (hit && hit.idx === idx && hit.p.name === a.name && hit.p.repo === repo) return hit.p;
  const p = freshProfile(a, idx, topN, repo);
  profileCache.set(a.window, { idx, p });
  return p;
}

function freshProfile(a: AgentAwareness, idx: DomainIndex, topN: number, repo: string | null): Profile {
  const files = new Set<string>();
  for (const s of a.window) {
    for (const f of s.files) files.add(f);
    for (const f of s.mentions ?? []) files.add(f);
  }
  return {
    files,
    repo,
    name: a.name,
    key: a.keyTopics,
    keySet: new Set(a.keyTopics),
    prevKeySet: new Set(keyTopics(a.window.slice(0, -1), topN)),
    deepening: new Set(a.trajectory.deepening),
    stable: new Set(a.trajectory.stable),
    domains: domainCounts(a.keyTopics, idx),
  };
}

/** Common members, in x's order; allocates only on a hit, since most pairs share nothing. */
function intersect(x: Set<string>, y: Set<string>): string[] {
  let out: string[] | null = null;
  for (const t of x) if (y.has(t)) (out ??= []).push(t);
  return out ?? NONE;
}
const NONE: string[] = [];

/** Every signal between two agents, weighed by where they work (see placed). `threshold` gates the two overlap signals (approaching, domain proximity). */
export function detectPair(p: Profile, q: Profile, threshold: number, idx: DomainIndex, horizon: number): Detection[] {
  const [a, b] = p.name < q.name ? [p, q] : [q, p];
  const shared = intersect(a.files, b.files);
  const repos = a.repo === null || b.repo === null ? 'unknown' : a.repo === b.repo ? 'same' : 'other';
  const out = wordSignals(a, b, threshold, idx, horizon);
  const names = shared.map((f) => f.slice(f.lastIndexOf('/') + 1));
  // One file, whatever the words: the strongest sign of the same work.
  if (shared.length > 0 && !out.some((d) => d.type === 'approaching')) {
    out.push({ type: 'approaching', a: a.name, b: b.name, topics: names, domain: null, confidence: SHARED_FILE_BASE, distance: 0 });
  }
  for (const d of out) {
    d.confidence = placed(d.confidence, shared.length, repos);
    // The shared files are named beside the shared words: "converge on token, token.ts".
    for (const n of names) if (!d.topics.includes(n)) d.topics = [...d.topics, n];
  }
  return out;
}

/** The seed's four signals from the two agents' words alone. */
function wordSignals(a: Profile, b: Profile, threshold: number, idx: DomainIndex, horizon: number): Detection[] {
  const out: Detection[] = [];
  const mutual = intersect(a.deepening, b.deepening);
  if (mutual.length > 0) out.push({ type: 'mutual-deepening', a: a.name, b: b.name, topics: mutual, domain: null, confidence: mutualDeepeningConfidence(mutual.length), distance: null });
  const j = jaccard(a.keySet, b.keySet);
  if (j > threshold) {
    const before = jaccard(a.prevKeySet, b.prevKeySet);
    out.push({ type: 'approaching', a: a.name, b: b.name, topics: intersect(a.keySet, b.keySet), domain: null, confidence: approachingConfidence(j), distance: distanceEstimate(j, before, horizon) });
  }
  // x deepens into what y has worked on steadily (each direction is its own prediction).
  const ab = intersect(a.deepening, b.stable);
  if (ab.length > 0) out.push({ type: 'cross-approach', a: a.name, b: b.name, topics: ab, domain: null, confidence: crossApproachConfidence(ab.length), distance: null });
  const ba = intersect(b.deepening, a.stable);
  if (ba.length > 0) out.push({ type: 'cross-approach', a: b.name, b: a.name, topics: ba, domain: null, confidence: crossApproachConfidence(ba.length), distance: null });
  // Same domain, different words: only worth saying when nothing nearer was.
  if (out.length === 0) {
    const d = bestSharedDomain(a.key, b.key, idx, a.domains, b.domains);
    if (d && d.score > threshold) out.push({ type: 'domain-proximity', a: a.name, b: b.name, topics: d.topics, domain: d.domain, confidence: domainProximityConfidence(d.score), distance: null });
  }
  return out;
}

/** Every pair detectPair would look at, one by one: the reference the fast pass is tested against. */
export function detectAllNaive(profiles: readonly Profile[], threshold: number, idx: DomainIndex, horizon: number): Detection[] {
  const out: Detection[] = [];
  for (let i = 0; i < profiles.length; i++) {
    for (let k = i + 1; k < profiles.length; k++) out.push(...detectPair(profiles[i]!, profiles[k]!, threshold, idx, horizon));
  }
  return out;
}

/**
 * One pass over every pair, without visiting every pair: each signal needs a
 * shared word (a key topic, a deepening or stable topic, a domain), so inverted
 * lists from word to agents name the only pairs worth checking. Most pairs of a
 * busy desktop share nothing, and this keeps 100 agents well inside a prompt's budget.
 */
export function detectAll(profiles: readonly Profile[], threshold: number, idx: DomainIndex, horizon: number): Detection[] {
  const n = profiles.length;
  const seen = new Uint8Array(n * n);
  const pairs: number[] = [];
  const touch = (x: number, y: number) => {
    const k = x < y ? x * n + y : y * n + x;
    if (seen[k] === 0) {
      seen[k] = 1;
      pairs.push(k);
    }
  };
  const lists = (of: (p: Profile) => Iterable<string>) => {
    const m = new Map<string, number[]>();
    profiles.forEach((p, i) => {
      for (const t of of(p)) {
        const l = m.get(t);
        if (l) l.push(i);
        else m.set(t, [i]);
      }
    });
    return m;
  };
  const within = (m: Map<string, number[]>) => {
    for (const l of m.values()) for (let a = 0; a < l.length; a++) for (let b = a + 1; b < l.length; b++) touch(l[a]!, l[b]!);
  };
  within(lists((p) => p.keySet));
  within(lists((p) => p.files));
  within(lists((p) => p.domains.keys()));
  const deep = lists((p) => p.deepening);
  within(deep);
  const stable = lists((p) => p.stable);
  for (const [t, ds] of deep) for (const y of stable.get(t) ?? []) for (const x of ds) if (x !== y) touch(x, y);
  pairs.sort((x, y) => x - y);
  const out: Detection[] = [];
  for (const k of pairs) out.push(...detectPair(profiles[Math.floor(k / n)]!, profiles[k % n]!, threshold, idx, horizon));
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
