// What a grant's guest sees and touches: the one session its grant names, and
// nothing beyond that session's panes (issue 36; 001's attach grant is bound to a
// session). The principal table says which methods a guest may call at all
// (kits/protocol/authority.ts); this narrows each call to the grant's session:
// the pane a request names (or the focused one it defaults to) must be one of the
// session's, a listing or a snapshot shows that session alone, a namespace path
// must lie under one of its panes, and every event about another session, an
// agent, a host or another client is left out of the guest's stream. What is not
// named here is refused: a new method stays out of a guest's reach until it is.
import { PaneFault } from '../../kits/protocol/error';
import type { Pane, Session } from '../../kits/protocol/model';
import type { Principal } from '../../kits/protocol/principal';
import type { StateSnapshot } from '../../kits/protocol/client';
import { normalize } from '../namespace/resolve';
import type { PaneServer } from '../paneServer';

/** The session a principal is bound to: a grant's guest's, else none (the person, an agent by its .access). */
export function scopeOf(p: Principal): string | undefined {
  return p.kind === 'grant' ? p.session : undefined;
}

/** Methods a scoped guest calls as they are: they show nothing of a session (the server's version, the keymap, settings, the app list). */
const UNSCOPED = new Set(['server/info', 'apps/list', 'keymap/get', 'settings/get', 'events/unsubscribe']);
/** Methods whose answer the handler narrows to the guest's session itself (scopeOf): a listing, the state snapshot, the guest's own fellow clients. */
const NARROWED = new Set(['session/list', 'events/subscribe', 'client/list']);
/** Methods that name a session (or default to the first): held to the guest's. */
const SESSION_ARG = new Set(['session/get', 'session/snapshot', 'session/context', 'pane/list', 'pane/geometry']);
/** Methods that name a pane (or default to the focused one): the pane must be the guest's session's. */
const PANE_ARG = new Set(['pane/get', 'pane/wait', 'pane/focus', 'pane/zoom', 'pane/exec', 'pane/input', 'float/focus', 'float/raise', 'pty/attach', 'pty/detach', 'pty/ack', 'pty/read', 'pty/screen', 'pty/grid']);
/** Namespace requests: the path must lie under one of the session's panes (`/N/...`). */
const NS = new Set(['ns/list', 'ns/stat', 'ns/open', 'ns/read', 'ns/close']);

function denied(label: string, method: string, why: string): never {
  throw new PaneFault('denied', `denied: ${label} may not call ${method}: ${why}`, { reason: 'outside the grant’s session', subject: method });
}

/**
 * The checker set on a guest's connection (ClientConn.checkAccess): throws `denied`
 * for what lies outside session `sessionId`, and fills in the session (or the pane) a
 * request left to its default, so the handler acts inside it.
 */
export function scopeChecker(server: PaneServer, sessionId: string, label: string): (method: string, params: unknown) => void {
  const name = () => server.sessions.get(sessionId)?.name ?? '(ended)';
  const beyond = (what: string) => `it shows session ${name()}'s panes alone; ${what} is beyond them`;
  return (method, raw) => {
    const params = (raw ?? {}) as Record<string, unknown>;
    if (UNSCOPED.has(method) || NARROWED.has(method)) return;
    if (!server.sessions.has(sessionId)) denied(label, method, `session ${sessionId} has ended`);
    if (SESSION_ARG.has(method)) {
      if (params.session === undefined) params.session = sessionId;
      else if (!sameSession(server, params.session, sessionId)) denied(label, method, beyond(`session ${String(params.session)}`));
      return;
    }
    if (PANE_ARG.has(method)) {
      const target = paneIn(server, params.pane, params.session, sessionId);
      if (!target) denied(label, method, beyond(`pane ${String(params.pane ?? '(focused)')}`));
      params.pane = target.n;
      if (params.session !== undefined) params.session = sessionId;
      return;
    }
    if (NS.has(method)) {
      if (method === 'ns/open' && params.mode !== undefined && params.mode !== 'r') denied(label, method, 'a grant opens files for reading only (opening a pane’s event file to write takes its commands over)');
      const path = typeof params.path === 'string' ? normalize(params.path) : '';
      const n = /^\/([0-9]+)(?:\/|$)/.exec(path)?.[1];
      const p = n === undefined ? undefined : server.panes.get(Number(n));
      if (!p || p.session !== sessionId) denied(label, method, beyond(path || 'that path'));
      return;
    }
    denied(label, method, beyond('what it reaches (agents, mail, hosts, state, other sessions)'));
  };
}

function sameSession(server: PaneServer, ref: unknown, sessionId: string): boolean {
  if (typeof ref !== 'string') return false;
  try {
    return server.session(ref).id === sessionId;
  } catch {
    return false;
  }
}

/** The pane a request names (a local number or address; absent: the session's focused one) when it is in session `sessionId`. */
function paneIn(server: PaneServer, ref: unknown, sessionRef: unknown, sessionId: string): Pane | undefined {
  if (sessionRef !== undefined && !sameSession(server, sessionRef, sessionId)) return undefined;
  try {
    const p = server.pane(ref as string | number | undefined, sessionId);
    return p.session === sessionId ? p : undefined;
  } catch {
    return undefined;
  }
}

/** The state snapshot as a guest of session `sessionId` sees it: that session and its panes. */
export function scopedSnapshot(snap: StateSnapshot, sessionId: string): StateSnapshot {
  return { ...snap, sessions: snap.sessions.filter((s: Session) => s.id === sessionId), panes: snap.panes.filter((p) => p.session === sessionId) };
}

/** Events a scoped guest hears of every kind: the keymap, settings and app list it draws with. */
const CONFIG_EVENTS = /^(keymap|settings|apps)\//;

/**
 * Whether a guest of session `sessionId` hears `event`: those about its session and
 * its panes, and the config it draws with. Nothing of agents, hosts, grants, other
 * clients or other sessions; an event not named here is not heard.
 */
export function guestHears(server: Pick<PaneServer, 'panes'>, sessionId: string, event: string, data: unknown): boolean {
  const d = data as Record<string, unknown>;
  const ofPane = (n: unknown) => typeof n === 'number' && server.panes.get(n)?.session === sessionId;
  switch (event) {
    case 'pane/created':
    case 'pane/restarted':
    case 'pane/changed':
      return (d.pane as Pane | undefined)?.session === sessionId;
    case 'pane/closed':
    case 'pane/exited':
    case 'focus/changed':
    case 'session/closed':
    case 'session/renamed':
      return d.session === sessionId;
    case 'layout/changed':
    case 'session/created':
      return (d.session as Session | undefined)?.id === sessionId;
    case 'pane/tag-changed':
    case 'pane/attrs-changed':
    case 'pane/executed':
    case 'pane/output':
    case 'plumb/fired':
      return ofPane(d.pane);
    default:
      return CONFIG_EVENTS.test(event);
  }
}
