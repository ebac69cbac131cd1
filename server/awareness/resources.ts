// What a claim covers: one file, everything under a directory, or what a glob
// matches — resolved to absolute paths so agents in different cwds compare equal.
import path from 'node:path';
import type { ResourceKind } from '../../kits/protocol/awareness';

export interface Resource {
  kind: ResourceKind;
  path: string;
}

const GLOB_CHARS = /[*?[]/;

/** Absolute, normalized; a dir ends in "/" so "src/a" never covers "src/ab". */
export function normalizeResource(kind: ResourceKind, p: string, cwd: string): Resource {
  const abs = path.posix.resolve(cwd, p.replace(/\\/g, '/'));
  if (kind === 'dir') return { kind, path: abs.endsWith('/') ? abs : `${abs}/` };
  // resolve() would fold "**/.." style segments oddly, but it keeps "*" and "?" as they are.
  return { kind, path: abs };
}

/** A path given on a command line: a trailing "/" means a directory, glob characters a glob. */
export function guessKind(p: string): ResourceKind {
  if (GLOB_CHARS.test(p)) return 'glob';
  return p.endsWith('/') ? 'dir' : 'file';
}

/**
 * One path segment against one pattern segment: `*` any run, `?` one character,
 * `[...]` a class (`!` or `^` negates). The two-pointer walk backtracks only to the
 * last `*`, so it stays O(n·m) whatever the pattern (a regex here could be made
 * to backtrack for minutes by a hostile claim).
 */
function segmentMatch(pat: string, s: string): boolean {
  let p = 0;
  let i = 0;
  let starP = -1;
  let starI = 0;
  while (i < s.length) {
    const c = pat[p];
    let step = 0;
    if (c === '[') {
      const end = pat.indexOf(']', p + 2);
      if (end > 0) {
        const neg = pat[p + 1] === '!' || pat[p + 1] === '^';
        const body = pat.slice(p + (neg ? 2 : 1), end);
        let hit = false;
        for (let k = 0; k < body.length; k++) {
          if (body[k + 1] === '-' && k + 2 < body.length) {
            if (s[i]! >= body[k]! && s[i]! <= body[k + 2]!) hit = true;
            k += 2;
          } else if (body[k] === s[i]) hit = true;
        }
        if (hit !== neg) step = end - p + 1;
      } else if (s[i] === '[') step = 1;
    } else if (c === '?' || (c !== undefined && c !== '*' && c === s[i])) step = 1;
    if (step > 0) {
      p += step;
      i++;
    } else if (c === '*') {
      starP = p++;
      starI = i;
    } else if (starP >= 0) {
      p = starP + 1;
      i = ++starI;
    } else return false;
  }
  while (pat[p] === '*') p++;
  return p === pat.length;
}

/** Does an absolute glob match an absolute path? `**` spans any number of directories. */
export function globMatch(glob: string, file: string): boolean {
  const ps = glob.split('/');
  const fs = file.split('/');
  // memo over (pattern segment, path segment): O(P·S) states, no exponential blow-up from many `**`.
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (fs.length + 1) + j;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let r: boolean;
    if (i === ps.length) r = j === fs.length;
    else if (ps[i] === '**') r = go(i + 1, j) || (j < fs.length && go(i, j + 1));
    else r = j < fs.length && segmentMatch(ps[i]!, fs[j]!) && go(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return go(0, 0);
}

/** The literal directory a glob starts from ("/p/src/**\/*.ts" → "/p/src/"). */
function globBase(glob: string): string {
  const at = glob.search(GLOB_CHARS);
  const lit = at < 0 ? glob : glob.slice(0, at);
  return lit.slice(0, lit.lastIndexOf('/') + 1);
}

/** The extension a glob is limited to, if its last segment is "*.ext". */
function globExt(glob: string): string | null {
  const m = /\*\.([A-Za-z0-9]+)$/.exec(glob);
  return m ? m[1]! : null;
}

/** Does the resource cover this file? */
export function covers(r: Resource, file: string): boolean {
  if (r.kind === 'file') return r.path === file;
  if (r.kind === 'dir') return file.startsWith(r.path);
  return globMatch(r.path, file);
}

const related = (x: string, y: string) => x.startsWith(y) || y.startsWith(x);

/**
 * Could some file be covered by both? Exact for files and dirs; for globs it
 * errs toward "yes" (an advisory warning too many beats a collision unseen),
 * except when both name different extensions.
 */
export function overlaps(x: Resource, y: Resource): boolean {
  if (x.kind === 'file') return covers(y, x.path);
  if (y.kind === 'file') return covers(x, y.path);
  if (x.kind === 'dir' && y.kind === 'dir') return related(x.path, y.path);
  if (x.kind === 'glob' && y.kind === 'glob') {
    const ex = globExt(x.path);
    const ey = globExt(y.path);
    if (ex !== null && ey !== null && ex !== ey) return false;
    return related(globBase(x.path), globBase(y.path));
  }
  const g = x.kind === 'glob' ? x : y;
  const d = x.kind === 'dir' ? x : y;
  return related(globBase(g.path), d.path);
}

export function resourceKey(r: Resource): string {
  return `${r.kind}:${r.path}`;
}
