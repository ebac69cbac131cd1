import { describe, expect, it } from 'vitest';
import {
  approachingConfidence,
  crossApproachConfidence,
  detectPair,
  distanceEstimate,
  domainProximityConfidence,
  jaccard,
  mutualDeepeningConfidence,
  OTHER_REPO_FACTOR,
  placed,
  recommend,
  SAME_REPO_BONUS,
  SHARED_FILE_BASE,
  SHARED_FILE_BONUS,
  type Profile,
} from './convergence';
import { bestSharedDomain, indexDomains } from './domains';

const idx = indexDomains({ auth: ['auth', 'jwt', 'login', 'session', 'oauth'], db: ['sql', 'migration'] });
const prof = (name: string, o: { key?: string[]; prev?: string[]; deep?: string[]; stable?: string[]; files?: string[]; repo?: string }): Profile => {
  const key = o.key ?? [];
  const domains = new Map<string, number>();
  for (const t of key) for (const d of idx.get(t) ?? []) domains.set(d, (domains.get(d) ?? 0) + 1);
  return { name, key, keySet: new Set(key), prevKeySet: new Set(o.prev ?? key), deepening: new Set(o.deep ?? []), stable: new Set(o.stable ?? []), domains, files: new Set(o.files ?? []), repo: o.repo ?? null };
};

describe("the seed's formulas", () => {
  it.each([
    [1, 0.7],
    [2, 0.8],
    [3, 0.9],
    [4, 1],
    [6, 1],
  ])('mutual deepening with %i shared topics has confidence %f (0.6 + 0.1 each, at most 1)', (n, want) => {
    expect(mutualDeepeningConfidence(n)).toBeCloseTo(want, 10);
  });

  it.each([
    [0.4, 0.32],
    [0.5, 0.4],
    [1, 0.8],
  ])('approaching with overlap %f has confidence %f (overlap × 0.8)', (j, want) => {
    expect(approachingConfidence(j)).toBeCloseTo(want, 10);
  });

  it.each([
    [1, 0.6],
    [2, 0.7],
    [5, 1],
    [9, 1],
  ])('cross approach with %i matches has confidence %f (0.5 + 0.1 each, at most 1)', (n, want) => {
    expect(crossApproachConfidence(n)).toBeCloseTo(want, 10);
  });

  it.each([
    [0, 0.3],
    [0.5, 0.5],
    [1, 0.7],
  ])('domain proximity with match score %f has confidence %f (0.3 + 0.4 × score)', (s, want) => {
    expect(domainProximityConfidence(s)).toBeCloseTo(want, 10);
  });

  it.each([
    [['a', 'b'], ['a', 'b'], 1],
    [['a', 'b'], ['b', 'c'], 1 / 3],
    [['a'], ['b'], 0],
    [[], [], 0],
  ])('Jaccard of %j and %j is %f', (x, y, want) => {
    expect(jaccard(new Set(x), new Set(y))).toBeCloseTo(want, 10);
  });

  it.each([
    [0.7, 0.5, 0],
    [0.5, 0.3, 1],
    [0.4, 0.3, 3],
    [0.2, 0.19, 10],
    [0.4, 0.4, null],
    [0.4, 0.5, null],
  ])('at overlap %f, up from %f, the collision is %s prompts away', (now, before, want) => {
    expect(distanceEstimate(now, before, 10)).toBe(want);
  });
});

describe('detecting convergence between two agents', () => {
  it('finds mutual deepening on shared deepening topics', () => {
    const d = detectPair(prof('bob', { deep: ['auth', 'jwt', 'css'] }), prof('ada', { deep: ['auth', 'jwt'] }), 0.35, idx, 10);
    expect(d).toEqual([{ type: 'mutual-deepening', a: 'ada', b: 'bob', topics: ['auth', 'jwt'], domain: null, confidence: 0.8, distance: null }]);
  });

  it('finds approaching only when the overlap exceeds the threshold', () => {
    const a = prof('ada', { key: ['auth', 'jwt', 'login', 'css'], prev: ['auth', 'css', 'ui'] });
    const b = prof('bob', { key: ['auth', 'jwt', 'login', 'sql'], prev: ['auth', 'sql', 'migration'] });
    const hit = detectPair(a, b, 0.35, idx, 10).find((x) => x.type === 'approaching')!;
    expect(hit.confidence).toBeCloseTo(0.6 * 0.8, 10);
    expect(hit.topics).toEqual(['auth', 'jwt', 'login']);
    expect(hit.distance).toBe(1);
    expect(detectPair(a, b, 0.6, idx, 10).some((x) => x.type === 'approaching')).toBe(false);
  });

  it('finds cross approach in the direction of the one moving in', () => {
    const d = detectPair(prof('ada', { deep: ['sql', 'migration'] }), prof('bob', { stable: ['sql', 'migration'] }), 0.35, idx, 10);
    expect(d).toEqual([{ type: 'cross-approach', a: 'ada', b: 'bob', topics: ['sql', 'migration'], domain: null, confidence: 0.7, distance: null }]);
  });

  it('finds domain proximity for different words of one domain, and only then', () => {
    const d = detectPair(prof('ada', { key: ['jwt', 'oauth'] }), prof('bob', { key: ['login', 'session', 'css'] }), 0.35, idx, 10);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ type: 'domain-proximity', domain: 'auth', topics: ['jwt', 'oauth', 'login', 'session'] });
    expect(d[0]!.confidence).toBeCloseTo(0.3 + 0.4 * (4 / 5), 10);
  });

  it('says nothing about agents on unrelated work', () => {
    expect(detectPair(prof('ada', { key: ['css'], deep: ['css'] }), prof('bob', { key: ['sql'], deep: ['sql'] }), 0.35, idx, 10)).toEqual([]);
  });

  it('weighs where they work over the words they share: one file and one repository above more shared words elsewhere (issue 34)', () => {
    // Different prompts about one function in one file of one repository: few words in common.
    const claude = prof('claude', { key: ['refresh', 'token', 'expiry', 'retry'], files: ['/r/shop/src/auth/token.ts'], repo: '/r/shop' });
    const qwen = prof('qwen', { key: ['token', 'rotation', 'bug', 'cache'], files: ['/r/shop/src/auth/token.ts'], repo: '/r/shop' });
    // A third agent in an unrelated repository, with more of the same words.
    const gem = prof('gem', { key: ['refresh', 'token', 'expiry', 'cache'], files: ['/r/blog/src/token.ts'], repo: '/r/blog' });
    const best = (x: Profile, y: Profile) => Math.max(0, ...detectPair(x, y, 0.1, idx, 10).map((d) => d.confidence));
    const same = best(claude, qwen);
    expect(same).toBeGreaterThan(best(claude, gem));
    expect(same).toBeGreaterThan(best(qwen, gem));
    // The shared file is named among the topics.
    expect(detectPair(claude, qwen, 0.1, idx, 10).some((d) => d.topics.includes('token.ts'))).toBe(true);
  });

  it('finds two agents on one file even when their words share nothing', () => {
    const d = detectPair(prof('ada', { key: ['css'], files: ['/r/x/a.ts'], repo: '/r/x' }), prof('bob', { key: ['sql'], files: ['/r/x/a.ts'], repo: '/r/x' }), 0.35, idx, 10);
    expect(d).toEqual([{ type: 'approaching', a: 'ada', b: 'bob', topics: ['a.ts'], domain: null, confidence: SHARED_FILE_BASE + SHARED_FILE_BONUS + SAME_REPO_BONUS, distance: 0 }]);
  });

  it('places a confidence: files and one repository add, two repositories halve', () => {
    expect(placed(0.5, 0, 'unknown')).toBe(0.5);
    expect(placed(0.5, 0, 'other')).toBe(0.5 * OTHER_REPO_FACTOR);
    expect(placed(0.5, 1, 'same')).toBeCloseTo(0.5 + SHARED_FILE_BONUS + SAME_REPO_BONUS);
    expect(placed(0.5, 10, 'same')).toBe(1);
  });

  it('scores a shared domain by the share of both agents’ topics inside it', () => {
    expect(bestSharedDomain(['jwt', 'css'], ['login', 'ui'], idx)).toEqual({ domain: 'auth', score: 0.5, topics: ['jwt', 'login'] });
    expect(bestSharedDomain(['jwt'], ['css'], idx)).toBeNull();
  });

  it('recommends by name and quadrant', () => {
    const label = (n: string) => (n === 'ada' ? 'ada (top-left)' : 'bob (bottom-right)');
    const r = recommend({ type: 'approaching', a: 'ada', b: 'bob', topics: ['auth', 'jwt'], domain: null, confidence: 0.5, distance: 2 }, label);
    expect(r).toBe('ada (top-left) and bob (bottom-right) converge on auth, jwt (about 2 prompts away): message each other before editing shared files.');
  });
});

describe('the indexed pass', () => {
  it('finds exactly what checking every pair finds', async () => {
    const { detectAll, detectAllNaive } = await import('./convergence');
    let s = 7;
    const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const words = ['auth', 'jwt', 'login', 'session', 'sql', 'migration', 'css', 'x1', 'x2', 'x3', 'x4', 'x5'];
    const some = () => words.filter(() => rand() < 0.3);
    for (let round = 0; round < 20; round++) {
      const ps = Array.from({ length: 30 }, (_, i) => prof(`a${String(i).padStart(2, '0')}`, { key: some(), prev: some(), deep: some(), stable: some() }));
      const th = 0.15 + rand() * 0.5;
      expect(detectAll(ps, th, idx, 10)).toEqual(detectAllNaive(ps, th, idx, 10));
    }
  });
});
