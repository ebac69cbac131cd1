// Pane handlers: the tiled-layout operations of the runtime contract plus tag,
// attrs, command execution and direct input.
import { faults } from '../../kits/protocol/error';
import type { Pane, Session } from '../../kits/protocol/model';
import type { Params } from '../../kits/protocol/index';
import { createPane, destroyPane } from '../model/lifecycle';
import { restartPane } from '../model/exited';
import { busyProgram, refreshPane, stopAutoName } from '../model/paneTracker';
import { PaneFault } from '../../kits/protocol/error';
import { insertSplit, leaves, neighbour, rects, resizeEdge, setRatio, swapLeaves, removeLeaf } from '../../kits/layout/tree';
import { bodyFor } from '../../kits/layout/geometry';
import { cascadeRect, movedRect, resizedRect } from '../../kits/layout/floats';
import { parseCommandLine } from '../model/commandLine';
import { relayout } from '../model/relayout';
import type { PaneServer } from '../paneServer';
import type { HandlerContext, HandlerTable } from './types';

/** Stands for a pane not yet created when sizing it before it exists (pane numbers start at 1). */
const PROBE = -1;
/** Cells one keyboard move of a float takes: the same steps the renderer's resize keys use. */
const FLOAT_STEP = { cols: 4, rows: 2 } as const;

export function paneAck(server: PaneServer, p: Pane) {
  return { session: p.session, pane: p.n, id: server.address(p.n) };
}

/** The tag offers `tile` on a floating pane and `float` on a tiled one. */
export function syncFloatWord(server: PaneServer, p: Pane, floating: boolean): void {
  const from = floating ? 'float' : 'tile';
  const to = floating ? 'tile' : 'float';
  if (!p.tag.commands.includes(from)) return;
  p.tag = { ...p.tag, commands: p.tag.commands.map((w) => (w === from ? to : w)) };
  server.publish('pane/tag-changed', { pane: p.n, tag: p.tag });
}

/** The process group in the foreground of a pane's terminal changes as jobs start: read it live. */
function refreshPgid(server: PaneServer, p: Pane): Pane {
  const t = server.terminals.get(p.n);
  if (t?.running) p.pgid = t.foregroundPgid() ?? p.pgid;
  refreshPane(server, p); // cwd and name as they are now, not as of the last output
  return p;
}

/** Rects of the tiled panes (the zoomed pane alone fills the view). */
function tiledRects(s: Session) {
  return rects(s.layout, s.viewport);
}

export function setFocus(server: PaneServer, s: Session, n: number): void {
  if (s.focused === n) return;
  s.focused = n;
  server.focusChanged(s);
}

export function isFloating(s: Session, n: number): boolean {
  return s.floating.some((f) => f.pane === n);
}

/** Where a pane that starts floating opens: cascaded from the last float, never over it. */
export function defaultFloatRect(s: Session) {
  return cascadeRect(s.viewport, s.floating);
}

/** Replaces a float's rectangle (the keyboard's move and resize on a floating pane). */
function setFloatRect(server: PaneServer, s: Session, pane: number, r: { x: number; y: number; w: number; h: number }): void {
  s.floating = s.floating.map((f) => (f.pane === pane ? { ...f, ...r } : f));
  relayout(server, s);
}

export const paneHandlers: HandlerTable = {
  'pane/list': (p, { server }) => {
    const sessions = p.session === undefined ? [...server.sessions.values()] : [server.session(p.session)];
    return { panes: sessions.flatMap((s) => server.panesOf(s)).map((x) => refreshPgid(server, x)) };
  },
  'pane/get': (p, { server }) => refreshPgid(server, server.pane(p.pane)),
  'pane/geometry': (p, { server }) => {
    const s = server.session(p.session);
    const out: Record<string, { x: number; y: number; w: number; h: number }> = {};
    for (const pl of s.placements) if (pl.shown) out[String(pl.pane)] = { x: pl.x, y: pl.y, w: pl.w, h: pl.h };
    return { rects: out };
  },
  'pane/split': (p, { server, client }) => split(server, p, client.user),
  'pane/launch': (p, { server, client }) => split(server, p, client.user),
  'pane/focus': (p, { server }) => {
    let target = server.pane(p.pane, p.session);
    const s = server.sessionOf(target);
    if (p.direction) {
      const order = server.panesOf(s).map((x) => x.n);
      const from = p.pane === undefined ? (s.focused ?? target.n) : target.n;
      const next =
        p.direction === 'next' || p.direction === 'prev'
          ? neighbour(tiledRects(s), from, p.direction, order)
          : neighbour(tiledRects(s), from, p.direction);
      if (next === null) throw faults.failed(`no pane ${p.direction} of pane ${from}`);
      target = server.pane(next);
    }
    if (s.zoomed !== null && s.zoomed !== target.n) {
      s.zoomed = null;
      relayout(server, s);
    }
    // Focusing a floating pane brings it to the top of its layer, as a click does.
    const f = s.floating.find((x) => x.pane === target.n);
    if (f) {
      const top = Math.max(...s.floating.filter((x) => x.layer === f.layer).map((x) => x.z));
      if (f.z !== top || s.floating.filter((x) => x.layer === f.layer && x.z === top).length > 1) {
        s.floating = s.floating.map((x) => (x === f ? { ...x, z: top + 1 } : x));
        server.layoutChanged(s);
      }
    }
    setFocus(server, s, target.n);
    return paneAck(server, target);
  },
  'pane/resize': (p, { server }) => {
    const pane = server.pane(p.pane, p.session);
    const s = server.sessionOf(pane);
    const f = s.floating.find((x) => x.pane === pane.n);
    if (f) {
      // A float has no dividers: its bottom-right corner follows the arrow.
      setFloatRect(server, s, pane.n, resizedRect(f, p.direction, p.cells, s.viewport));
      return paneAck(server, pane);
    }
    const next = resizeEdge(s.layout, pane.n, p.direction, p.cells, s.viewport);
    if (!next) throw faults.failed(`pane ${pane.n} has no ${p.direction} edge to move (it touches the window border)`);
    s.layout = next;
    relayout(server, s);
    return paneAck(server, pane);
  },
  'pane/ratio': (p, { server }) => {
    const pane = server.pane(p.pane, p.session);
    const s = server.sessionOf(pane);
    const next = setRatio(s.layout, pane.n, p.direction, p.ratio);
    if (!next) throw faults.failed(`pane ${pane.n} is in no ${p.direction} split`);
    s.layout = next;
    relayout(server, s);
    return paneAck(server, pane);
  },
  'pane/swap': (p, { server }) => {
    const pane = server.pane(p.pane, p.session);
    const s = server.sessionOf(pane);
    const f = s.floating.find((x) => x.pane === pane.n);
    if (f && p.with === undefined && p.direction !== undefined && p.direction !== 'next' && p.direction !== 'prev') {
      // A float moves where a tile would swap: by the cells a resize step takes that way.
      const cells = p.direction === 'left' || p.direction === 'right' ? FLOAT_STEP.cols : FLOAT_STEP.rows;
      setFloatRect(server, s, pane.n, movedRect(f, p.direction, cells, s.viewport));
      return paneAck(server, pane);
    }
    let other: number | null;
    if (p.with !== undefined) other = server.pane(p.with).n;
    else other = neighbour(tiledRects(s), pane.n, p.direction ?? 'next', leaves(s.layout));
    if (other === null || other === pane.n) throw faults.failed(`pane ${pane.n} has no neighbour ${p.direction ?? 'next'} to swap with`);
    const o = server.pane(other);
    if (o.session !== s.id) throw faults.failed(`pane ${other} is in another session`);
    if (isFloating(s, pane.n) || isFloating(s, other)) throw faults.failed('only tiled panes can be swapped; a floating pane moves by direction');
    s.layout = swapLeaves(s.layout, pane.n, other);
    relayout(server, s);
    return paneAck(server, pane);
  },
  'pane/close': (p, { server }) => {
    const pane = server.pane(p.pane, p.session);
    const ack = paneAck(server, pane);
    if (p.unlessBusy) {
      const busy = busyProgram(server, pane);
      if (busy !== null) throw new PaneFault('busy', `${busy} is running in pane ${pane.n}`, { reason: busy, subject: server.address(pane.n) });
    }
    const s = server.sessionOf(pane);
    destroyPane(server, pane.n);
    relayout(server, s);
    return ack;
  },
  'pane/restart': (p, { server }) => {
    const pane = server.pane(p.pane, p.session);
    restartPane(server, pane);
    return paneAck(server, pane);
  },
  'pane/zoom': (p, { server }) => {
    const pane = server.pane(p.pane, p.session);
    const s = server.sessionOf(pane);
    const want = p.zoom ?? s.zoomed !== pane.n;
    s.zoomed = want ? pane.n : null;
    if (want) s.focused = pane.n;
    relayout(server, s);
    server.focusChanged(s);
    return paneAck(server, pane);
  },
  'pane/float': (p, { server }) => {
    const pane = server.pane(p.pane, p.session);
    const s = server.sessionOf(pane);
    const floating = isFloating(s, pane.n);
    const toFloat = p.mode === 'toggle' ? !floating : p.mode === 'float';
    if (toFloat && !floating) {
      if (leaves(s.layout).length <= 1 && s.layout !== null && leaves(s.layout)[0] === pane.n && s.floating.length === 0) {
        // The only pane may float too; the tiled area is then empty.
      }
      const d = defaultFloatRect(s);
      const z = Math.max(0, ...s.floating.map((f) => f.z)) + 1;
      s.layout = removeLeaf(s.layout, pane.n);
      if (s.zoomed === pane.n) s.zoomed = null;
      s.floating = [...s.floating, { pane: pane.n, x: p.x ?? d.x, y: p.y ?? d.y, w: p.w ?? d.w, h: p.h ?? d.h, z, layer: 'default', visible: true }];
    } else if (!toFloat && floating) {
      s.floating = s.floating.filter((f) => f.pane !== pane.n);
      const anchor = s.focused !== null && s.focused !== pane.n && leaves(s.layout).includes(s.focused) ? s.focused : (leaves(s.layout).at(-1) ?? null);
      s.layout = insertSplit(s.layout, anchor, pane.n, 'horizontal', 50);
    }
    s.focused = pane.n;
    relayout(server, s);
    server.focusChanged(s);
    syncFloatWord(server, pane, isFloating(s, pane.n));
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
    pane.tag = { ...pane.tag, name, user };
    server.publish('pane/tag-changed', { pane: pane.n, tag: pane.tag });
    return paneAck(server, pane);
  },
  'pane/attrs': (p, { server }) => {
    const pane = server.pane(p.pane);
    // One source for geometry: the server places panes, so their quadrant is not written from outside.
    if ('quadrant' in p.set) throw faults.badRequest(`quadrant is computed by the server from where pane ${pane.n} is laid out; move the pane to change it`, 'set.quadrant');
    const next = { ...pane.attrs };
    for (const [k, v] of Object.entries(p.set)) {
      if (v === null) delete next[k];
      else next[k] = v;
    }
    if (Object.keys(next).length > 256) throw faults.failed(`pane ${pane.n} would have more than 256 attrs`);
    pane.attrs = next;
    server.publish('pane/attrs-changed', { pane: pane.n, attrs: pane.attrs });
    return paneAck(server, pane);
  },
  'pane/exec': async (p, ctx) => {
    const pane = ctx.server.pane(p.pane);
    // acme's event interception: a reader holding /pane/<n>/event open read-write
    // gets the line instead, and writes back the ones it wants done by default
    // (server/namespace/paneFiles.ts calls execDefault for those).
    const interceptor = ctx.services.namespace.interceptorOf(pane.n);
    if (interceptor) {
      interceptor.offer(p.line.trim(), p.origin ?? 'protocol', ctx.client.user);
      return { pane: pane.n, done: true, output: `handed to the reader of /pane/${pane.n}/event` };
    }
    return execDefault(ctx, pane, p.line, p.origin ?? 'protocol', ctx.client.user, p.fallback);
  },
  'pane/input': (p, { server, client }) => {
    const pane = server.pane(p.pane);
    if (!client.canWrite) throw faults.denied(`client ${client.name} may not write to panes`);
    const bytes = p.encoding === 'base64' ? Buffer.from(p.data, 'base64') : Buffer.from(p.data, 'utf8');
    const t = server.terminal(pane);
    if (!t.running) throw faults.failed(`pane ${pane.n} has exited; restart it first`);
    t.write(bytes);
    return { pane: pane.n, bytes: bytes.byteLength };
  },
};

/** Performs a command line of the pane's vocabulary: parse, announce, dispatch (no interception). */
export async function execDefault(ctx: HandlerContext, pane: Pane, line: string, origin: string, by: string, fallback: 'error' | 'shell' = 'error') {
  const parsed = parseCommandLine(pane, line);
  if (!parsed.ok && parsed.unknownWord && fallback === 'shell') return runInErrorsPane(ctx, pane, line.trim(), origin, by);
  if (!parsed.ok) throw faults.badRequest(parsed.message, `pane ${pane.n}`);
  ctx.server.publish('pane/executed', { pane: pane.n, line: line.trim(), origin, by });
  await ctx.dispatch(parsed.request.method, parsed.request.params);
  return { pane: pane.n, done: true };
}

/** Single-quotes a word for sh. */
function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * acme's +Errors: a word that is not a command runs as a shell command in the
 * pane's cwd. Each session has one +Errors pane, a shell that is fed the command
 * lines, so outputs append one after another, as in acme, and stay readable.
 */
async function runInErrorsPane(ctx: HandlerContext, pane: Pane, line: string, origin: string, by: string) {
  const { server } = ctx;
  const s = server.sessionOf(pane);
  let errors = server.panesOf(s).find((p) => p.attrs.errors === '1' && p.state === 'running');
  if (!errors) {
    const tiled = leaves(s.layout).includes(pane.n);
    const spec = {
      name: '+Errors',
      signature: 'com.pane.errors',
      attrs: { errors: '1', remain: '1' },
      launch: { program: '/bin/sh', args: [], cwd: pane.cwd, env: { PS1: '' } },
    };
    const ack = (
      tiled
        ? await ctx.dispatch('pane/launch', { pane: pane.n, direction: 'vertical', ratio: 75, ...spec })
        : await ctx.dispatch('float/create', { session: s.id, ...spec })
    ) as { pane: number };
    errors = server.pane(ack.pane);
    setFocus(server, s, pane.n);
  }
  server.publish('pane/executed', { pane: pane.n, line, origin, by });
  server.terminal(errors).write(`cd -- ${shQuote(pane.cwd)} && ${line}\n`);
  return { pane: pane.n, done: true, output: `ran "${line}" in ${pane.cwd}; output in +Errors (pane ${errors.n})` };
}

/** pane/split's params as its schema gives them (pane/launch's are the same with launch required). */
type SplitParams = Params<'pane/split'>;

function split(server: PaneServer, p: SplitParams, creator: string) {
  const s = p.pane === undefined ? server.session(p.session) : server.sessionOf(server.pane(p.pane));
  const anchor = p.pane === undefined ? (s.focused !== null && leaves(s.layout).includes(s.focused) ? s.focused : (leaves(s.layout).at(-1) ?? null)) : server.pane(p.pane).n;
  if (anchor !== null && isFloating(s, anchor)) throw faults.failed(`pane ${anchor} is floating; tile it before splitting`);
  const anchorPane = anchor === null ? undefined : server.panes.get(anchor);
  if (anchorPane) refreshPane(server, anchorPane); // a `cd` a moment ago counts
  // The new pane's PTY starts at the size it will be drawn at, so only its anchor resizes.
  const size = bodyFor({ ...s, zoomed: null, layout: insertSplit(s.layout, anchor, PROBE, p.direction, p.ratio) }, PROBE);
  const pane = createPane(
    server,
    s,
    {
      launch: p.launch,
      name: p.name,
      signature: p.signature,
      kind: p.kind,
      owner: p.owner,
      attrs: p.attrs,
      cwd: p.cwd ?? anchorPane?.cwd,
      creator,
    },
    size,
  );
  s.layout = insertSplit(s.layout, anchor, pane.n, p.direction, p.ratio);
  if (s.zoomed !== null) s.zoomed = null;
  s.focused = pane.n;
  relayout(server, s);
  server.focusChanged(s);
  return paneAck(server, pane);
}
