// An agent's float the server kept hidden because, shown, it would have covered the
// pane the person types in (decision 060): the window says so once, in a notice that
// shows it when clicked. That is so for a float that opens hidden, and for one already
// shown that the server hid when the person's focus moved onto a pane beneath it (its
// `keptOff` names that pane). Floats already there when a session is first seen (a
// reconnect, a restart) are not news; a tile the agent minimised (hidden.tile) is not
// one it opened; a float hidden by its owner or by the person is not the server's doing.
import type { Floating, Pane } from '../../kits/protocol/model';
import { HIDDEN_TILE_ATTR } from '../../kits/protocol/paneAttrs';
import { shown } from '../../kits/protocol/shown';

/** A float to say: its pane, and the pane it was kept off when it was shown before (else it opened hidden). */
export interface HiddenFloat {
  pane: Pane;
  keptOff: number | null;
}

/**
 * The floats of one session, compared with what `seen` held (each float's pane number
 * and whether it was shown), which is brought up to date: those someone other than `me`
 * owns that opened hidden, or were shown and the server hid, are returned to be said. A
 * float whose pane this window does not know yet is left for the next look (its
 * pane/created may come after the layout).
 */
export function newHiddenFloats(seen: Map<number, boolean>, floating: readonly Floating[], panes: Readonly<Record<number, Pane>>, me: string | null): HiddenFloat[] {
  const out: HiddenFloat[] = [];
  for (const f of floating) {
    const was = seen.get(f.pane);
    if (was === f.visible) continue;
    const p = panes[f.pane];
    if (!p) continue;
    seen.set(f.pane, f.visible);
    if (f.visible || me === null || p.owner === me) continue;
    if (was === undefined && p.attrs[HIDDEN_TILE_ATTR] === undefined) out.push({ pane: p, keptOff: null });
    else if (was === true && f.keptOff !== undefined) out.push({ pane: p, keptOff: f.keptOff });
  }
  // Closed floats leave the map, so a number used again is news again.
  const now = new Set(floating.map((f) => f.pane));
  for (const n of seen.keys()) if (!now.has(n)) seen.delete(n);
  return out;
}

/** What the notice says: whose, which, why, and what a click does. */
export function hiddenFloatText({ pane: p, keptOff }: HiddenFloat): string {
  const [who, which] = [shown(p.owner), shown(p.tag.name || `pane ${p.n}`)];
  if (keptOff !== null) return `${who}'s ${which} is hidden: it covered pane ${keptOff}, which you moved to and type in (click to show it)`;
  return `${who} opened ${which} hidden: shown, it would cover the pane you are typing in (click to show it)`;
}
