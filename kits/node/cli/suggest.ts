// "did you mean": the names nearest a mistyped command or flag. Zod-free, on the CLI's start-up path.

/** Closest names to a mistyped one (edit distance ≤ `most`, 2 by default, or a prefix): commands, and flags. */
export function suggest(word: string, names: readonly string[], most = 2): string[] {
  return names.filter((n) => n.startsWith(word) || distance(word, n) <= most).slice(0, 3);
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}
