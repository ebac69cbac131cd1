// Every bindable action as protocol requests (or, for overlays, window state).
// The palette, the keymap and the prefix mode all come here, so an action does the
// same thing however it was invoked — and none of them needs a mouse.
import { ACTIONS, type Action, type ActionId } from '../../kits/protocol/keymap';
import type { Edge, FocusDirection, FocusMove } from '../../kits/protocol/pane';
import type { Params } from '../../kits/protocol/index';
import { closePane, closePaneNow } from './closePane';
import { client } from './net/client';
import { selectSession, store } from './store';
import { focusNextWaiting } from './notices';
import { notifyWhenDone } from './attention';
import { toggleTagFocus } from './keys/tagFocus';
import { existingTerm, plumbClick } from './term/terminals';
import { FONT_SIZE_MAX, FONT_SIZE_MIN } from '../../kits/protocol/settings';
import { zoneRect, type SnapZone } from './layout/snap';
import { syncTargets } from './term/syncInput';

/** Cells a resize chord moves an edge: columns are narrower than rows are tall. */
const RESIZE_COLS = 4;
const RESIZE_ROWS = 2;

function ctx() {
  const st = store.getState();
  const session = selectSession(st);
  return { st, session, focused: session?.focused ?? null };
}

/**
 * The switcher's order: most recently focused first (as this window saw the focus move, then the
 * session's own history from the server, which a window opened later has too), then the rest in
 * layout order.
 */
export function switcherOrder(): number[] {
  const { st, session } = ctx();
  if (!session) return [];
  const inSession = Object.values(st.panes).filter((p) => p.session === session.id).map((p) => p.n);
  const mru = st.mru.filter((n) => inSession.includes(n));
  const recent = (session.recent ?? []).filter((n) => inSession.includes(n));
  const focused = session.focused;
  const order = [...(focused !== null && inSession.includes(focused) ? [focused] : []), ...mru, ...recent, ...inSession];
  return [...new Set(order)];
}

async function newPane(direction?: 'horizontal' | 'vertical'): Promise<void> {
  const { st, session, focused } = ctx();
  if (!session || focused === null) {
    // No pane to split (empty or no session): a fresh session with one shell.
    if (!session) await client.act('session/new', {});
    else await client.act('pane/split', { session: session.id, direction: direction ?? 'horizontal' });
    return;
  }
  const rect = session.placements.find((p) => p.pane === focused && !p.floating);
  // "New pane" splits along the longer side of the focused pane, in screen pixels.
  const dir = direction ?? (rect && rect.w * st.cell.w * 0.6 < rect.h * st.cell.h ? 'vertical' : 'horizontal');
  // A floating pane cannot be split: the new pane joins the tiles instead.
  if (!rect) await client.act('pane/split', { session: session.id, direction: dir });
  else await client.act('pane/split', { pane: focused, direction: dir });
}

function copySelection(): void {
  const { focused } = ctx();
  const text = focused !== null ? existingTerm(focused)?.term.getSelection() ?? '' : '';
  if (text === '') return;
  navigator.clipboard?.writeText(text).catch(() => store.getState().notify('error', 'could not copy: clipboard refused'));
}

/** The selection, plumbed as a click on it would be (the whole selection must match a rule). */
function plumbSelection(): void {
  const { st, focused } = ctx();
  const text = focused !== null ? (existingTerm(focused)?.term.getSelection() ?? '').trim() : '';
  if (focused === null || text === '') return st.notify('info', 'select text first (the mouse, or copy mode’s v), then plumb it; in copy mode o plumbs the line at the cursor');
  // The selection is used up, as a click would leave none.
  existingTerm(focused)?.term.clearSelection();
  void plumbClick(focused, text, undefined);
}

/** The layer the scratch key shows and hides as one. */
export const SCRATCH_LAYER = 'scratch';

/** A layer's floats shown or hidden together; the first press, with none there, opens a scratch shell in it. */
async function toggleLayer(layer: string): Promise<void> {
  const { session } = ctx();
  if (!session) return;
  const floats = session.floating.filter((f) => f.layer === layer);
  if (floats.length === 0) return void (await client.act('float/create', { session: session.id, layer, name: layer }));
  const show = floats.every((f) => !f.visible);
  for (const f of floats) await client.act('float/visible', { pane: f.pane, visible: show });
  if (show) await client.act('float/focus', { pane: floats[floats.length - 1]!.pane });
}

/** The focused pane floated into one of the nine zones of the session's view (layout/snap.ts, in cells). */
async function snapTo(pane: number, zone: SnapZone): Promise<void> {
  const { session } = ctx();
  if (!session) return;
  const { cols, rows } = session.viewport;
  const r = zoneRect(zone, cols, rows);
  const x = Math.round(r.x);
  const y = Math.round(r.y);
  const cell = { x, y, w: Math.max(1, Math.round(r.x + r.w) - x), h: Math.max(1, Math.round(r.y + r.h) - y) };
  const now = session.floating.find((f) => f.pane === pane);
  if (!now) return void (await client.act('pane/float', { pane, mode: 'float', ...cell }));
  // The server keeps a float inside the view: shrink before a move that the old size would push back, else move first.
  const shrinkFirst = cell.x + now.w > cols || cell.y + now.h > rows;
  if (shrinkFirst) await client.act('float/resize', { pane, w: cell.w, h: cell.h });
  await client.act('float/move', { pane, x: cell.x, y: cell.y });
  if (!shrinkFirst) await client.act('float/resize', { pane, w: cell.w, h: cell.h });
  await client.act('float/focus', { pane });
}

/** Quitting the daemon is explicit: say what will end, and ask. */
async function stopDaemon(): Promise<void> {
  const panes = Object.values(store.getState().panes);
  const running = panes.filter((p) => p.state === 'running').length;
  const what = `${panes.length} pane${panes.length === 1 ? '' : 's'} and ${running} running program${running === 1 ? '' : 's'} will end`;
  if (!window.confirm(`Stop the pane daemon? ${what}. (Closing the window instead keeps them running.)`)) return;
  await client.act('server/stop', {});
}

/** Runs one action. Unknown or impossible ones say so in a notice. */
export async function runAction(action: Action): Promise<void> {
  const { st, session, focused } = ctx();
  if (action.startsWith('exec ')) {
    if (focused === null) return st.notify('error', 'no focused pane to run that in');
    const r = await client.act('pane/exec', { pane: focused, line: action.slice(5), origin: 'key' });
    if (r?.output) st.notify('info', r.output.slice(0, 500));
    return;
  }
  const id = action as ActionId;
  const [family, arg] = id.split('.') as [string, string | undefined];
  const pane = focused ?? undefined;
  switch (family) {
    case 'pane':
      if (id === 'pane.new') return newPane();
      if (id === 'pane.split.horizontal') return newPane('horizontal');
      if (id === 'pane.split.vertical') return newPane('vertical');
      if (pane === undefined) return st.notify('info', 'no pane is focused');
      if (id === 'pane.zoom') return void (await client.act('pane/zoom', { pane }));
      if (id === 'pane.close') return closePane(pane);
      if (id === 'pane.close.now') return closePaneNow(pane);
      if (id === 'pane.float') return void (await client.act('pane/float', { pane, mode: 'toggle' }));
      if (id === 'pane.hide') return void (await client.act('pane/hide', { pane, hidden: true }));
      if (id === 'pane.notify') return notifyWhenDone(pane);
      break;
    case 'dock':
      return st.setOverlay(st.overlay?.kind === 'dock' ? null : { kind: 'dock' });
    case 'layer':
      return toggleLayer(SCRATCH_LAYER);
    case 'snap':
      if (pane === undefined) return st.notify('info', 'no pane is focused');
      return snapTo(pane, arg as SnapZone);
    case 'focus':
      if (!session) return;
      return void (await client.act('pane/focus', { session: session.id, ...(pane !== undefined ? { pane } : {}), direction: arg as FocusMove }));
    case 'layout':
      if (!session) return;
      return void (await client.act('session/layout', { session: session.id, layout: arg as Params<'session/layout'>['layout'] }));
    case 'swap':
      if (pane === undefined) return;
      return void (await client.act('pane/swap', { pane, direction: arg as FocusDirection }));
    case 'resize':
      if (pane === undefined) return;
      return void (await client.act('pane/resize', { pane, direction: arg as Edge, cells: arg === 'left' || arg === 'right' ? RESIZE_COLS : RESIZE_ROWS }));
    case 'switcher': {
      const ov = st.overlay;
      const step = arg === 'prev' ? -1 : 1;
      if (ov?.kind === 'switcher') {
        const n = ov.order.length;
        return st.setOverlay({ ...ov, index: (((ov.index + step) % n) + n) % n });
      }
      const order = switcherOrder();
      // Taken once: the chord that set it opened this switcher; the palette or the prefix's key opening the next one holds nothing.
      const held = heldModifiers;
      heldModifiers = false;
      if (order.length === 0) return;
      return st.setOverlay({ kind: 'switcher', order, index: order.length > 1 ? (step > 0 ? 1 : order.length - 1) : 0, held });
    }
    case 'launcher':
      return st.setOverlay(st.overlay?.kind === 'launcher' ? null : { kind: 'launcher' });
    case 'palette':
      return st.setOverlay(st.overlay?.kind === 'palette' ? null : { kind: 'palette' });
    case 'find':
      if (pane === undefined) return;
      return st.setOverlay({ kind: 'find', pane });
    case 'copy':
      if (pane === undefined) return st.notify('info', 'no pane is focused');
      return st.setOverlay(st.overlay?.kind === 'copy' ? null : { kind: 'copy', pane });
    case 'tag':
      return toggleTagFocus();
    case 'input': {
      if (!session) return;
      const on = !st.synced[session.id];
      st.setSynced(session.id, on);
      if (!on) return st.notify('info', 'typing goes to the focused pane alone again');
      const more = syncTargets(store.getState(), focused ?? -1, session.id).length + (focused !== null ? 1 : 0);
      return st.notify('info', `typing goes to ${more} pane${more === 1 ? '' : 's'} of this session at once (terminals on screen; agents never)`);
    }
    case 'notices':
      return st.setOverlay(st.overlay?.kind === 'history' ? null : { kind: 'history' });
    case 'agent':
      return focusNextWaiting();
    case 'session':
      return st.setOverlay(st.overlay?.kind === 'sessions' ? null : { kind: 'sessions' });
    case 'font': {
      const base = st.settings.settings.fontSize;
      // Zoom stays within the font sizes the settings allow.
      const lo = FONT_SIZE_MIN - base;
      const hi = FONT_SIZE_MAX - base;
      const steps = id === 'font.zoomReset' ? 0 : Math.min(hi, Math.max(lo, st.fontZoom + (id === 'font.zoomIn' ? 1 : -1)));
      return st.setFontZoom(steps);
    }
    case 'server':
      if (id === 'server.stop') return stopDaemon();
      break;
    case 'terminal':
      if (id === 'terminal.copy') return copySelection();
      if (id === 'terminal.plumb') return plumbSelection();
      if (id === 'terminal.screenReader') {
        st.setScreenReader(!st.screenReader);
        return st.notify('info', `screen-reader mode ${st.screenReader ? 'off' : 'on'}`);
      }
      break;
  }
  st.notify('error', `unknown action "${action}"`);
}

/** Set by the key router while a modifier that opened the switcher is still held. */
let heldModifiers = false;
export function setHeldModifiers(held: boolean): void {
  heldModifiers = held;
}

/** Commits the switcher's choice. */
export function commitSwitcher(): void {
  const st = store.getState();
  const ov = st.overlay;
  if (ov?.kind !== 'switcher') return;
  st.setOverlay(null);
  const target = ov.order[ov.index];
  if (target === undefined) return;
  // A floating pane chosen in the switcher also comes to the top of its layer.
  const floats = selectSession(st)?.floating.some((f) => f.pane === target) ?? false;
  void client.act(floats ? 'float/focus' : 'pane/focus', { pane: target });
}

export function actionTitle(action: Action): string {
  if (action.startsWith('exec ')) return `Run "${action.slice(5)}" in the focused pane`;
  return ACTIONS[action as ActionId] ?? action;
}
