// Floating-layer handlers: create, move, resize, focus, raise, lower, z, layer,
// visibility, close. Rectangles are in cells of the session viewport.
import { faults } from '../../kits/protocol/error';
import type { Floating, Session } from '../../kits/protocol/model';
import { bodyOf, chromeOf } from '../../kits/layout/geometry';
import { createPane, destroyPane } from '../model/lifecycle';
import { relayout } from '../model/relayout';
import { clampRect } from '../model/sizeLimits';
import type { PaneServer } from '../paneServer';
import { defaultFloatRect, syncFloatWord } from './pane';
import type { HandlerTable, HandlerContext } from './types';

function floatAck(server: PaneServer, s: Session, f: Floating) {
  return { session: s.id, pane: f.pane, id: server.address(f.pane), rect: f };
}

function find(server: PaneServer, ref: string | number): { s: Session; f: Floating } {
  const pane = server.pane(ref);
  const s = server.sessionOf(pane);
  const f = s.floating.find((x) => x.pane === pane.n);
  if (!f) throw faults.failed(`pane ${pane.n} is not floating`);
  return { s, f };
}

/** Replaces one floating rect (data stays immutable-ish so snapshots never alias). */
function update(server: PaneServer, s: Session, pane: number, change: Partial<Floating>): Floating {
  let out: Floating | undefined;
  s.floating = s.floating.map((f) => (f.pane === pane ? (out = clampRect({ ...f, ...change })) : f));
  relayout(server, s);
  return out!;
}

function zRange(s: Session, layer: string) {
  const zs = s.floating.filter((f) => f.layer === layer).map((f) => f.z);
  return { min: Math.min(0, ...zs), max: Math.max(0, ...zs) };
}

const simple =
  (change: (s: Session, f: Floating) => Partial<Floating>, focus = false) =>
  (p: { pane: string | number }, { server }: HandlerContext) => {
    const { s, f } = find(server, p.pane);
    const next = update(server, s, f.pane, change(s, f));
    if (focus && s.focused !== f.pane) {
      s.focused = f.pane;
      server.focusChanged(s);
    }
    return floatAck(server, s, next);
  };

export const floatingHandlers: HandlerTable = {
  'float/create': (p, { server, client }) => {
    const s = server.session(p.session);
    const d = defaultFloatRect(s);
    const rect = clampRect({ x: p.x ?? d.x, y: p.y ?? d.y, w: p.w ?? d.w, h: p.h ?? d.h });
    const pane = createPane(server, s, { launch: p.launch, name: p.name, signature: p.signature, kind: p.kind, owner: p.owner, attrs: p.attrs, cwd: p.cwd, creator: client.user }, bodyOf(rect, chromeOf(s.viewport)));
    const layer = p.layer ?? 'default';
    const f: Floating = { pane: pane.n, ...rect, z: p.z ?? zRange(s, layer).max + 1, layer, visible: true };
    s.floating = [...s.floating, f];
    s.focused = pane.n;
    relayout(server, s);
    server.focusChanged(s);
    syncFloatWord(server, pane, true);
    return floatAck(server, s, f);
  },
  'float/move': (p, ctx) => simple(() => ({ x: p.x, y: p.y }))(p, ctx),
  'float/resize': (p, ctx) => simple(() => ({ w: p.w, h: p.h }))(p, ctx),
  'float/focus': (p, ctx) => simple((s, f) => ({ z: zRange(s, f.layer).max + (zRange(s, f.layer).max === f.z ? 0 : 1), visible: true }), true)(p, ctx),
  'float/raise': (p, ctx) => simple((s, f) => ({ z: zRange(s, f.layer).max === f.z ? f.z : zRange(s, f.layer).max + 1 }))(p, ctx),
  'float/lower': (p, ctx) => simple((s, f) => ({ z: zRange(s, f.layer).min === f.z ? f.z : zRange(s, f.layer).min - 1 }))(p, ctx),
  'float/z': (p, ctx) => simple(() => ({ z: p.z }))(p, ctx),
  'float/layer': (p, ctx) => simple(() => ({ layer: p.layer }))(p, ctx),
  'float/visible': (p, ctx) => simple(() => ({ visible: p.visible }))(p, ctx),
  'float/close': (p, { server }) => {
    const { s, f } = find(server, p.pane);
    destroyPane(server, f.pane);
    relayout(server, s);
    return floatAck(server, s, f);
  },
};
