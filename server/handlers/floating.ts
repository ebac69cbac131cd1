// Floating-layer handlers: create, move, resize, focus, raise, lower, z, layer,
// visibility, close. Rectangles are in cells of the session viewport; the rules
// (clamping, z-order, focus) are the session model's (server/model/session/).
import type { Session } from '../../kits/protocol/model';
import type { Params } from '../../kits/protocol/index';
import type { FloatAck } from '../../kits/protocol/floating';
import { bodyOf, chromeOf } from '../../kits/layout/geometry';
import { clearOf, inView } from '../../kits/layout/floats';
import { faults } from '../../kits/protocol/error';
import { movesSessionFocus } from '../model/session/contexts';
import { keptOffPersonsPane, personsPane } from './keptClear';
import { createPane, destroyPane } from '../model/lifecycle';
import { clampRect } from '../model/sizeLimits';
import * as model from '../model/session';
import type { PaneServer } from '../paneServer';
import { syncFloatWord } from '../model/paneOps';
import type { HandlerTable, HandlerContext } from './types';
import { closerAvoids, contextOf, placed, publishContext } from './pane';

function floatAck(server: PaneServer, s: Session, n: number): FloatAck {
  return { session: s.id, pane: n, id: server.address(n), rect: model.floatOf(s, n) };
}

/** The float a request names: its session and number (refused if it is not floating). */
function find(server: PaneServer, ref: Params<'float/raise'>['pane']): { s: Session; n: number } {
  const pane = server.pane(ref);
  const s = server.sessionOf(pane);
  return { s, n: model.floatOf(s, pane.n).pane };
}

/** A float/* request that is one model operation on the named float, acked with its rectangle. */
const one =
  (op: (s: Session, n: number) => model.SessionEvent[]) =>
  (p: Params<'float/raise'>, ctx: HandlerContext) => {
    const { s, n } = find(ctx.server, p.pane);
    model.publish(ctx.server, [...op(s, n), ...keptOffPersonsPane(ctx, s, n)]);
    return floatAck(ctx.server, s, n);
  };

export const floatingHandlers: HandlerTable = {
  'float/create': (p, ctx) => {
    const { server, client } = ctx;
    const s = server.session(p.session);
    const d = model.defaultFloatRect(s);
    const rect = clampRect({ x: p.x ?? d.x, y: p.y ?? d.y, w: p.w ?? d.w, h: p.h ?? d.h });
    const { launch, name, signature, kind, owner, attrs, cwd } = p;
    const pane = createPane(server, s, { launch, name, signature, kind, owner, attrs, cwd, creator: client.user }, bodyOf(rect, chromeOf(s.viewport)));
    placed(ctx, s.id, pane.n, (takes) => [...model.addFloat(s, pane.n, { ...rect, z: p.z, layer: p.layer }, takes), ...keptOffPersonsPane(ctx, s, pane.n)]);
    syncFloatWord(server, pane, true);
    return floatAck(server, s, pane.n);
  },
  'float/move': (p, ctx) => one((s, n) => model.updateFloat(s, n, { x: p.x, y: p.y }))(p, ctx),
  'float/resize': (p, ctx) => one((s, n) => model.updateFloat(s, n, { w: p.w, h: p.h }))(p, ctx),
  'float/focus': (p, ctx) => {
    const { s, n } = find(ctx.server, p.pane);
    const c = contextOf(ctx, s.id);
    if (!c) return one(model.focusFloat)(p, ctx);
    // A context (a grant's guest always is in one) focuses the float in its own view; the stacking every window shares stays.
    model.focusInContext(c.view, n);
    publishContext(ctx, s.id, c);
    return floatAck(ctx.server, s, n);
  },
  'float/raise': (p, ctx) => one(model.raise)(p, ctx),
  'float/lower': (p, ctx) => one(model.lower)(p, ctx),
  'float/z': (p, ctx) => one((s, n) => model.updateFloat(s, n, { z: p.z }))(p, ctx),
  'float/layer': (p, ctx) => one((s, n) => model.updateFloat(s, n, { layer: p.layer }))(p, ctx),
  'float/visible': (p, ctx) => {
    const { s, n } = find(ctx.server, p.pane);
    const f = model.floatOf(s, n);
    const keep = p.visible && !f.visible && !movesSessionFocus(ctx.client.principal) ? personsPane(s, n) : null;
    // Shown, it would be hidden again at once: said, rather than answered as if shown.
    if (keep && clearOf(inView(f, s.viewport), keep, s.viewport) === null) {
      throw faults.failed(`pane ${n} would cover pane ${s.focused}, the pane the person is typing in, and there is no room beside it: it stays hidden until the person shows it (or focuses elsewhere)`);
    }
    return one((s2, n2) => model.updateFloat(s2, n2, { visible: p.visible }))(p, ctx);
  },
  'float/close': (p, ctx) => {
    const { server } = ctx;
    const { s, n } = find(server, p.pane);
    const ack = floatAck(server, s, n);
    destroyPane(server, n, closerAvoids(ctx));
    return ack;
  },
};
