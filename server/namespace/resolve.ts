// Path → table row: walks a namespace path, checking each element against the
// live state (a gone pane is ENOENT, a by-sig/<sig>/<n> that does not match is
// too), and hands back the row with the pane or view key it is about.
import { PaneFault } from '../../kits/protocol/error';
import { PaneRefSchema } from '../../kits/protocol/ids';
import { PortNameSchema } from '../../kits/protocol/plumb';
import { nsFaults, rpc } from './call';
import { decodeName } from './lines';
import { viewKey, viewPanes, type View } from './rootFiles';
import { ROWS } from './table';
import type { Call, Row, Target } from './types';

const VIEWS = new Set<string>(['by-sig', 'by-owner', 'by-session']);
const VIEW_KEY: Record<View, string> = { 'by-sig': 'sig', 'by-owner': 'owner', 'by-session': 'session' };
const PANE_REF = /^(?:[A-Za-z0-9][A-Za-z0-9._-]*:)?[1-9][0-9]*$/;

/** "/a//b/./c/" → ["a","b","c"]; ".." climbs (never above the root). */
export function segments(path: string): string[] {
  const out: string[] = [];
  for (const s of path.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') out.pop();
    else out.push(s);
  }
  return out;
}

export function normalize(path: string): string {
  return '/' + segments(path).join('/');
}

export interface Resolved {
  row: Row;
  target: Target;
}

function row(pattern: string): Row {
  const r = ROWS.get(pattern);
  if (!r) throw new Error(`namespace table has no row ${pattern}`);
  return r;
}

async function paneByRef(c: Call, ref: string, path: string) {
  if (!PANE_REF.test(ref) || !PaneRefSchema.safeParse(/^[0-9]+$/.test(ref) ? Number(ref) : ref).success) throw nsFaults.notFound(path);
  // Another host's pane is answered by that host under /HOST:N/ (service.ts's remoteOf): here its number would name a local pane.
  const host = ref.includes(':') ? ref.slice(0, ref.indexOf(':')) : undefined;
  if (host !== undefined && host !== c.ns.server.host) throw new PaneFault('pane-not-found', `${path}: ${ref} is on host ${host}, not this server: its files are under /${ref}/ while ${host} is joined (pane host ls)`, { subject: path });
  try {
    return await rpc(c, 'pane/get', { pane: /^[0-9]+$/.test(ref) ? Number(ref) : ref });
  } catch (e) {
    // A gone pane keeps the protocol's own code and message (ENOENT through FUSE).
    if (e instanceof PaneFault && e.code === 'pane-not-found') throw new PaneFault('pane-not-found', `${path}: ${e.message}`, { subject: path });
    throw e;
  }
}

/** The files below a pane directory (the same under /<n>/ and every view). */
function paneFile(path: string, name: string, rest: string[], pane: Target['pane'], dirPattern: string): Resolved {
  if (rest.length === 0) return { row: row(dirPattern), target: { path, name, ...(pane ? { pane } : {}) } };
  const file = ROWS.get(`/<n>/${rest[0]}`);
  if (!file || rest.length > 1) {
    if (file && file.type === 'file') throw nsFaults.notDir(path);
    throw nsFaults.notFound(path);
  }
  return { row: file, target: { path, name: rest[0]!, ...(pane ? { pane } : {}) } };
}

/** A named child of a fixed directory: /plumb/PORT (a port exists once it is named). */
function placeholder(dir: string, name: string): Row | undefined {
  if (dir === 'plumb' && PortNameSchema.safeParse(name).success) return ROWS.get('/plumb/<port>');
  return undefined;
}

export async function resolve(c: Call, rawPath: string): Promise<Resolved> {
  if (rawPath.includes('\0')) throw nsFaults.bad(rawPath, 'a path has no NUL bytes');
  const segs = segments(rawPath);
  const path = '/' + segs.join('/');
  const [a, ...rest] = segs;
  if (a === undefined) return { row: row('/'), target: { path, name: '' } };
  const name = segs[segs.length - 1]!;
  const fixed = ROWS.get(`/${a}`) ?? ROWS.get(`/${a}/`);
  if (fixed && !VIEWS.has(a)) {
    if (rest.length === 0) return { row: fixed, target: { path, name } };
    if (fixed.type === 'file') throw nsFaults.notDir(path);
    const child = rest.length === 1 ? (ROWS.get(`/${a}/${rest[0]}`) ?? placeholder(a, rest[0]!)) : undefined;
    if (!child) throw nsFaults.notFound(path);
    return { row: child, target: { path, name } };
  }
  if (VIEWS.has(a)) {
    const view = a as View;
    const k = VIEW_KEY[view];
    if (rest.length === 0) return { row: row(`/${view}/`), target: { path, name } };
    const key = decodeName(rest[0]!);
    const panes = await viewPanes(c, view);
    const known = panes.some((p) => viewKey(c, view, p) === key) || (view === 'by-session' && c.ns.server.sessions.size > 0 && [...c.ns.server.sessions.values()].some((s) => s.name === key));
    if (!known) throw nsFaults.notFound(path, `no ${k} ${JSON.stringify(key)} among the panes`);
    if (rest.length === 1) return { row: row(`/${view}/<${k}>/`), target: { path, name, key } };
    const pane = await paneByRef(c, rest[1]!, path);
    if (viewKey(c, view, pane) !== key) throw nsFaults.notFound(path, `pane ${pane.n} is not in ${view}/${rest[0]}`);
    return paneFile(path, name, rest.slice(2), pane, `/${view}/<${k}>/<n>/`);
  }
  const pane = await paneByRef(c, a, path);
  return paneFile(path, name, rest, pane, '/<n>/');
}
