// Topic extraction: a prompt (or a file path) becomes its top few subject words,
// with stop words, convergence noise and identity noise removed.
import path from 'node:path';
import type { AwarenessConfig } from './config';
import { PATH_NOISE } from './config';

/** The sets a config implies, built once per config rather than per prompt. */
export interface Vocab {
  drop: Set<string>;
  pathDrop: Set<string>;
  topN: number;
}

export function vocabOf(cfg: AwarenessConfig): Vocab {
  const drop = new Set<string>();
  // Both spellings: tokens arrive plural-folded ("does" → "doe"), lists are written plainly.
  for (const w of [...cfg.stopWords, ...cfg.noiseWords]) {
    drop.add(w.toLowerCase());
    drop.add(singular(w.toLowerCase()));
  }
  // Identity noise is split like prompt text, so "ada-laptop" drops "ada" and "laptop".
  for (const id of cfg.identityNoise) for (const t of tokenize(id)) drop.add(t);
  return { drop, pathDrop: new Set([...drop, ...PATH_NOISE]), topN: cfg.topN };
}

/**
 * Lowercased words: camelCase and snake/kebab/dotted names split into their parts
 * (code talks in identifiers), plurals folded (so "tokens" meets "token"), and
 * pure numbers and one-letter words dropped.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  for (const raw of spaced.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || /^\d+$/.test(raw)) continue;
    out.push(singular(raw));
  }
  return out;
}

/** A light plural fold; real stemming would merge words that mean different things (e.g. "process"/"proces"). */
export function singular(w: string): string {
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(sses|xes|ches|shes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !/(ss|us|is|os|as)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Words ranked by frequency, ties by first appearance; at most n. */
function topByFrequency(words: string[], n: number): string[] {
  const count = new Map<string, number>();
  for (const w of words) count.set(w, (count.get(w) ?? 0) + 1);
  // Map keeps insertion order, so a stable sort leaves ties in order of first appearance.
  return [...count.entries()]
    .sort((x, y) => y[1] - x[1])
    .slice(0, n)
    .map(([w]) => w);
}

/** A word of a prompt that is a path (`src/auth/login.ts`, `./x`, `login.ts:42`): its words are read as a path's. */
const PATH_WORD = /^(?:\.{0,2}\/|~\/)?(?:[\w.@-]+\/)+[\w.@-]*(?::\d+)*$|^[\w@-]+\.(?:[jt]sx?|mjs|cjs|py|rs|go|rb|java|kt|c|h|cc|cpp|hpp|cs|swift|md|json|ya?ml|toml|sh)(?::\d+)*$/;

/** A prompt's words with the quotes, brackets and punctuation around them taken off (empty ones skipped). */
function* promptWords(text: string): Generator<string> {
  for (const raw of text.split(/\s+/)) {
    const w = raw.replace(/^[`'"(<[]+|[`'",;)>\].!?]+$/g, '');
    if (w !== '') yield w;
  }
}

/** A path word without its `:line[:col]`. */
const withoutLine = (w: string) => w.replace(/(?::\d+)+$/, '');

/**
 * The key topics of one prompt. A path typed in it contributes what its name says
 * (`src/auth/login.ts` → auth, login), never its fragments (`src`, `ts`): those are
 * shared by every file of every project, and made unrelated work look alike.
 */
export function extractTopics(text: string, v: Vocab): string[] {
  const words: string[] = [];
  for (const w of promptWords(text)) {
    if (PATH_WORD.test(w)) for (const t of tokenize(withoutLine(w).replace(/\.[A-Za-z0-9]+$/, ''))) !v.pathDrop.has(t) && words.push(t);
    else for (const t of tokenize(w)) !v.drop.has(t) && words.push(t);
  }
  return topByFrequency(words, v.topN);
}

/** At most this many paths of one prompt count as files it names (a pasted listing is not a subject). */
export const MAX_PROMPT_PATHS = 16;

/**
 * The files a prompt names (`src/auth/login.ts`, `./x.py:12`, `login.ts`), line
 * numbers dropped, resolved against `cwd` when relative and one is known. A bare
 * directory (`src/`) is not a file. In order of first mention, without repeats.
 */
export function promptPaths(text: string, cwd?: string | null): string[] {
  const out: string[] = [];
  for (const w of promptWords(text)) {
    if (!PATH_WORD.test(w)) continue;
    const file = withoutLine(w);
    // A directory is not a file; a path in the asker's home (`~/`) means a different place for each agent.
    if (file.endsWith('/') || file.startsWith('~/') || !/[^/]\.[A-Za-z0-9]+$/.test(file)) continue;
    const abs = file.startsWith('/') ? path.posix.normalize(file) : cwd ? path.posix.join(cwd, file) : path.posix.normalize(file);
    if (!out.includes(abs)) out.push(abs);
    if (out.length >= MAX_PROMPT_PATHS) break;
  }
  return out;
}

/**
 * Topics a touched file contributes: its directory names and its stem
 * ("src/auth/jwtVerify.ts" → auth, jwt, verify). Under the agent's cwd only the
 * part inside the project counts: the project's own name is shared by every agent
 * working there, so it is identity, not topic.
 */
export function pathTopics(file: string, v: Vocab, cwd?: string | null): string[] {
  const root = cwd ? (cwd.endsWith('/') ? cwd : `${cwd}/`) : null;
  const inside = root !== null && file.startsWith(root) ? file.slice(root.length) : file;
  const parts = inside.split(/[\\/]/).filter((p) => p !== '' && p !== '.' && p !== '..');
  // Only the last few segments: /home/ada/src/... is where the project lives, not what it is about.
  const near = parts.slice(-3).map((p, i, a) => (i === a.length - 1 ? p.replace(/\.[^.]*$/, '') : p));
  const seen = new Set<string>();
  for (const t of tokenize(near.join(' '))) if (!v.pathDrop.has(t)) seen.add(t);
  return [...seen];
}

/** A short stable hash of a prompt (FNV-1a), to notice a repeated prompt without storing it twice. */
export function hashText(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
