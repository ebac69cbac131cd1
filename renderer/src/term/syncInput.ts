// Typing into every terminal pane of a session at once, as tmux's synchronize-panes:
// the same command on four hosts' shells, one keystroke each. Per window and per
// session (it is this person's typing that is copied, not a state of the session's),
// toggled by `input.sync`. The keys go to each pane as this window's own input, so the
// server checks each write as it checks the focused pane's (a read-only client types
// nowhere; a pane it may not write to refuses).
import { leaves } from '../../../kits/layout/tree';
import type { AppStore } from '../store';

const PASTE_START = [0x1b, 0x5b, 0x32, 0x30, 0x30, 0x7e]; // ESC [ 200 ~
const PASTE_END = [0x1b, 0x5b, 0x32, 0x30, 0x31, 0x7e]; // ESC [ 201 ~

/**
 * The keys for a synced pane whose program has (`bracketed`) or has not asked for bracketed
 * paste: xterm wrapped a paste in the markers the focused pane's program asked for, and a
 * program that did not ask for them (cat, a plain `sh`) would take them as text.
 */
export function forSyncedPane(data: Uint8Array, bracketed: boolean): Uint8Array {
  const n = data.length;
  if (bracketed || n < 12) return data;
  const at = (mark: number[], from: number) => mark.every((b, i) => data[from + i] === b);
  return at(PASTE_START, 0) && at(PASTE_END, n - 6) ? data.subarray(6, n - 6) : data;
}

/** Kinds that take typing as a terminal's: a shell here, a joined host's pane. An agent's CLI is never typed at behind its back. */
const SYNCED_KINDS: ReadonlySet<string> = new Set(['terminal', 'remote']);

/**
 * The panes the window's typing into `from` also goes to: the session's other panes on
 * screen (tiled, or floating and shown), of a kind that takes typing, with a program
 * running. None while the session's typing is not synced.
 */
export function syncTargets(st: Pick<AppStore, 'synced' | 'sessions' | 'panes'>, from: number, sessionId: string | null): number[] {
  if (sessionId === null || !st.synced[sessionId]) return [];
  const s = st.sessions[sessionId];
  if (!s) return [];
  const shown = [...leaves(s.layout), ...s.floating.filter((f) => f.visible).map((f) => f.pane)];
  return shown.filter((n) => {
    const p = st.panes[n];
    return n !== from && p !== undefined && SYNCED_KINDS.has(p.kind) && p.state === 'running';
  });
}

