// Matching for the palette, launcher and switcher, in tiers: an exact name or
// keyword first, then a name that starts with the query, then one with a word that
// does, then the query inside any text, then its letters scattered in order.
// Within a tier, runs and word starts score higher, as in editors' pickers.

/** How a text matched, best first; the tier outranks any score inside it. */
export const TIERS = ['scattered', 'substring', 'word', 'prefix', 'exact'] as const;
export type Tier = (typeof TIERS)[number];

/** Score points per tier: more than any in-tier score can reach (≈ 6 per query character). */
const TIER_STEP = 10_000;

export interface FuzzyHit {
  score: number;
  /** Indices of matched characters in the text, for highlighting. */
  indices: number[];
  tier: Tier;
}

const WORD_BREAK = /[\s._/:()-]/;

/** The query's characters in order in `text` (case-insensitive), or null; scored without tiers. */
function scattered(q: string, text: string): { score: number; indices: number[] } | null {
  const t = text.toLowerCase();
  const indices: number[] = [];
  let score = 0;
  let ti = 0;
  let prev = -2;
  for (const ch of q) {
    const found = t.indexOf(ch, ti);
    if (found < 0) return null;
    const atWordStart = found === 0 || WORD_BREAK.test(t[found - 1] ?? '');
    score += 1 + (found === prev + 1 ? 3 : 0) + (atWordStart ? 2 : 0);
    indices.push(found);
    prev = found;
    ti = found + 1;
  }
  // Shorter texts and earlier first matches rank higher among equal scores.
  return { score: score - (indices[0] ?? 0) * 0.05 - text.length * 0.01, indices };
}

function tierOf(query: string, text: string): Tier {
  const t = text.toLowerCase();
  if (t === query) return 'exact';
  if (t.startsWith(query)) return 'prefix';
  const at = t.indexOf(query);
  if (at < 0) return 'scattered';
  for (let i = at; i >= 0; i = t.indexOf(query, i + 1)) if (WORD_BREAK.test(t[i - 1] ?? '')) return 'word';
  return 'substring';
}

/**
 * Scores `text` against `query`, or null when it does not match. `key` texts (names,
 * keywords) may reach every tier; other text (descriptions) at most `substring`.
 */
export function fuzzy(query: string, text: string, key = true): FuzzyHit | null {
  const spaced = query.trim().toLowerCase().replace(/\s+/g, ' ');
  const q = spaced.replace(/ /g, '');
  if (q === '') return { score: 0, indices: [], tier: 'scattered' };
  const s = scattered(q, text);
  if (!s) return null;
  let tier = tierOf(spaced, text);
  if (!key && TIERS.indexOf(tier) > TIERS.indexOf('substring')) tier = 'substring';
  let indices = s.indices;
  if (tier !== 'scattered') {
    const at = text.toLowerCase().indexOf(spaced);
    indices = [...spaced].map((_, i) => at + i).filter((i) => text[i] !== ' ');
  }
  return { score: TIERS.indexOf(tier) * TIER_STEP + s.score, indices, tier };
}

/**
 * Filters and sorts items by their best-matching text. `keys(item)` are the names
 * and keywords; without it, the first of `fields(item)` is the key. The other
 * fields are text. A hit's indices are kept only for the item's first field (what
 * pickers draw highlighted); an empty query keeps the given order. Letters scattered
 * in order are a fallback: once anything holds the query as typed (a name, a word, a
 * substring), they are left out ("split" listed "Snap the focused pane to the left
 * half (floating it)" under the split commands).
 */
export function rank<T>(query: string, items: T[], fields: (item: T) => string[], keys?: (item: T) => string[]): { item: T; hit: FuzzyHit }[] {
  const out: { item: T; hit: FuzzyHit; order: number }[] = [];
  items.forEach((item, order) => {
    const fs = fields(item);
    const ks = keys ? keys(item) : fs.slice(0, 1);
    const texts: [string, boolean][] = [...ks.map((k): [string, boolean] => [k, true]), ...(keys ? fs : fs.slice(1)).map((f): [string, boolean] => [f, false])];
    let best: FuzzyHit | null = null;
    let bestText = '';
    for (const [text, key] of texts) {
      const h = fuzzy(query, text, key);
      if (h && (!best || h.score > best.score)) {
        best = h;
        bestText = text;
      }
    }
    if (best) out.push({ item, hit: bestText === fs[0] ? best : { ...best, indices: [] }, order });
  });
  if (query.trim() === '') return out.map(({ item, hit }) => ({ item, hit }));
  const kept = out.some((x) => x.hit.tier !== 'scattered') ? out.filter((x) => x.hit.tier !== 'scattered') : out;
  kept.sort((a, b) => b.hit.score - a.hit.score || a.order - b.order);
  return kept.map(({ item, hit }) => ({ item, hit }));
}
