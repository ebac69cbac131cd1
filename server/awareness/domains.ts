// Domains: groups of topics that belong together (auth, jwt, login, session → auth),
// from a map file plus what the engine learns from topics that keep appearing
// with a domain's words. They let two agents on different words be seen as close.

/** domain → its topics. */
export type DomainMap = Record<string, string[]>;

/** A small default, so proximity works before anyone writes a map. */
export const DEFAULT_DOMAINS: DomainMap = {
  auth: ['auth', 'authentication', 'login', 'logout', 'jwt', 'token', 'session', 'oauth', 'password', 'credential', 'permission', 'role'],
  database: ['database', 'db', 'sql', 'query', 'schema', 'migration', 'table', 'index', 'postgres', 'sqlite', 'orm', 'transaction'],
  ui: ['ui', 'component', 'css', 'style', 'layout', 'button', 'render', 'react', 'view', 'modal', 'theme'],
  api: ['api', 'endpoint', 'route', 'handler', 'request', 'response', 'rest', 'graphql', 'http', 'middleware'],
  build: ['build', 'bundle', 'webpack', 'vite', 'esbuild', 'ci', 'pipeline', 'deploy', 'docker', 'release'],
  testing: ['vitest', 'jest', 'fixture', 'mock', 'coverage', 'e2e', 'playwright', 'assertion'],
};

/** topic → domains it belongs to; rebuilt whenever the map or learned set changes. */
export type DomainIndex = Map<string, string[]>;

export function indexDomains(...maps: DomainMap[]): DomainIndex {
  const idx: DomainIndex = new Map();
  for (const m of maps) {
    for (const [d, topics] of Object.entries(m)) {
      for (const t of topics) {
        const ds = idx.get(t) ?? [];
        if (!ds.includes(d)) ds.push(d);
        idx.set(t, ds);
      }
    }
  }
  return idx;
}

/** How many of the topics fall in each domain. */
export function domainCounts(topics: readonly string[], idx: DomainIndex): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of topics) for (const d of idx.get(t) ?? []) out.set(d, (out.get(d) ?? 0) + 1);
  return out;
}

export interface DomainMatch {
  domain: string;
  /** Share of both agents' key topics that lie in the domain, 0..1. */
  score: number;
  topics: string[];
}

/**
 * The best domain both topic lists fall into. The score is the share of both
 * agents' key topics inside it: two agents wholly in "auth" score 1, two that
 * each brush it with one word of eight score 1/8.
 */
export function bestSharedDomain(a: readonly string[], b: readonly string[], idx: DomainIndex, ca = domainCounts(a, idx), cb = domainCounts(b, idx)): DomainMatch | null {
  const total = a.length + b.length;
  let domain: string | null = null;
  let score = 0;
  // Plain key iteration: this runs for thousands of pairs per pass and most share no domain.
  for (const d of ca.keys()) {
    const nb = cb.get(d);
    if (nb === undefined) continue;
    const s = (ca.get(d)! + nb) / total;
    if (domain === null || s > score || (s === score && d < domain)) {
      domain = d;
      score = s;
    }
  }
  if (domain === null) return null;
  const d = domain;
  return { domain: d, score, topics: [...new Set([...a, ...b])].filter((t) => idx.get(t)?.includes(d)) };
}

/** A learned topic must come with the domain's words this often; a word that goes with everything ("module", "refactor") belongs to no domain. */
export const LEARN_SPECIFICITY = 0.8;
/** Bounds on what learning keeps, so the file stays small whatever the prompts. */
const MAX_LEARNED_PER_DOMAIN = 200;
const MAX_PENDING = 10_000;

/**
 * Learning: counts, per unmapped topic, the snapshots it appears in and those
 * where two or more of a domain's words appear beside it. Once it has come with
 * the domain `learnAfter` times and in at least LEARN_SPECIFICITY of its
 * appearances, it joins the domain. Returns what was learned.
 */
export function learn(snapshotTopics: readonly string[], idx: DomainIndex, counts: Map<string, number>, learned: DomainMap, learnAfter: number): { topic: string; domain: string }[] {
  const present = domainCounts(snapshotTopics, idx);
  const out: { topic: string; domain: string }[] = [];
  for (const t of snapshotTopics) {
    if (idx.has(t)) continue;
    const seen = (counts.get(`\u0000${t}`) ?? 0) + 1;
    counts.set(`\u0000${t}`, seen);
    for (const [d, n] of present) {
      // Two of the domain's words beside it: one could be a coincidence.
      if (n < 2) continue;
      const key = `${d}\u0000${t}`;
      const c = (counts.get(key) ?? 0) + 1;
      counts.set(key, c);
      if (c >= learnAfter && c / seen >= LEARN_SPECIFICITY && (learned[d]?.length ?? 0) < MAX_LEARNED_PER_DOMAIN) {
        (learned[d] ??= []).push(t);
        counts.delete(key);
        out.push({ topic: t, domain: d });
      }
    }
  }
  if (counts.size > MAX_PENDING) for (const [k, c] of counts) if (c <= 1) counts.delete(k);
  return out;
}
