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

const regexCache = new Map<string, RegExp>();

/** `**` spans directories, `*` and `?` stay within one, `[...]` is a class. */
export function globRegex(glob: string): RegExp {
  const hit = regexCache.get(glob);
  if (hit) return hit;
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        re += `[${glob.slice(i + 1, end).replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  const out = new RegExp(`^${re}$`);
  if (regexCache.size > 1000) regexCache.clear();
  regexCache.set(glob, out);
  return out;
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
  return globRegex(r.path).test(file);
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
