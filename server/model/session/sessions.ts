// A session's birth and its whole-session operations: a fresh empty session, its
// first pane, the viewport the window reports, and a saved arrangement brought
// back onto new pane numbers (session/restore and resurrection share it).
import { faults } from '../../../kits/protocol/error';
import type { LayoutNode, Session, Viewport } from '../../../kits/protocol/model';
import type { Params } from '../../../kits/protocol/index';
import { leaves } from '../../../kits/layout/tree';
import { clampRect, clampViewport } from '../sizeLimits';
import { DEFAULT_VIEWPORT, type PaneServer } from '../../paneServer';
import { changes, createdEvent, focusEvent, layoutEvent, mark, type SessionEvent } from './changes';
import { focus, members } from './focus';

/**
 * A fresh, empty session registered on the server, with a unique name (`main`,
 * then `2`, `3`, ...). `keep` gives it a saved id and birth time (resurrection).
 */
export function makeSession(server: PaneServer, name: string | undefined, viewport: Viewport = DEFAULT_VIEWPORT, keep?: { id: string; createdAt: number }): Session {
  const taken = new Set([...server.sessions.values()].map((s) => s.name));
  let chosen = name ?? (taken.has('main') ? undefined : 'main');
  if (chosen !== undefined && taken.has(chosen)) throw faults.failed(`a session named ${chosen} already exists`);
  for (let i = 2; chosen === undefined; i++) if (!taken.has(String(i))) chosen = String(i);
  const s: Session = {
    id: keep?.id ?? server.newUuid(),
    name: chosen,
    host: server.host,
    layout: null,
    floating: [],
    focused: null,
    zoomed: null,
    viewport: { ...viewport, ...clampViewport(viewport) },
    placements: [],
    createdAt: keep?.createdAt ?? Date.now(),
  };
  server.sessions.set(s.id, s);
  return s;
}

/** Renames a session; a name another session has is refused, the same name is no change. */
export function rename(server: PaneServer, s: Session, name: string): SessionEvent[] {
  if (s.name === name) return [];
  if ([...server.sessions.values()].some((x) => x.id !== s.id && x.name === name)) throw faults.failed(`a session named ${name} already exists`);
  s.name = name;
  return [{ event: 'session/renamed', data: { session: s.id, name } }];
}

/**
 * Takes a session off the server (its panes must be gone already: killSession in
 * model/lifecycle.ts ends them first) and returns its `session/closed`, which a
 * caller undoing a birth that failed before `open`/`restore` announced it drops.
 */
export function dropSession(server: PaneServer, s: Session): SessionEvent[] {
  if (!server.sessions.delete(s.id)) return [];
  return [{ event: 'session/closed', data: { session: s.id, name: s.name } }];
}

/** The name a restored session takes: its saved one, else that name with the first free `-2`, `-3`, ... */
export function restoredName(server: PaneServer, name: string): string {
  const taken = new Set([...server.sessions.values()].map((s) => s.name));
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name}-${i}`)) return `${name}-${i}`;
}

/** A new session's first pane fills it and has focus; the session is announced. */
export function open(s: Session, n: number): SessionEvent[] {
  if (members(s).length > 0) throw faults.failed(`session ${s.name} already has panes`);
  s.layout = { type: 'leaf', pane: n };
  focus(s, n);
  return [createdEvent(s), layoutEvent(s), focusEvent(s)];
}

/** The window's size in cells (clamped to the size limits) and what a frame costs; unchanged → no event. */
export function setViewport(s: Session, v: Omit<Params<'session/viewport'>, 'session'>): SessionEvent[] {
  const { cols, rows } = clampViewport(v);
  const chrome = v.chrome ?? s.viewport.chrome;
  const same = s.viewport.cols === cols && s.viewport.rows === rows && s.viewport.chrome?.cols === chrome?.cols && s.viewport.chrome?.rows === chrome?.rows;
  if (same) return [];
  const m = mark(s);
  s.viewport = { cols, rows, ...(chrome ? { chrome } : {}) };
  return changes(s, m);
}

/** What restore takes from a saved session. */
export type SavedArrangement = Pick<Session, 'layout' | 'floating' | 'focused' | 'zoomed' | 'recent'>;

/**
 * Lays a saved arrangement out on the panes recreated for it: `map` gives each
 * saved pane number its new one (undefined: it did not come back, and its split
 * collapses). Focus falls back to the first tile, then the first float; a zoom
 * on a pane that did not come back ends, and the focus history keeps the panes that did. The restored session is announced.
 */
export function restore(s: Session, saved: SavedArrangement, map: (old: number) => number | undefined): SessionEvent[] {
  if (members(s).length > 0) throw faults.failed(`session ${s.name} already has panes`);
  const remap = (node: LayoutNode | null): LayoutNode | null => {
    if (!node) return null;
    if (node.type === 'leaf') {
      const n = map(node.pane);
      return n === undefined ? null : { type: 'leaf', pane: n };
    }
    const a = remap(node.a);
    const b = remap(node.b);
    return a && b ? { ...node, a, b } : (a ?? b);
  };
  s.layout = remap(saved.layout);
  s.floating = saved.floating.flatMap((f) => {
    const n = map(f.pane);
    return n === undefined ? [] : [clampRect({ ...f, pane: n })];
  });
  const zoomed = saved.zoomed === null ? undefined : map(saved.zoomed);
  s.zoomed = zoomed !== undefined && members(s).includes(zoomed) ? zoomed : null;
  const wanted = saved.focused === null ? undefined : map(saved.focused);
  const next = wanted !== undefined && members(s).includes(wanted) ? wanted : (leaves(s.layout)[0] ?? s.floating[0]?.pane);
  if (next !== undefined) focus(s, next);
  // The focus history comes back on the new numbers, less the panes that did not.
  const back = (saved.recent ?? []).map(map).filter((n): n is number => n !== undefined && n !== s.focused && members(s).includes(n));
  if (back.length > 0) s.recent = [...new Set(back)];
  return [createdEvent(s), layoutEvent(s), focusEvent(s)];
}
