// An agent's float (or a grant's guest's) is never drawn over the pane the person types
// into: the person's window would show the agent's pane while their keys went beneath
// it (decision 060). The person's own floats go where they are put.
import type { Session } from '../../kits/protocol/model';
import * as model from '../model/session';
import { movesSessionFocus } from '../model/session/contexts';
import { keepOffPersonsPane } from '../model/session/keptClear';
import type { HandlerContext } from './types';

export { personsPane } from '../model/session/keptClear';

/**
 * After a float change by a caller that may not move the person's focus (an agent, a
 * grant's guest): its float, if it is shown over the pane the person's focus is on, is
 * moved off it, or hidden where there is no room beside it (model/session/keptClear.ts).
 * The person's own floats go where they are put.
 */
export function keptOffPersonsPane(ctx: HandlerContext, s: Session, n: number): model.SessionEvent[] {
  if (movesSessionFocus(ctx.client.principal)) return [];
  return keepOffPersonsPane(s, n);
}
