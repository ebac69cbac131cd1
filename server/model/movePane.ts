// A live pane moved from one session into another (tmux's join-pane), or into a
// session of its own (break-pane): its program runs on, its stream and history stay,
// only its place changes. The session it leaves collapses around it as at a close
// (focus going back to the pane focused before, tiles.ts); the one it joins takes it
// beside its focused tile, focused, at the size it is drawn at there.
import { faults } from '../../kits/protocol/error';
import type { Pane, Session, SplitDirection } from '../../kits/protocol/model';
import { remoteOf } from '../../kits/protocol/standIn';
import { leaves } from '../../kits/layout/tree';
import type { PaneServer } from '../paneServer';
import * as model from './session';

/**
 * A host's session shown here: named HOST:NAME (hostSessions.ts) and holding only stand-ins
 * for that host's panes. Its tiles follow that host, so nothing moves in or out by hand. A
 * session of the person's whose name holds a colon (`pane session new proj:auth`) holds
 * panes of its own and is not one.
 */
function isHostView(server: PaneServer, s: Session): boolean {
  if (!s.name.includes(':')) return false;
  const panes = server.panesOf(s);
  return panes.length > 0 && panes.every((p) => remoteOf(p) !== undefined);
}

/**
 * Moves `pane` into `to` (an existing session), or into a new session named `name`
 * (the next free name when absent) when `to` is null. Refused, with nothing moved: a
 * joined host's pane tiled here, a host's session shown here (either end), the session
 * it is in already, a break-out of a session's only pane, and a join that leaves either
 * side of the split under MIN_SPLIT_BODY. Returns the session it is in now; `gone`
 * hears of a session that ended because its last pane left.
 */
export function movePane(server: PaneServer, pane: Pane, to: Session | null, opts: { name?: string; direction: SplitDirection; gone(s: Session): void }): Session {
  const n = pane.n;
  const from = server.sessionOf(pane);
  if (remoteOf(pane) !== undefined) throw faults.failed(`pane ${n} shows ${remoteOf(pane)}, a joined host's pane: it stays where it is tiled (close it here, or pane host show it in another session)`);
  if (isHostView(server, from)) throw faults.failed(`pane ${n} is in ${from.name}, a joined host's session shown here: its tiles follow that host`);
  if (to !== null && isHostView(server, to)) throw faults.failed(`session ${to.name} is a joined host's session shown here: its tiles follow that host, so nothing joins it from here`);
  if (to !== null && to.id === from.id) throw faults.failed(`pane ${n} is in session ${to.name} already`);
  if (to === null && server.panesOf(from).length === 1) throw faults.failed(`pane ${n} is the only pane of session ${from.name}: it has a session of its own already`);
  // Where it goes, and whether there is room, before anything moves.
  const anchor = to === null || to.layout === null ? null : model.splitAnchor(to);
  if (to !== null && anchor !== null) model.roomySplitBody(to, anchor, opts.direction, 50);
  const target = to ?? model.makeSession(server, opts.name, from.viewport);
  const leaving = model.close(from, n);
  pane.session = target.id;
  const joining = to === null ? model.open(target, n) : model.split(target, anchor, n, opts.direction, 50);
  model.publish(server, leaving);
  server.paneChanged(pane);
  model.publish(server, joining);
  if (leaves(from.layout).length === 0 && from.floating.length === 0) {
    opts.gone(from);
    model.publish(server, model.dropSession(server, from));
  }
  return target;
}
