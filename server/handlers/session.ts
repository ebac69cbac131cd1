// Session handlers: new, kill, rename, list, get, viewport, snapshot, restore.
import { faults } from '../../kits/protocol/error';
import type { LayoutNode, Pane, Session } from '../../kits/protocol/model';
import { createPane, destroyPane } from '../model/lifecycle';
import { wholeBody } from '../../kits/layout/geometry';
import { leaves } from '../../kits/layout/tree';
import { relayout } from '../model/relayout';
import { clampViewport } from '../model/sizeLimits';
import { DEFAULT_VIEWPORT, type PaneServer } from '../paneServer';
import type { HandlerTable } from './types';

function ack(s: Session) {
  return { session: s.id, name: s.name };
}

/** A fresh, empty session with a unique name (`main`, then `2`, `3`, ...). */
export function makeSession(server: PaneServer, name: string | undefined, viewport = DEFAULT_VIEWPORT): Session {
  const taken = new Set([...server.sessions.values()].map((s) => s.name));
  let chosen = name ?? (taken.has('main') ? undefined : 'main');
  if (chosen !== undefined && taken.has(chosen)) throw faults.failed(`a session named ${chosen} already exists`);
  for (let i = 2; chosen === undefined; i++) if (!taken.has(String(i))) chosen = String(i);
  const s: Session = {
    id: server.newUuid(),
    name: chosen,
    host: server.host,
    layout: null,
    floating: [],
    focused: null,
    zoomed: null,
    viewport: { ...viewport, ...clampViewport(viewport) },
    placements: [],
    createdAt: Date.now(),
  };
  server.sessions.set(s.id, s);
  return s;
}

export function killSession(server: PaneServer, s: Session): void {
  for (const p of server.panesOf(s)) destroyPane(server, p.n);
  server.sessions.delete(s.id);
  server.publish('session/closed', { session: s.id, name: s.name });
}

export const sessionHandlers: HandlerTable = {
  'session/new': (p, { server, client }) => {
    const s = makeSession(server, p.name, p.viewport);
    try {
      const pane = createPane(server, s, { ...(p.pane ?? {}), launch: p.launch, cwd: p.cwd, creator: client.user }, wholeBody(s.viewport));
      s.layout = { type: 'leaf', pane: pane.n };
      s.focused = pane.n;
    } catch (e) {
      server.sessions.delete(s.id);
      throw e;
    }
    server.publish('session/created', { session: s });
    relayout(server, s);
    server.focusChanged(s);
    return ack(s);
  },
  'session/kill': (p, { server }) => {
    const s = server.session(p.session);
    killSession(server, s);
    return ack(s);
  },
  'session/rename': (p, { server }) => {
    const s = server.session(p.session);
    if (s.name === p.name) return ack(s);
    if ([...server.sessions.values()].some((x) => x.id !== s.id && x.name === p.name)) throw faults.failed(`a session named ${p.name} already exists`);
    s.name = p.name;
    server.publish('session/renamed', { session: s.id, name: s.name });
    return ack(s);
  },
  'session/list': (_p, { server }) => ({
    sessions: [...server.sessions.values()].map((s) => ({
      id: s.id,
      name: s.name,
      panes: server.panesOf(s).length,
      focused: s.focused,
      createdAt: s.createdAt,
    })),
  }),
  'session/get': (p, { server }) => server.session(p.session),
  'session/viewport': (p, { server }) => {
    const s = server.session(p.session);
    const { cols, rows } = clampViewport(p);
    const chrome = p.chrome ?? s.viewport.chrome;
    const same = s.viewport.cols === cols && s.viewport.rows === rows && s.viewport.chrome?.cols === chrome?.cols && s.viewport.chrome?.rows === chrome?.rows;
    if (!same) {
      s.viewport = { cols, rows, ...(chrome ? { chrome } : {}) };
      relayout(server, s);
    }
    return ack(s);
  },
  'session/snapshot': (p, { server }) => {
    const s = server.session(p.session);
    return { version: 1 as const, session: structuredClone(s), panes: structuredClone(server.panesOf(s)) };
  },
  'session/restore': (p, { server, client }) => {
    const snap = p.snapshot;
    const s = makeSession(server, p.name ?? uniqueRestoreName(server, snap.session.name), snap.session.viewport);
    // Old pane numbers map to new ones: numbers are never reused within a server's life.
    const map = new Map<number, Pane>();
    const byN = new Map(snap.panes.map((x) => [x.n, x]));
    const wanted = [...leaves(snap.session.layout), ...snap.session.floating.map((f) => f.pane)];
    try {
      for (const old of wanted) {
        const was = byN.get(old);
        if (!was) throw faults.badRequest(`snapshot's layout names pane ${old}, which is not in its pane list`, `snapshot.session.layout`);
        const pane = createPane(
          server,
          s,
          {
            ...(was.attrs['default-shell'] === '1' ? { cwd: was.cwd } : { launch: was.launch ?? undefined }),
            name: was.tag.name,
            signature: was.signature,
            kind: was.kind,
            owner: was.owner,
            attrs: was.attrs,
            creator: client.user,
          },
          { cols: was.cols, rows: was.rows },
        );
        pane.tag = { ...pane.tag, user: was.tag.user };
        map.set(old, pane);
      }
    } catch (e) {
      for (const p2 of map.values()) destroyPane(server, p2.n);
      server.sessions.delete(s.id);
      throw e;
    }
    const remap = (node: LayoutNode): LayoutNode =>
      node.type === 'leaf' ? { type: 'leaf', pane: map.get(node.pane)!.n } : { ...node, a: remap(node.a), b: remap(node.b) };
    s.layout = snap.session.layout ? remap(snap.session.layout) : null;
    s.floating = snap.session.floating.map((f) => ({ ...f, pane: map.get(f.pane)!.n }));
    s.focused = snap.session.focused !== null ? (map.get(snap.session.focused)?.n ?? null) : null;
    s.zoomed = snap.session.zoomed !== null ? (map.get(snap.session.zoomed)?.n ?? null) : null;
    server.publish('session/created', { session: s });
    relayout(server, s);
    server.focusChanged(s);
    return ack(s);
  },
};

function uniqueRestoreName(server: PaneServer, name: string): string {
  const taken = new Set([...server.sessions.values()].map((s) => s.name));
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name}-${i}`)) return `${name}-${i}`;
}
