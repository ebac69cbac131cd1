// Things that want the person's attention, from server state only: a pane's bell
// (the attr `bell`, a timestamp the server's screen model sets on BEL) and an agent
// waiting for the human (attr `state` or `agent.state` = "waiting"). Marks the tag,
// keeps one standing notice per waiting pane (withdrawn when it stops waiting) that
// focuses the pane when clicked, and raises a desktop notification: Electron's native
// one through the preload bridge, else the web Notification API when granted.
// Convergence notices come from the awareness presenter instead (notices.ts).
import type { Pane } from '../../kits/protocol/model';
import { AlertGate } from './alertGate';
import { hiddenFloatText, newHiddenFloats } from './hiddenFloats';
import { client } from './net/client';
import { selectSession, store, type AppStore } from './store';

const WAITING = 'waiting';
/** An agent must wait this long before it is announced: hook round trips make brief waits. */
const SETTLE_MS = 400;
/** One pane's waiting alert at most this often, however its state flaps. */
const COOLDOWN_MS = 5000;

const gate = new AlertGate(SETTLE_MS, COOLDOWN_MS);

function waiting(p: Pane | undefined): boolean {
  return p !== undefined && (p.attrs.state === WAITING || p.attrs['agent.state'] === WAITING);
}

/** Focuses pane n (a floating pane also comes to the top of its layer). */
export function focusPane(n: number): void {
  const floats = selectSession(store.getState())?.floating.some((f) => f.pane === n) ?? false;
  void client.act(floats ? 'float/focus' : 'pane/focus', { pane: n });
}

/** A desktop notification: native in Electron, else the web API if already granted. */
function desktop(n: number, text: string): void {
  if (window.paneHost) return window.paneHost.notify('pane', text, n);
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  // One notification per pane: a newer one replaces the older (tag).
  const note = new Notification('pane', { body: text, tag: `pane-${n}` });
  note.onclick = () => {
    window.focus();
    focusPane(n);
    note.close();
  };
}

/** Whether pane n is on screen now: in the session shown, not behind a zoom or a hidden float, the window shown and focused. */
function onScreen(st: AppStore, n: number): boolean {
  if (typeof document !== 'undefined' && (document.hidden || !document.hasFocus())) return false;
  const s = selectSession(st);
  const placed = s?.placements.find((p) => p.pane === n);
  return placed !== undefined && placed.shown;
}

function raise(n: number, text: string): void {
  const st = store.getState();
  if (!st.panes[n]) return; // gone while the alert settled
  st.standing(`waiting:${n}`, 'info', text, n);
  // A desktop notification only if the person asked for them (settings.json agentNotifications), and only for a pane they cannot see.
  if (st.settings.settings.agentNotifications === 'when-hidden' && !onScreen(st, n)) desktop(n, text);
}

function onChange(st: AppStore, prev: AppStore): void {
  if (st.panes === prev.panes) return;
  const focused = selectSession(st)?.focused ?? null;
  for (const key of Object.keys(prev.panes)) {
    if (st.panes[Number(key)]) continue;
    gate.forget(`${key}:`);
    st.withdraw(`waiting:${key}`);
  }
  for (const [key, p] of Object.entries(st.panes)) {
    const n = Number(key);
    const before = prev.panes[n];
    if (!before || before === p) continue; // a pane seen for the first time (snapshot, new pane) has not rung now
    const name = p.tag.name || `pane ${n}`;
    const where = p.attrs.quadrant ? ` (${p.attrs.quadrant})` : '';
    if (p.attrs.bell !== undefined && p.attrs.bell !== before.attrs.bell) {
      const seen = n === focused && document.hasFocus();
      if (!seen) {
        st.ring(n);
        window.paneHost?.notify('pane', `${name}${where} rang the bell`, n);
      }
    }
    if (waiting(p) && !waiting(before)) {
      if (n !== focused) st.ring(n);
      gate.offer(`${n}:waiting`, () => raise(n, `${name}${where} needs you`));
    } else if (!waiting(p) && waiting(before)) {
      gate.withdraw(`${n}:waiting`);
      st.withdraw(`waiting:${n}`, `${name}${where} no longer needs you`);
    }
  }
}

/** Panes this window is waiting on for the person (pane.notify): one wait each. */
const watching = new Set<number>();

/**
 * pane.notify: the server is asked to wait until what runs in pane n has finished
 * (pane/wait idle: its shell back at its prompt, or its program ended), and the person
 * is told then — a notice that focuses the pane, the tile ringing, and a desktop
 * notification when the pane is not on screen and settings.json asks for them. A pane
 * with nothing running is said at once.
 */
export async function notifyWhenDone(n: number): Promise<void> {
  const st = store.getState();
  const p = st.panes[n];
  if (!p) return;
  const name = p.tag.name || `pane ${n}`;
  if (watching.has(n)) return st.notify('info', `already watching ${name}: you will be told when it finishes`, n);
  watching.add(n);
  st.standing(`done:${n}`, 'info', `watching ${name}: you will be told when it finishes`, n);
  try {
    const r = await client.call('pane/wait', { pane: n, until: 'idle' });
    const now = store.getState();
    now.withdraw(`done:${n}`);
    if (!now.panes[n]) return;
    if (r.already) return now.notify('info', `nothing runs in ${name}: ${r.exit ? r.what : 'its shell is at its prompt'}`, n);
    const text = `${r.ran !== undefined && r.ran !== name ? `${r.ran} in ${name}` : name} finished${r.exit ? `: ${r.what}` : ''}`;
    now.notify('info', text, n);
    if (!onScreen(now, n) || selectSession(now)?.focused !== n) now.ring(n);
    if (now.settings.settings.agentNotifications === 'when-hidden' && !onScreen(now, n)) desktop(n, text);
  } catch (e) {
    store.getState().withdraw(`done:${n}`);
    store.getState().notify('error', e instanceof Error ? e.message : String(e));
  } finally {
    watching.delete(n);
  }
}

/** Per session, the floats this window has seen (hiddenFloats.ts); a session seen for the first time is seeded, not said. */
const floatsSeen = new Map<string, Map<number, boolean>>();

function onFloats(st: AppStore, prev: AppStore): void {
  const s = selectSession(st);
  if (!s) return;
  let seen = floatsSeen.get(s.id);
  // A change of the pane map alone (an agent's state, a title) is looked at only while a float waits for its pane.
  if (seen && s === selectSession(prev) && (st.panes === prev.panes || s.floating.every((f) => seen!.has(f.pane)))) return;
  if (!seen) {
    floatsSeen.set(s.id, (seen = new Map()));
    newHiddenFloats(seen, s.floating, st.panes, st.me);
    return;
  }
  for (const h of newHiddenFloats(seen, s.floating, st.panes, st.me)) st.notify('info', hiddenFloatText(h), h.pane.n);
}

export function installAttention(): void {
  store.subscribe(onChange);
  store.subscribe(onFloats);
  // Electron: a native notification clicked brings the window up; this focuses its pane.
  window.paneHost?.onNotificationClick?.((n) => {
    if (store.getState().panes[n]) focusPane(n);
  });
}
