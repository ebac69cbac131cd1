// Session handlers: new, kill, rename, list, get, viewport, snapshot, restore.
import { faults, PaneFault } from '../../kits/protocol/error';
import { bannerText } from '../persist/banner';
import type { Pane, Session } from '../../kits/protocol/model';
import { createPane, destroyPane, killSession } from '../model/lifecycle';
import { setTag } from '../model/paneOps';
import { namesItself } from '../model/paneTracker';
import { comeback, shellInstead } from '../persist/resurrect';
import { bodyOf } from '../model/bodies/registry';
import { wholeBody } from '../../kits/layout/geometry';
import { leaves } from '../../kits/layout/tree';
import * as model from '../model/session';
import { clampViewport, MAX_COLS, MAX_ROWS } from '../model/sizeLimits';
import type { SessionAck } from '../../kits/protocol/session';
import type { HandlerTable } from './types';
import { frontUrl } from './client';
import { scopeOf } from '../grants/scope';
import { ownContext } from '../model/session/contexts';

function ack(s: Session): SessionAck {
  return { session: s.id, name: s.name };
}

export const sessionHandlers: HandlerTable = {
  'session/new': (p, { server, client }) => {
    // A joined host's session/new is forwarded before it gets here (server/hosts/hostService.ts): any other host is not one.
    if (p.host !== undefined && p.host !== server.host) throw new PaneFault('not-found', `no host ${p.host} is joined here, so no session can be made there; add it with pane host add ${p.host} ssh://[USER@]HOST and join it with pane host connect ${p.host}`, { subject: p.host });
    const s = model.makeSession(server, p.name, p.viewport);
    let pane: Pane;
    try {
      pane = createPane(server, s, { ...(p.pane ?? {}), launch: p.launch, cwd: p.cwd, creator: client.user }, wholeBody(s.viewport));
    } catch (e) {
      model.dropSession(server, s); // never announced: its closing is not said
      throw e;
    }
    model.publish(server, model.open(s, pane.n));
    return ack(s);
  },
  'session/kill': (p, { server }) => {
    const s = server.session(p.session);
    killSession(server, s);
    return ack(s);
  },
  'session/rename': (p, { server }) => {
    const s = server.session(p.session);
    model.publish(server, model.rename(server, s, p.name));
    return ack(s);
  },
  'session/layout': (p, { server }) => {
    const s = p.pane !== undefined ? server.sessionOf(server.pane(p.pane)) : server.session(p.session);
    const done = model.arrange(s, p.layout);
    model.publish(server, done.events);
    return { ...ack(s), layout: done.layout };
  },
  'session/list': (_p, { server, client }) => ({
    // A grant's guest sees its own session alone.
    sessions: [...server.sessions.values()].filter((s) => (scopeOf(client.principal) ?? s.id) === s.id).map((s) => ({
      id: s.id,
      name: s.name,
      panes: server.panesOf(s).length,
      focused: s.focused,
      createdAt: s.createdAt,
    })),
  }),
  'session/get': (p, { server }) => server.session(p.session),
  'session/viewport': (p, { server, services, client }) => {
    const s = server.session(p.session);
    // This window's size; the session takes the one the windowSize policy picks among its windows.
    const { session: _s, ...size } = p;
    // Its cell size: how many rows an image covers in the screen model (server/pty/screenImages.ts).
    if (p.chrome?.cell) server.screen.cellSize(p.chrome.cell.w, p.chrome.cell.h);
    // An absurd size is clamped to what a terminal holds, and the reply says so.
    const fit = clampViewport(size);
    const clamped = fit.cols !== p.cols || fit.rows !== p.rows ? `${p.cols}x${p.rows} is outside 2x2..${MAX_COLS}x${MAX_ROWS}: taken as ${fit.cols}x${fit.rows}` : undefined;
    model.publish(server, model.setViewport(s, services.viewports.report(s, client.id, { ...size, ...fit }, services.windowSize)));
    return { ...ack(s), viewport: { cols: s.viewport.cols, rows: s.viewport.rows }, ...(clamped ? { clamped } : {}) };
  },
  'session/context': (p, { server, services, client }) => {
    const s = server.session(p.session);
    // A guest or an agent is never in the session's own view: its focus would move the person's.
    const own = ownContext(client.principal);
    if (p.context === null && own !== null) throw faults.denied(`${client.principal.kind === 'agent' ? 'an agent' : "a grant's guest"} follows a context of its own (${own})${client.principal.kind === 'agent' ? '' : ' or a named one'}; the session's own focus is the person's`);
    // A named context is a view people share (a grant names one): an agent's focus there would move theirs.
    if (client.principal.kind === 'agent' && p.context !== undefined && p.context !== own) throw faults.denied(`an agent follows its own context (${own}) alone; a named one is a view people share, and its focus is theirs`);
    const name = p.context ?? own;
    let v;
    try {
      v = services.contexts.choose(client.id, s.id, name, { focused: s.focused, zoomed: s.zoomed });
    } catch (e) {
      throw faults.failed((e as Error).message);
    }
    return { session: s.id, context: name, focused: v ? v.focused : s.focused, zoomed: v ? v.zoomed : s.zoomed };
  },
  'session/attach': async (p, { server, services, client }) => {
    // A joined host's session (HOST:NAME) was made a local view before it got here (server/hosts/hostService.ts).
    const s = server.session(p.session);
    const from = p.from === undefined ? undefined : server.sessionOf(server.pane(p.from));
    // The windows showing the caller's session switch (the caller itself, a CLI, shows none).
    const windows = from === undefined ? 0 : services.viewports.clientsOf(from.id).filter((c) => c !== client.id).length;
    if (from !== undefined && from.id !== s.id) server.publish('session/attached', { session: s.id, name: s.name, from: from.id });
    // No window was told: a one-time URL opens one on it (the launch token is the person's, as pane url's).
    const launchUrl = windows === 0 ? await frontUrl(server).catch(() => undefined) : undefined;
    const url = launchUrl?.(`session=${encodeURIComponent(s.name)}`);
    return { ...ack(s), windows, ...(url !== undefined ? { url } : {}) };
  },
  'session/snapshot': (p, { server }) => {
    const s = server.session(p.session);
    const panes = structuredClone(server.panesOf(s)).map((x) => (namesItself(server, x.n) ? { ...x, autoName: true as const } : x));
    return { version: 1 as const, session: structuredClone(s), panes };
  },
  'session/restore': (p, { server, client }) => {
    const snap = p.snapshot;
    const s = model.makeSession(server, p.name ?? model.restoredName(server, snap.session.name), snap.session.viewport);
    // Old pane numbers map to new ones: numbers are never reused within a server's life.
    const map = new Map<number, Pane>();
    const byN = new Map(snap.panes.map((x) => [x.n, x]));
    const wanted = [...leaves(snap.session.layout), ...snap.session.floating.map((f) => f.pane)];
    const notices = new Map<Pane, string[]>();
    try {
      for (const old of wanted) {
        const was = byN.get(old);
        if (!was) throw faults.badRequest(`snapshot's layout names pane ${old}, which is not in its pane list`, `snapshot.session.layout`);
        // As a restart does (server/persist/resurrect.ts), but at once: a directory or a program this
        // machine lacks (a file from another one, an old one) becomes a shell saying so, never a failed restore.
        const c = comeback(server, was, 'does not exist here');
        const common = {
          // A name that followed its program follows the new one's (a shell's directory, its jobs), not the one it had then.
          ...(was.autoName ? {} : { name: was.tag.name }),
          signature: was.signature,
          owner: was.owner,
          creator: client.user,
        };
        const asShell = (cwd: string) => ({ ...common, cwd, kind: bodyOf(was.kind).shellKind, attrs: { ...was.attrs, 'default-shell': '1' } });
        const size = { cols: was.cols, rows: was.rows };
        let pane: Pane;
        let said = c.notices;
        try {
          pane = createPane(server, s, c.shell ? asShell(c.cwd) : { ...common, cwd: c.cwd, ...(c.launch ? { launch: c.launch } : {}), kind: was.kind, attrs: was.attrs }, size);
        } catch (e) {
          // Whatever refused (an agent CLI gone), the pane still comes; a limit refuses the shell too, and so the restore.
          const instead = shellInstead(server, c.cwd, e);
          pane = createPane(server, s, asShell(instead.cwd), size);
          said = [...said, instead.notice];
        }
        setTag(server, pane, { user: was.tag.user });
        map.set(old, pane);
        if (said.length > 0) notices.set(pane, said);
      }
    } catch (e) {
      for (const p2 of map.values()) destroyPane(server, p2.n);
      model.dropSession(server, s); // never announced: its closing is not said
      throw e;
    }
    model.publish(server, model.restore(s, snap.session, (old) => map.get(old)?.n));
    for (const [pane, said] of notices) server.terminals.get(pane.n)?.show(bannerText({ history: null, notices: said, waitingFor: null }));
    return ack(s);
  },
};
