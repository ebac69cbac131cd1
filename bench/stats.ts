// Medians with min..max and percentiles: every figure in the bench table is one.
export interface Summary {
  median: number;
  min: number;
  max: number;
  p99: number;
  n: number;
  /** Samples that were no number (NaN: a run that measured nothing, e.g. a stream that delivered no byte); left out of the rest, and said in range(). */
  lost?: number;
}

export function summarize(all: number[]): Summary {
  // NaN sorts nowhere (every comparison with it is false): left in, one could land as the median.
  const xs = all.filter((x) => !Number.isNaN(x));
  const lost = all.length - xs.length;
  if (xs.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, p99: Number.NaN, n: 0, ...(lost > 0 ? { lost } : {}) };
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
  const mid = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return { median: mid, min: s[0]!, max: s[s.length - 1]!, p99: q(0.99), n: s.length, ...(lost > 0 ? { lost } : {}) };
}

export function fmt(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return 'n/a';
  if (Math.abs(x) >= 100) return x.toFixed(0);
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(digits);
}

/** "12.3 (11.9..13.0)" */
export function range(s: Summary, digits = 2): string {
  const lost = s.lost ? `; ${s.lost} of ${s.n + s.lost} runs measured nothing (the log above says why)` : '';
  return `${fmt(s.median, digits)} (${fmt(s.min, digits)}..${fmt(s.max, digits)})${lost}`;
}

export interface Row {
  bench: string;
  figure: string;
  anchor: string;
  ratio: string;
  aim: string;
}

export function table(rows: Row[]): string {
  const head: Row = { bench: 'benchmark', figure: 'pane: median (min..max)', anchor: 'anchor: median (min..max)', ratio: 'ratio', aim: 'aim' };
  const all = [head, ...rows];
  const cols: (keyof Row)[] = ['bench', 'figure', 'anchor', 'ratio', 'aim'];
  const lines = all.map((r) => `| ${cols.map((c) => r[c]).join(' | ')} |`);
  lines.splice(1, 0, `|${cols.map(() => '---').join('|')}|`);
  return lines.join('\n');
}
