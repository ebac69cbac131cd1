// The server's state as this window knows it: sessions and panes, replaced by a
// snapshot and then changed only by events, in order. Nothing here is computed
// locally; a gesture sends a request and waits for the event that answers it.
import type { StateSlice } from './types';
import type { EventData, EventName } from '../../../kits/protocol/events';
import type { StateSnapshot } from '../../../kits/protocol/client';
import type { Pane, Session } from '../../../kits/protocol/model';

export interface ServerSlice {
  rev: number;
  host: string;
  sessions: Record<string, Session>;
  panes: Record<number, Pane>;
  /** The session this window shows (the first, unless the URL names one). */
  sessionId: string | null;
  wantedSession: string | null;
  /** The context this window follows in its session (session/context): its own focus and zoom, over the session's. */
  context: ViewContext | null;
  setContext(c: ViewContext | null): void;
  applySnapshot(s: StateSnapshot): void;
  applyEvent<E extends EventName>(name: E, data: EventData<E>, rev: number): void;
  /** Shows another session in this window (and names it in the URL, so a reload keeps it). */
  showSession(id: string): void;
}

export interface ViewContext {
  name: string;
  session: string;
  focused: number | null;
  zoomed: number | null;
}

/** A session as this window shows it: in its context, the context's focus and zoom. */
function viewed(s: Session, c: ViewContext | null): Session {
  return c && c.session === s.id ? { ...s, focused: c.focused, zoomed: c.zoomed } : s;
}

function pickSession(sessions: Record<string, Session>, current: string | null, wanted: string | null): string | null {
  if (current && sessions[current]) return current;
  const all = Object.values(sessions).sort((a, b) => a.createdAt - b.createdAt);
  const named = wanted ? all.find((s) => s.id === wanted || s.name === wanted) : undefined;
  return (named ?? all[0])?.id ?? null;
}

export const createServerSlice: StateSlice<ServerSlice> = (set, get) => ({
  rev: 0,
  host: '',
  sessions: {},
  panes: {},
  sessionId: null,
  wantedSession: null,
  context: null,

  setContext(c) {
    set({ context: c });
    const s = c ? get().sessions[c.session] : undefined;
    if (s) set({ sessions: { ...get().sessions, [s.id]: viewed(s, c) } });
  },

  showSession(id) {
    const s = get().sessions[id];
    if (!s) return;
    set({ sessionId: id, wantedSession: s.name });
    const url = new URL(window.location.href);
    url.searchParams.set('session', s.name);
    window.history.replaceState(null, '', url);
  },

  applySnapshot(s) {
    const sessions = Object.fromEntries(s.sessions.map((x) => [x.id, viewed(x, get().context)]));
    const panes = Object.fromEntries(s.panes.map((p) => [p.n, p]));
    set({ rev: s.rev, host: s.host, sessions, panes, sessionId: pickSession(sessions, get().sessionId, get().wantedSession) });
  },

  applyEvent(name, data, rev) {
    const st = get();
    if (rev > st.rev) set({ rev });
    const d = data as EventData<EventName>;
    const patchPane = (n: number, f: (p: Pane) => Pane) => {
      const p = get().panes[n];
      if (p) set({ panes: { ...get().panes, [n]: f(p) } });
    };
    switch (name) {
      case 'pane/created':
      case 'pane/restarted':
      case 'pane/changed': {
        const p = (d as EventData<'pane/created'>).pane;
        set({ panes: { ...st.panes, [p.n]: p } });
        break;
      }
      case 'pane/closed': {
        const { pane } = d as EventData<'pane/closed'>;
        const panes = { ...st.panes };
        delete panes[pane];
        set({ panes });
        break;
      }
      case 'pane/exited': {
        const e = d as EventData<'pane/exited'>;
        patchPane(e.pane, (p) => ({ ...p, state: 'exited', exit: e.exit }));
        break;
      }
      case 'pane/tag-changed': {
        const e = d as EventData<'pane/tag-changed'>;
        patchPane(e.pane, (p) => ({ ...p, tag: e.tag }));
        break;
      }
      case 'pane/attrs-changed': {
        const e = d as EventData<'pane/attrs-changed'>;
        patchPane(e.pane, (p) => ({ ...p, attrs: e.attrs }));
        break;
      }
      case 'layout/changed':
      case 'session/created': {
        const s = viewed((d as EventData<'layout/changed'>).session, st.context);
        const sessions = { ...st.sessions, [s.id]: s };
        set({ sessions, sessionId: pickSession(sessions, st.sessionId, st.wantedSession) });
        break;
      }
      case 'focus/changed': {
        const e = d as EventData<'focus/changed'>;
        // The session's own focus, or a context's: this window follows the one it is in, no other.
        const mine = st.context && st.context.session === e.session ? st.context.name : null;
        if ((e.context ?? null) !== mine) break;
        if (st.context && mine !== null) set({ context: { ...st.context, focused: e.focused, zoomed: e.zoomed } });
        const s = st.sessions[e.session];
        if (s) set({ sessions: { ...st.sessions, [s.id]: { ...s, focused: e.focused, zoomed: e.zoomed } } });
        break;
      }
      case 'session/renamed': {
        const e = d as EventData<'session/renamed'>;
        const s = st.sessions[e.session];
        if (s) set({ sessions: { ...st.sessions, [s.id]: { ...s, name: e.name } } });
        break;
      }
      case 'session/attached': {
        // `pane session attach` run in a pane of the session this window shows: this window shows the attached one.
        const e = d as EventData<'session/attached'>;
        if (e.from === st.sessionId && get().sessions[e.session]) get().showSession(e.session);
        break;
      }
      case 'session/closed': {
        const e = d as EventData<'session/closed'>;
        const sessions = { ...st.sessions };
        delete sessions[e.session];
        set({ sessions, sessionId: pickSession(sessions, st.sessionId === e.session ? null : st.sessionId, st.wantedSession) });
        break;
      }
      default:
        break;
    }
  },
});
