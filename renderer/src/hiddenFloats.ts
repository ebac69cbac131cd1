// An agent's float the server kept hidden because, shown, it would have covered the
// pane the person types in (decision 060): the window says so once, in a notice that
// shows it when clicked. Floats already there when a session is first seen (a
// reconnect, a restart) are not news; a tile the agent minimised (hidden.tile) is not
// one it opened.
import type { Floating, Pane } from '../../kits/protocol/model';
import { HIDDEN_TILE_ATTR } from '../../kits/protocol/paneAttrs';
import { shown } from '../../kits/protocol/shown';

/**
 * The floats of one session not seen before, added to `seen`; the hidden ones someone
 * other than `me` owns are returned, to be said. A float whose pane this window does not
 * know yet is left for the next look (its pane/created may come after the layout).
 */
export function newHiddenFloats(seen: Set<number>, floating: readonly Floating[], panes: Readonly<Record<number, Pane>>, me: string | null): Pane[] {
  const out: Pane[] = [];
  for (const f of floating) {
    if (seen.has(f.pane)) continue;
    const p = panes[f.pane];
    if (!p) continue;
    seen.add(f.pane);
    if (!f.visible && me !== null && p.owner !== me && p.attrs[HIDDEN_TILE_ATTR] === undefined) out.push(p);
  }
  // Closed floats leave the set, so a number used again is news again.
  const now = new Set(floating.map((f) => f.pane));
  for (const n of seen) if (!now.has(n)) seen.delete(n);
  return out;
}

/** What the notice says: whose, which, why, and what a click does. */
export function hiddenFloatText(p: Pane): string {
  return `${shown(p.owner)} opened ${shown(p.tag.name || `pane ${p.n}`)} hidden: shown, it would cover the pane you are typing in (click to show it)`;
}
