// The tiled layer's rules: where a split puts a new pane, swap, resize (divider
// ratios kept within MIN_RATIO..MAX_RATIO by kits/layout/tree.ts), and close with
// collapse (the sibling takes the space, zoom ends, focus moves to a neighbour).
import { faults, PaneFault } from '../../../kits/protocol/error';
import type { Session, SplitDirection } from '../../../kits/protocol/model';
import type { Edge, FocusDirection } from '../../../kits/protocol/pane';
import { insertSplit, leaves, neighbour, rects, removeLeaf, resizeEdge, setRatio as treeSetRatio, swapLeaves } from '../../../kits/layout/tree';
import { bodyFor, placements } from '../../../kits/layout/geometry';
import { inView, resizedRect } from '../../../kits/layout/floats';
import { changes, mark, type SessionEvent } from './changes';
import { focus, isFloating, isTiled, onView } from './focus';
import { replaceFloat } from './floats';

/** Stands for a pane not yet created when sizing it before it exists (pane numbers start at 1). */
const PROBE = -1;

/**
 * The tile a split divides: the given pane, else the focused tile, else the last
 * tile (null in an empty tiled area). A float cannot be split.
 */
export function splitAnchor(s: Session, pane?: number): number | null {
  const anchor = pane ?? (s.focused !== null && isTiled(s, s.focused) ? s.focused : (leaves(s.layout).at(-1) ?? null));
  if (anchor !== null && isFloating(s, anchor)) throw faults.failed(`pane ${anchor} is floating; tile it before splitting`);
  return anchor;
}

/**
 * The smallest body a split leaves on either side: a prompt and the start of a command
 * (6 columns) under one line of output (2 rows). Below it a pane is a sliver no one can
 * type in; pressing the new-pane key again and again made 2×1 panes, where tmux and
 * Zellij refuse the split.
 */
export const MIN_SPLIT_BODY = { cols: 6, rows: 2 } as const;
/** The reason a split refused for want of room carries: a caller that can open its pane floating instead does. */
export const NO_ROOM = 'no room to split';

/** Whether `e` is a split refused for want of room (NO_ROOM): a caller that can open its pane floating does so on that alone. */
export function isNoRoom(e: unknown): boolean {
  return e instanceof PaneFault && e.reason === NO_ROOM;
}

/**
 * The body a pane split off `anchor` will have (splitBody), for a split that must leave
 * room: refuses one that would leave it or the new pane smaller than MIN_SPLIT_BODY,
 * naming the pane, the size each side would get and what to do instead.
 */
export function roomySplitBody(s: Session, anchor: number | null, direction: SplitDirection, ratio: number): { cols: number; rows: number } {
  const placed = placements(probed(s, anchor, direction, ratio));
  const body = (n: number) => placed.find((p) => p.pane === n);
  const mine = body(PROBE)!;
  // The first tile of an empty area takes the whole view.
  const tight = anchor === null ? undefined : [mine, body(anchor)].find((p) => p !== undefined && (p.cols < MIN_SPLIT_BODY.cols || p.rows < MIN_SPLIT_BODY.rows));
  if (!tight) return { cols: mine.cols, rows: mine.rows };
  const how = direction === 'horizontal' ? 'side by side' : 'top and bottom';
  const who = tight.pane === PROBE ? 'the new pane' : `pane ${anchor}`;
  throw new PaneFault(
    'failed',
    `pane ${anchor} has no room to split ${how}: ${who} would be ${tight.cols}×${tight.rows} cells, and a split leaves at least ${MIN_SPLIT_BODY.cols}×${MIN_SPLIT_BODY.rows} (MIN_SPLIT_BODY); split a larger pane, split the other way, close or zoom one, or open it floating`,
    { reason: NO_ROOM, subject: String(anchor) },
  );
}

/** The session as it will be laid out once PROBE is split off `anchor` (zoom ends with a split). */
function probed(s: Session, anchor: number | null, direction: SplitDirection, ratio: number): Session {
  return { ...s, zoomed: null, layout: insertSplit(s.layout, anchor, PROBE, direction, ratio) };
}

/** The body a pane split off `anchor` will have, so its PTY starts at the size it is drawn at. */
export function splitBody(s: Session, anchor: number | null, direction: SplitDirection, ratio: number): { cols: number; rows: number } {
  return bodyFor(probed(s, anchor, direction, ratio), PROBE);
}

/** Places the new pane `n` beside `anchor` (ratio percent stays with the anchor), ends any zoom, focuses it (`takeFocus` false: an agent's split takes not the session's focus). */
export function split(s: Session, anchor: number | null, n: number, direction: SplitDirection, ratio: number, takeFocus = true): SessionEvent[] {
  const m = mark(s);
  s.layout = insertSplit(s.layout, anchor, n, direction, ratio);
  s.zoomed = null;
  if (takeFocus) focus(s, n);
  return changes(s, m);
}

/** The tile a swap `direction` of `n` exchanges with, or null when there is none. */
export function swapTarget(s: Session, n: number, direction: FocusDirection): number | null {
  return neighbour(rects(s.layout, s.viewport), n, direction, leaves(s.layout));
}

/** Exchanges two tiles' places. */
export function swap(s: Session, n: number, other: number): SessionEvent[] {
  if (isFloating(s, n) || isFloating(s, other)) throw faults.failed('only tiled panes can be swapped; a floating pane moves by direction');
  if (!isTiled(s, n) || !isTiled(s, other)) throw faults.failed(`panes ${n} and ${other} are not both tiles of session ${s.name}`);
  const m = mark(s);
  s.layout = swapLeaves(s.layout, n, other);
  return changes(s, m);
}

/** Moves a tile's edge by `cells` (its divider's ratio, clamped); a float's bottom-right corner follows instead. */
export function resize(s: Session, n: number, edge: Edge, cells: number): SessionEvent[] {
  const m = mark(s);
  const f = s.floating.find((x) => x.pane === n);
  if (f) {
    // A float has no dividers: its bottom-right corner follows the arrow, inside the view.
    replaceFloat(s, n, resizedRect(inView(f, s.viewport), edge, cells, s.viewport));
    return changes(s, m);
  }
  const next = resizeEdge(s.layout, n, edge, cells, s.viewport);
  if (!next) throw faults.failed(`pane ${n} has no ${edge} edge to move (it touches the window border)`);
  s.layout = next;
  return changes(s, m);
}

/** Sets the ratio of the nearest `direction` split around `n` (a divider drag), clamped to MIN_RATIO..MAX_RATIO. */
export function setRatio(s: Session, n: number, direction: SplitDirection, ratio: number): SessionEvent[] {
  const next = treeSetRatio(s.layout, n, direction, ratio);
  if (!next) throw faults.failed(`pane ${n} is in no ${direction} split`);
  const m = mark(s);
  s.layout = next;
  return changes(s, m);
}

/**
 * Takes a closed pane out of the session: its split collapses (the sibling takes
 * the space), its float goes, a zoom on it ends, and if it had focus, focus moves
 * back to the pane focused before it (`recent`, as tmux does), else to its former
 * neighbour in reading order, else to any pane left. `avoid` names panes the focus
 * should not fall to when another will do: an agent closing the pane the person
 * focused does not choose where the person's keys go next (its own panes, placed
 * beside it, are passed over; decision 059).
 */
export function close(s: Session, n: number, avoid: (p: number) => boolean = () => false): SessionEvent[] {
  const m = mark(s);
  const order = leaves(s.layout);
  const wasFocused = s.focused === n;
  s.layout = removeLeaf(s.layout, n);
  if (isFloating(s, n)) s.floating = s.floating.filter((f) => f.pane !== n);
  if (s.zoomed === n) s.zoomed = null;
  if (s.recent?.includes(n)) s.recent = s.recent.filter((p) => p !== n);
  if (wasFocused) {
    const next = successor(s, order, n, avoid);
    if (next === null) s.focused = null;
    else {
      // The closed pane is no place to go back to: the focus passes without leaving it in `recent`.
      s.focused = null;
      focus(s, next);
    }
  }
  return changes(s, m);
}

function successor(s: Session, order: number[], gone: number, avoid: (p: number) => boolean): number | null {
  const live = leaves(s.layout);
  const i = order.indexOf(gone);
  const floats = s.floating.map((f) => f.pane).reverse();
  const shown = onView(s);
  const back = (s.recent ?? []).filter((p) => shown.includes(p));
  const near = [order[i - 1], order[i + 1]].filter((p): p is number => p !== undefined && live.includes(p));
  const all = [...back, ...near, ...live, ...floats];
  return all.find((p) => !avoid(p)) ?? all[0] ?? null;
}
