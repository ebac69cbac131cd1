// Fuzzy matching for the palette, launcher and switcher: the query's characters
// must appear in order; runs and word starts score higher, as in editors' pickers.

export interface FuzzyHit {
  score: number;
  /** Indices of matched characters in the text, for highlighting. */
  indices: number[];
}

/** Scores `text` against `query`, or null when it does not match. Case-insensitive. */
export function fuzzy(query: string, text: string): FuzzyHit | null {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (q === '') return { score: 0, indices: [] };
  const t = text.toLowerCase();
  const indices: number[] = [];
  let score = 0;
  let ti = 0;
  let prev = -2;
  for (const ch of q) {
    const found = t.indexOf(ch, ti);
    if (found < 0) return null;
    const atWordStart = found === 0 || /[\s._/:-]/.test(t[found - 1] ?? '');
    score += 1 + (found === prev + 1 ? 3 : 0) + (atWordStart ? 2 : 0);
    indices.push(found);
    prev = found;
    ti = found + 1;
  }
  // Shorter texts and earlier first matches rank higher among equal scores.
  score -= (indices[0] ?? 0) * 0.05 + text.length * 0.01;
  return { score, indices };
}

/** Filters and sorts items by their best-scoring field. */
export function rank<T>(query: string, items: T[], fields: (item: T) => string[]): { item: T; hit: FuzzyHit }[] {
  const out: { item: T; hit: FuzzyHit; order: number }[] = [];
  items.forEach((item, order) => {
    let best: FuzzyHit | null = null;
    for (const f of fields(item)) {
      const h = fuzzy(query, f);
      if (h && (!best || h.score > best.score)) best = h;
    }
    if (best) out.push({ item, hit: best, order });
  });
  if (query.trim() !== '') out.sort((a, b) => b.hit.score - a.hit.score || a.order - b.order);
  return out.map(({ item, hit }) => ({ item, hit }));
}
