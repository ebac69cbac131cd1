// Agents' news for the person, from server state only: convergence notices (one per
// pair of agents, as the awareness presenter publishes them, replaced in place and
// withdrawn when the prediction resolves or goes stale), the counts the status line
// shows (agents waiting, working, with unread mail), and the jump to the next agent
// waiting. The notices strip (components/Notices.tsx) draws them outside every pane.
import type { AwarenessNotice } from '../../kits/protocol/awareness';
import type { EventData } from '../../kits/protocol/events';
import type { Pane } from '../../kits/protocol/model';
import { focusPane } from './attention';
import { selectSession, store, type AppStore } from './store';

const CONVERGE = 'converge:';

/** A desktop notification for a new convergence (one per pair: a newer one replaces it). */
function desktop(n: AwarenessNotice): void {
  const pane = n.panes[0];
  if (pane === undefined) return;
  if (window.paneHost) return window.paneHost.notify('pane', n.message, pane);
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const note = new Notification('pane', { body: n.message, tag: `${CONVERGE}${n.id}` });
  note.onclick = () => {
    window.focus();
    focusPane(pane);
    note.close();
  };
}

export function noticeArrived(n: AwarenessNotice): void {
  const st = store.getState();
  const isNew = !st.notices.some((x) => x.key === CONVERGE + n.id);
  st.standing(CONVERGE + n.id, 'warn', `⚠ ${n.message}`, n.panes[0]);
  if (isNew) desktop(n);
}

export function noticeWithdrawn(e: EventData<'awareness/notice-withdrawn'>): void {
  store.getState().withdraw(CONVERGE + e.id, e.message);
}

/** After a (re)connect: the notices in force replace whatever this window held. */
export function noticesLoaded(list: AwarenessNotice[]): void {
  const keep = new Set(list.map((n) => CONVERGE + n.id));
  for (const n of store.getState().notices) if (n.key?.startsWith(CONVERGE) && !keep.has(n.key)) store.getState().withdraw(n.key);
  for (const n of list) noticeArrived(n);
}

/** The agent a pane shows, if it is an agent pane. */
const agentOf = (p: Pane): string | undefined => p.attrs.agent || undefined;
const stateOf = (p: Pane): string | undefined => p.attrs['agent.state'] ?? p.attrs.state;

export interface AgentCounts {
  agents: number;
  waiting: number;
  working: number;
  done: number;
  /** At their prompt before a first task: started, nothing asked of them yet. */
  ready: number;
  unread: number;
}

/** How many agents (not panes: an agent may show in several) wait, work, have unread mail. */
export function agentCounts(panes: AppStore['panes']): AgentCounts {
  const by = new Map<string, { waiting: boolean; working: boolean; done: boolean; ready: boolean; unread: boolean }>();
  for (const p of Object.values(panes)) {
    const a = agentOf(p);
    if (!a) continue;
    const s = by.get(a) ?? { waiting: false, working: false, done: false, ready: false, unread: false };
    const state = stateOf(p);
    s.waiting ||= state === 'waiting';
    s.working ||= state === 'working';
    s.done ||= state === 'done';
    s.ready ||= state === 'ready';
    s.unread ||= (Number(p.attrs['agent.unread'] ?? 0) || 0) > 0;
    by.set(a, s);
  }
  const all = [...by.values()];
  return { agents: all.length, waiting: all.filter((x) => x.waiting).length, working: all.filter((x) => x.working).length, done: all.filter((x) => x.done && !x.waiting && !x.working).length, ready: all.filter((x) => x.ready && !x.done && !x.waiting && !x.working).length, unread: all.filter((x) => x.unread).length };
}

/** The panes of agents waiting for the person, in a stable order (session, then pane number). */
export function waitingPanes(st: AppStore): number[] {
  return Object.values(st.panes)
    .filter((p) => agentOf(p) !== undefined && stateOf(p) === 'waiting')
    .sort((x, y) => (x.session === y.session ? x.n - y.n : x.session === st.sessionId ? -1 : y.session === st.sessionId ? 1 : x.session.localeCompare(y.session)))
    .map((p) => p.n);
}

/** Focuses the next waiting agent after the focused pane (wrapping), switching session if it is elsewhere. */
export function focusNextWaiting(): void {
  const st = store.getState();
  const list = waitingPanes(st);
  if (list.length === 0) return st.notify('info', 'no agent needs you');
  const focused = selectSession(st)?.focused ?? null;
  const i = focused === null ? -1 : list.indexOf(focused);
  const next = list[(i + 1) % list.length]!;
  const p = st.panes[next];
  if (p && p.session !== st.sessionId) st.showSession(p.session);
  focusPane(next);
}
