// Pane handlers: the tiled-layout operations of the runtime contract plus tag,
// attrs, command execution and direct input.
import { vocabularyRevision } from '../../kits/protocol/vocabRevision';
import { faults } from '../../kits/protocol/error';
import type { Pane } from '../../kits/protocol/model';
import type { Params, Result } from '../../kits/protocol/index';
import type { PaneAck } from '../../kits/protocol/pane';
import { createPane, destroyPane } from '../model/lifecycle';
import { movePane } from '../model/movePane';
import { paneLeftSession } from '../grants/paneLeft';
import { restartPane } from '../model/exited';
import { typeAndSubmit, typeInto } from '../model/input';
import { busyProgram, refreshPane, stopAutoName } from '../model/paneTracker';
import { MAX_CLIENT_ATTRS, readForeground, setAttrs, setTag, syncFloatWord } from '../model/paneOps';
import { parseCommandLine } from '../model/commandLine';
import { PaneFault } from '../../kits/protocol/error';
import { execDefault } from '../model/execLine';
import * as model from '../model/session';
import { type ContextView, focusInContext, movesSessionFocus, ownContext } from '../model/session/contexts';
import type { PaneServer } from '../paneServer';
import type { HandlerContext, HandlerTable } from './types';
import { keptOffPersonsPane } from './keptClear';
import { HIDDEN_TILE_ATTR } from '../../kits/protocol/paneAttrs';
import { principalLabel } from '../../kits/protocol/principal';

/**
 * The context the caller follows in session `sessionId` (model/session/contexts.ts), if any: a
 * grant's guest always follows one (its own, grant:ID, unless it chose another).
 */
export function contextOf(ctx: HandlerContext, sessionId: string): { name: string; view: ContextView } | undefined {
  const { services, client, server } = ctx;
  const had = services.contexts.of(client.id, sessionId);
  const name = ownContext(client.principal);
  if (had || name === null) return had;
  const s = server.sessions.get(sessionId)!;
  const view = services.contexts.choose(client.id, sessionId, name, { focused: s.focused, zoomed: s.zoomed })!;
  return { name, view };
}

/**
 * Pane `n` focused in the caller's own context (ownContext: an agent's, a guest's), where a
 * request of the person's would have focused it in the session: the caller's view moves, the
 * person's does not.
 */
export function focusOwn(ctx: HandlerContext, sessionId: string, n: number): void {
  const c = contextOf(ctx, sessionId);
  if (!c) return;
  focusInContext(c.view, n);
  publishContext(ctx, sessionId, c);
}

/** A context's focus and zoom as they are now, told to the windows that follow it (the event names the context). */
export function publishContext(ctx: HandlerContext, sessionId: string, c: { name: string; view: ContextView }): void {
  ctx.server.publish('focus/changed', { session: sessionId, focused: c.view.focused, zoomed: c.view.zoomed, context: c.name });
}

/**
 * Publishes a change that would focus pane `n` (`change(takeFocus)`): the person's takes the
 * session's focus; an agent's leaves it and focuses `n` in the agent's own context (focusOwn).
 */
export function placed(ctx: HandlerContext, sessionId: string, n: number, change: (takeFocus: boolean) => model.SessionEvent[]): void {
  const takes = movesSessionFocus(ctx.client.principal);
  model.publish(ctx.server, change(takes));
  if (!takes) focusOwn(ctx, sessionId, n);
}

/** An agent closing the pane the person focused: the focus passes over the panes it counts as its own (those it made, its agent pane) where another will do (decision 059). */
export function closerAvoids(ctx: HandlerContext): ((p: number) => boolean) | undefined {
  const who = ctx.client.principal;
  if (who.kind !== 'agent') return undefined;
  const agents = ctx.services.agents;
  return (n) => {
    const p = ctx.server.panes.get(n);
    return p !== undefined && (p.owner === who.name || agents?.owns(who.name, p) === true);
  };
}

export function paneAck(server: PaneServer, p: Pane): PaneAck {
  return { session: p.session, pane: p.n, id: server.address(p.n) };
}

/** A pane as it is now: its foreground group, cwd and name read live, not as of the last output. */
function refreshPgid(server: PaneServer, p: Pane): Pane {
  readForeground(server, p);
  refreshPane(server, p);
  return p;
}

export const paneHandlers: HandlerTable = {
  'pane/list': (p, { server }) => {
    const sessions = p.session === undefined ? [...server.sessions.values()] : [server.session(p.session)];
    return { panes: sessions.flatMap((s) => server.panesOf(s)).map((x) => refreshPgid(server, x)) };
  },
  'pane/get': (p, { server }) => refreshPgid(server, server.pane(p.pane)),
  'pane/geometry': (p, { server }) => {
    const s = server.session(p.session);
    const out: Result<'pane/geometry'>['rects'] = {};
    for (const pl of s.placements) if (pl.shown) out[String(pl.pane)] = { x: pl.x, y: pl.y, w: pl.w, h: pl.h };
    return { rects: out };
  },
  'pane/split': (p, ctx) => split(ctx, p),
  'pane/launch': (p, ctx) => split(ctx, p),
  'pane/focus': (p, ctx) => {
    const { server } = ctx;
    let target = server.pane(p.pane, p.session);
    const s = server.sessionOf(target);
    const c = contextOf(ctx, s.id);
    if (c && p.pane === undefined && c.view.focused !== null && server.panes.has(c.view.focused)) target = server.pane(c.view.focused);
    if (p.direction) target = server.pane(model.focusTarget(s, p.pane === undefined ? ((c ? c.view.focused : s.focused) ?? target.n) : target.n, p.direction, c ? c.view.recent : s.recent));
    if (c) {
      // A context's focus moves, not the session's own (model/session/contexts.ts).
      model.focusInContext(c.view, target.n);
      publishContext(ctx, s.id, c);
    } else model.publish(server, model.focusPane(s, target.n));
    return paneAck(server, target);
  },
  'pane/resize': (p, { server }) => {
    const pane = server.pane(p.pane, p.session);
    model.publish(server, model.resize(server.sessionOf(pane), pane.n, p.direction, p.cells));
    return paneAck(server, pane);
  },
  'pane/ratio': (p, { server }) => {
    const pane = server.pane(p.pane, p.session);
    model.publish(server, model.setRatio(server.sessionOf(pane), pane.n, p.direction, p.ratio));
    return paneAck(server, pane);
  },
  'pane/swap': (p, { server }) => {
    const pane = server.pane(p.pane, p.session);
    const s = server.sessionOf(pane);
    if (model.isFloating(s, pane.n) && p.with === undefined && p.direction !== undefined && p.direction !== 'next' && p.direction !== 'prev') {
      // A float moves where a tile would swap: by the cells a resize step takes that way.
      model.publish(server, model.nudgeFloat(s, pane.n, p.direction));
      return paneAck(server, pane);
    }
    const other = p.with !== undefined ? server.pane(p.with).n : model.swapTarget(s, pane.n, p.direction ?? 'next');
    if (other === null || other === pane.n) throw faults.failed(`pane ${pane.n} has no neighbour ${p.direction ?? 'next'} to swap with`);
    if (server.pane(other).session !== s.id) throw faults.failed(`pane ${other} is in another session`);
    model.publish(server, model.swap(s, pane.n, other));
    return paneAck(server, pane);
  },
  'pane/wait': (p, { server, services, client }) => services.waits.wait(server.pane(p.pane, p.session), p, client.id),
  'pane/move': (p, ctx) => {
    const { server, services } = ctx;
    const pane = server.pane(p.pane, p.session);
    const from = pane.session;
    const now = movePane(server, pane, p.newSession ? null : server.session(p.to), { name: p.name, direction: p.direction, gone: (s) => services.contexts.sessionGone(s.id) });
    services.contexts.paneGone(from, pane.n);
    paneLeftSession(services, pane.n, from);
    return { ...paneAck(server, pane), name: now.name };
  },
  'pane/close': (p, ctx) => {
    const { server } = ctx;
    const pane = server.pane(p.pane, p.session);
    const ack = paneAck(server, pane);
    if (p.unlessBusy) {
      const busy = busyProgram(server, pane);
      if (busy !== null) throw new PaneFault('busy', `${busy} is running in pane ${pane.n}`, { reason: busy, subject: server.address(pane.n) });
    }
    destroyPane(server, pane.n, closerAvoids(ctx));
    return ack;
  },
  'pane/restart': (p, { server }) => {
    const pane = server.pane(p.pane, p.session);
    restartPane(server, pane);
    return paneAck(server, pane);
  },
  'pane/zoom': (p, ctx) => {
    const { server } = ctx;
    let pane = server.pane(p.pane, p.session);
    const s = server.sessionOf(pane);
    const c = contextOf(ctx, s.id);
    if (c) {
      // A context's zoom: no placement and no PTY size changes; its windows show the pane alone at its size.
      if (p.pane === undefined && c.view.focused !== null && server.panes.has(c.view.focused)) pane = server.pane(c.view.focused);
      model.zoomInContext(c.view, pane.n, p.zoom);
      publishContext(ctx, s.id, c);
    } else model.publish(server, model.zoom(s, pane.n, p.zoom));
    return paneAck(server, pane);
  },
  'pane/float': (p, ctx) => {
    const { server } = ctx;
    const pane = server.pane(p.pane, p.session);
    const s = server.sessionOf(pane);
    placed(ctx, s.id, pane.n, (takes) => [...model.setFloating(s, pane.n, p.mode, { x: p.x, y: p.y, w: p.w, h: p.h }, takes), ...keptOffPersonsPane(ctx, s, pane.n)]);
    syncFloatWord(server, pane, model.isFloating(s, pane.n));
    return paneAck(server, pane);
  },
  'pane/hide': async (p, ctx) => {
    const { server } = ctx;
    const pane = server.pane(p.pane, p.session);
    const s = server.sessionOf(pane);
    const floating = model.isFloating(s, pane.n);
    const visible = s.floating.find((f) => f.pane === pane.n)?.visible ?? true;
    if (p.hidden) {
      if (floating && !visible) return paneAck(server, pane);
      // A tile leaves the tiling as a hidden float and remembers it was one (HIDDEN_TILE_ATTR), so show puts it back;
      // marked first, so no window takes it for a float opened hidden (renderer/src/hiddenFloats.ts).
      // Lifted out without taking the focus: a pane being put away is no place for the person's keys.
      if (!floating) {
        setAttrs(server, pane, { [HIDDEN_TILE_ATTR]: '1' });
        placed(ctx, s.id, pane.n, () => [...model.setFloating(s, pane.n, 'float', {}, false), ...keptOffPersonsPane(ctx, s, pane.n)]);
        syncFloatWord(server, pane, true);
      }
      await ctx.dispatch('float/visible', { pane: pane.n, visible: false });
      return paneAck(server, pane);
    }
    if (pane.attrs[HIDDEN_TILE_ATTR] !== undefined) {
      // A minimised tile goes back into the tiling, never shown as a float on the way.
      setAttrs(server, pane, { [HIDDEN_TILE_ATTR]: null });
      if (model.isFloating(s, pane.n)) await ctx.dispatch('pane/float', { pane: pane.n, mode: 'tile' });
    } else if (floating && !visible) await ctx.dispatch('float/visible', { pane: pane.n, visible: true });
    await ctx.dispatch('pane/focus', { pane: pane.n });
    return paneAck(server, pane);
  },
  'pane/tag': (p, { server }) => {
    const pane = server.pane(p.pane);
    let { name, user } = pane.tag;
    if (p.name !== undefined) {
      name = p.name;
      stopAutoName(server, pane.n);
    }
    if (p.user !== undefined) user = p.user;
    if (p.append !== undefined) user = (user + p.append).slice(-4000);
    setTag(server, pane, { name, user });
    return paneAck(server, pane);
  },
  'pane/attrs': (p, { server }) => {
    const pane = server.pane(p.pane);
    // One source for geometry: the server places panes, so their quadrant is not written from outside.
    if ('quadrant' in p.set) throw faults.badRequest(`quadrant is computed by the server from where pane ${pane.n} is laid out; move the pane to change it`, 'set.quadrant');
    // A stand-in's binding to its remote pane is host/show's to make (server/hosts/standIns.ts), never an attr write's.
    const bound = Object.keys(p.set).find((k) => k.startsWith('remote.'));
    if (bound !== undefined) throw faults.badRequest(`${bound} is set by the server for a stand-in of a remote pane (pane host show HOST:N); it cannot be written`, `set.${bound}`);
    setAttrs(server, pane, p.set, MAX_CLIENT_ATTRS);
    return paneAck(server, pane);
  },
  'pane/exec': async (p, ctx) => {
    const pane = ctx.server.pane(p.pane);
    // The words the caller saw, or none: a click on a word that changed meaning since is refused.
    if (p.vocabulary !== undefined && p.vocabulary !== vocabularyRevision(pane.vocabulary)) {
      throw faults.failed(`refused: the words of pane ${pane.n} changed since they were shown (revision ${p.vocabulary}, now ${vocabularyRevision(pane.vocabulary)}); nothing was run — look at its tag again`);
    }
    // acme's event interception: a reader holding /pane/<n>/event open read-write
    // gets the line instead, and writes back the ones it wants done by default
    // (server/namespace/paneFiles.ts performs those with model/execLine.ts's execDefault).
    const interceptor = ctx.services.namespace.interceptorOf(pane.n);
    if (interceptor) {
      // A word the reader added is checked against the arguments it declared before it is handed over.
      const word = pane.vocabulary.find((w) => w.reader && w.name === p.line.trim().split(/\s+/)[0]);
      if (word) {
        const parsed = parseCommandLine(pane, p.line);
        if (!parsed.ok && !parsed.cannot) throw faults.badRequest(parsed.message, `pane ${pane.n}`);
      }
      interceptor.offer(p.line.trim(), p.origin ?? 'protocol', ctx.client.user);
      return { pane: pane.n, done: true, output: `handed to the reader of /pane/${pane.n}/event` };
    }
    return execDefault(ctx, pane, p.line, p.origin ?? 'protocol', ctx.client.user, p.fallback);
  },
  'pane/input': (p, { server, client }) => {
    const pane = server.pane(p.pane);
    if (!client.canWrite) throw faults.denied(`client ${client.name} may not write to panes`);
    client.noteTyping?.(pane.n);
    // Binary INPUT frames take the same path (transport/clientConn.ts): an ended program's pane reruns on Enter, refuses other keys.
    const by = principalLabel(client.principal);
    if (p.submit) return typeAndSubmit(server, pane, by, Buffer.from(p.data, p.encoding === 'base64' ? 'base64' : 'utf8')).then((taken) => ({ pane: pane.n, bytes: taken.bytes }));
    const taken = typeInto(server, pane, by, p.data, p.encoding === 'base64' ? 'base64' : 'utf8');
    return { pane: pane.n, bytes: taken.bytes };
  },
};

/** pane/split's params as its schema gives them (pane/launch's are the same with launch required). */
type SplitParams = Params<'pane/split'>;

function split(ctx: HandlerContext, p: SplitParams) {
  const { server } = ctx;
  const creator = ctx.client.user;
  const s = p.pane === undefined ? server.session(p.session) : server.sessionOf(server.pane(p.pane));
  const anchor = model.splitAnchor(s, p.pane === undefined ? undefined : server.pane(p.pane).n);
  const anchorPane = anchor === null ? undefined : server.panes.get(anchor);
  if (anchorPane) refreshPane(server, anchorPane); // a `cd` a moment ago counts
  const { launch, name, signature, kind, owner, attrs } = p;
  // The new pane's PTY starts at the size it will be drawn at, so only its anchor resizes.
  const pane = createPane(server, s, { launch, name, signature, kind, owner, attrs, cwd: p.cwd ?? anchorPane?.cwd, creator }, model.roomySplitBody(s, anchor, p.direction, p.ratio));
  placed(ctx, s.id, pane.n, (takes) => model.split(s, anchor, pane.n, p.direction, p.ratio, takes));
  return paneAck(server, pane);
}
