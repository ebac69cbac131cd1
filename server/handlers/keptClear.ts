// An agent's float (or a grant's guest's) is never drawn over the pane the person types
// into: the person's window would show the agent's pane while their keys went beneath
// it (decision 060). The person's own floats go where they are put.
import { clearOf, inView } from '../../kits/layout/floats';
import { placements } from '../../kits/layout/geometry';
import type { Rect, Session } from '../../kits/protocol/model';
import * as model from '../model/session';
import { movesSessionFocus } from '../model/session/contexts';
import type { HandlerContext } from './types';

/** The frame of the pane the person's focus is on, as their window shows it, when float `n` could cover it (none while a zoom shows one pane alone: floats are not drawn then). */
export function personsPane(s: Session, n: number): Rect | null {
  if (s.focused === null || s.focused === n || s.zoomed !== null) return null;
  const p = placements(s).find((x) => x.pane === s.focused && x.shown);
  return p ? { x: p.x, y: p.y, w: p.w, h: p.h } : null;
}

/**
 * After a float change by a caller that may not move the person's focus (an agent, a
 * grant's guest): its float, if it is shown over the pane the person's focus is on, is
 * moved off it (clearOf), or hidden where there is no room beside it (the dock lists
 * it; the person shows it). An agent's pane drawn over the one the person types into
 * could show them a prompt or a result that is not there while their keys go beneath
 * it (decision 060). The person's own floats go where they are put.
 */
export function keptOffPersonsPane(ctx: HandlerContext, s: Session, n: number): model.SessionEvent[] {
  if (movesSessionFocus(ctx.client.principal)) return [];
  const f = s.floating.find((x) => x.pane === n);
  const keep = f?.visible ? personsPane(s, n) : null;
  if (!f || !keep) return [];
  const at = inView(f, s.viewport);
  const to = clearOf(at, keep, s.viewport);
  if (to === at) return [];
  return model.updateFloat(s, n, to ?? { visible: false });
}
