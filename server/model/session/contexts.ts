// Contexts (issue 36.3; 001's contexts a client retargets): a named view of a session
// with its own focus and zoom, so two people on one session each look where they
// want. A window or client that chose a context for a session moves that context's
// focus and zoom, never the session's own (what every other window shows), and hears
// only that context's focus changes (`focus/changed` carries `context`). A grant's
// guest is always in a context (`grant:ID` unless it names another), and an agent in
// its own (`agent:NAME`): neither's focus or zoom ever moves the person's. A context zoom changes no placement and no
// PTY size: the window shows the zoomed pane alone at the size it has (letterboxed).
// Contexts live while the server does; they are views, not state.

import type { Principal } from '../../../kits/protocol/principal';
import { remember } from './focus';

/** The context a grant's guest follows unless it chose another: the grant's own, else `grant:ID`; null for anyone else. */
export function guestContext(principal: Principal): string | null {
  return principal.kind === 'grant' ? (principal.context ?? `grant:${principal.id}`) : null;
}

/**
 * The context whose focus and zoom a principal's requests move, when it may not move the
 * session's own (the pane the person's window and a following `pane attach` type into):
 * a grant's guest's (guestContext), and an agent's own, `agent:NAME`. An agent that could
 * focus its pane, or split one running `cat > FILE`, just before the person typed a
 * password would take the keys. Null for the person: their requests move the session's.
 */
export function ownContext(principal: Principal): string | null {
  return principal.kind === 'agent' ? `agent:${principal.name}` : guestContext(principal);
}

/** Whether a principal's requests may move the session's own focus: the person's do; an agent's and a guest's move their context's (ownContext). */
export function movesSessionFocus(principal: Principal): boolean {
  return ownContext(principal) === null;
}

/** Contexts one session holds at most: one per viewer, and a few named ones. */
export const MAX_CONTEXTS_PER_SESSION = 64;

export interface ContextView {
  focused: number | null;
  zoomed: number | null;
  /** The panes this context focused before, the latest first (as Session.recent). */
  recent?: number[];
}

/** Focuses pane `n` in a context (a zoom on another pane ends, as in the session's own view). */
export function focusInContext(v: ContextView, n: number): void {
  if (v.zoomed !== null && v.zoomed !== n) v.zoomed = null;
  if (v.focused !== n) v.recent = remember(v.recent, v.focused, n);
  v.focused = n;
}

/** Zooms pane `n` in a context, or ends its zoom: `want` undefined toggles. Zooming focuses it. */
export function zoomInContext(v: ContextView, n: number, want?: boolean): void {
  const on = want ?? v.zoomed !== n;
  v.zoomed = on ? n : null;
  if (on) focusInContext(v, n);
}

export class ContextBoard {
  /** session id → context name → its focus and zoom. */
  private readonly views = new Map<string, Map<string, ContextView>>();
  /** client id → session id → the context it chose there. */
  private readonly chosen = new Map<string, Map<string, string>>();

  /** Client `client` follows context `name` of session `session` (made from `start` when new); null: the session's own again. */
  choose(client: string, session: string, name: string | null, start: ContextView): ContextView | null {
    if (name === null) {
      this.chosen.get(client)?.delete(session);
      return null;
    }
    let m = this.views.get(session);
    if (!m) this.views.set(session, (m = new Map()));
    let v = m.get(name);
    if (!v) {
      if (m.size >= MAX_CONTEXTS_PER_SESSION) throw new Error(`session has ${MAX_CONTEXTS_PER_SESSION} contexts, the most pane keeps (MAX_CONTEXTS_PER_SESSION)`);
      m.set(name, (v = { ...start }));
    }
    let c = this.chosen.get(client);
    if (!c) this.chosen.set(client, (c = new Map()));
    c.set(session, name);
    return v;
  }

  /** The context client `client` follows in `session`, if any. */
  of(client: string, session: string): { name: string; view: ContextView } | undefined {
    const name = this.chosen.get(client)?.get(session);
    const view = name === undefined ? undefined : this.views.get(session)?.get(name);
    return name === undefined || !view ? undefined : { name, view };
  }

  /** A pane that left: no context keeps it focused or zoomed. */
  paneGone(session: string, n: number): void {
    for (const v of this.views.get(session)?.values() ?? []) {
      if (v.focused === n) v.focused = null;
      if (v.zoomed === n) v.zoomed = null;
      if (v.recent?.includes(n)) v.recent = v.recent.filter((p) => p !== n);
    }
  }

  clientGone(client: string): void {
    this.chosen.delete(client);
  }

  sessionGone(session: string): void {
    this.views.delete(session);
    for (const c of this.chosen.values()) c.delete(session);
  }
}
