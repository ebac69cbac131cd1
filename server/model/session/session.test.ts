// The session model's operations on plain session values: each keeps the
// invariants (sessionInvalidity) and returns the events its change needs.
import { describe, expect, it } from 'vitest';
import type { Floating, LayoutNode, Session } from '../../../kits/protocol/model';
import { leaves, MAX_RATIO, MIN_RATIO } from '../../../kits/layout/tree';
import { placements } from '../../../kits/layout/geometry';
import { MAX_COLS } from '../sizeLimits';
import * as model from './index';

const leaf = (pane: number): LayoutNode => ({ type: 'leaf', pane });
const hsplit = (a: LayoutNode, b: LayoutNode, ratio = 50): LayoutNode => ({ type: 'split', direction: 'horizontal', ratio, a, b });
const vsplit = (a: LayoutNode, b: LayoutNode, ratio = 50): LayoutNode => ({ type: 'split', direction: 'vertical', ratio, a, b });
const fl = (pane: number, over: Partial<Floating> = {}): Floating => ({ pane, x: 10, y: 5, w: 40, h: 12, z: 1, layer: 'default', visible: true, ...over });

function session(over: Partial<Session> = {}): Session {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'main',
    host: 'here',
    layout: null,
    floating: [],
    focused: null,
    zoomed: null,
    viewport: { cols: 160, rows: 48 },
    placements: [],
    createdAt: 0,
    ...over,
  };
}

/** [1 | 2/3]: 1 on the left, 2 over 3 on the right; focus on 3. */
const three = () => session({ layout: hsplit(leaf(1), vsplit(leaf(2), leaf(3))), focused: 3 });
const names = (evs: model.SessionEvent[]) => evs.map((e) => e.event);
const valid = (s: Session) => expect(model.sessionInvalidity(s)).toBeNull();

describe('focus', () => {
  it('moves focus to a pane of the session and says so once', () => {
    const s = three();
    expect(names(model.focus(s, 1))).toEqual(['focus/changed']);
    expect(s.focused).toBe(1);
    expect(model.focus(s, 1)).toEqual([]);
    valid(s);
  });

  it('refuses a pane that is not in the session, leaving focus where it was', () => {
    const s = three();
    expect(() => model.focus(s, 9)).toThrow(/pane 9 is not in session main/);
    expect(s.focused).toBe(3);
  });

  it('finds the pane a direction or next/prev leads to, and names the edge when there is none', () => {
    const s = three();
    expect(model.focusTarget(s, 3, 'left')).toBe(1);
    expect(model.focusTarget(s, 3, 'up')).toBe(2);
    expect(model.focusTarget(s, 3, 'next')).toBe(1);
    expect(() => model.focusTarget(s, 1, 'left')).toThrow(/no pane left of pane 1/);
  });

  it('ends a zoom on another pane and raises a float to the top of its layer when focused by hand', () => {
    const s = three();
    s.floating = [fl(4, { z: 1 }), fl(5, { z: 2 })];
    s.zoomed = 2;
    s.focused = 2;
    expect(names(model.focusPane(s, 4))).toEqual(['layout/changed', 'focus/changed']);
    expect(s.zoomed).toBeNull();
    expect(s.floating.find((f) => f.pane === 4)!.z).toBe(3);
    valid(s);
  });
});

describe('focus history', () => {
  it('goes back to the pane focused before with last, and back again', () => {
    const s = three();
    model.focus(s, 1);
    expect(s.recent).toEqual([3]);
    expect(model.focusTarget(s, 1, 'last')).toBe(3);
    model.focus(s, 3);
    expect(s.recent).toEqual([1]);
    expect(model.focusTarget(s, 3, 'last')).toBe(1);
    valid(s);
  });

  it('keeps each pane once, the latest first, and no more than RECENT_FOCUS_MAX', () => {
    const s = session({ layout: leaf(1), focused: 1 });
    for (let n = 2; n <= 30; n++) model.split(s, n - 1, n, n % 2 ? 'horizontal' : 'vertical', 50);
    expect(s.recent).toHaveLength(16);
    expect(s.recent!.slice(0, 3)).toEqual([29, 28, 27]);
    model.focus(s, 28);
    expect(s.recent!.slice(0, 3)).toEqual([30, 29, 27]);
    valid(s);
  });

  it('passes over a hidden float, and names why when nothing was focused before', () => {
    const s = session({ layout: hsplit(leaf(1), leaf(2)), floating: [fl(3)], focused: 1 });
    model.focus(s, 2);
    model.focus(s, 3);
    s.floating = [fl(3, { visible: false })];
    model.focus(s, 1);
    expect(s.recent).toEqual([3, 2]);
    expect(model.focusTarget(s, 1, 'last')).toBe(2);
    const fresh = session({ layout: leaf(1), focused: 1 });
    expect(() => model.focusTarget(fresh, 1, 'last')).toThrow(/no pane was focused before pane 1/);
  });
});

describe('zoom', () => {
  it('toggles a zoom, focusing the zoomed pane, and publishes the layout then the focus', () => {
    const s = three();
    expect(names(model.zoom(s, 1))).toEqual(['layout/changed', 'focus/changed']);
    expect([s.zoomed, s.focused]).toEqual([1, 1]);
    valid(s);
    model.zoom(s, 1);
    expect([s.zoomed, s.focused]).toEqual([null, 1]);
    expect(model.zoom(s, 1, false)).toEqual([]);
  });

  it('refuses to zoom a pane of another session', () => {
    expect(() => model.zoom(three(), 7)).toThrow(/pane 7 is not in session/);
  });
});

describe('split placement', () => {
  it('splits the focused tile, else the last tile, and refuses a float', () => {
    const s = three();
    expect(model.splitAnchor(s)).toBe(3);
    expect(model.splitAnchor(s, 2)).toBe(2);
    s.floating = [fl(4)];
    s.focused = 4;
    expect(model.splitAnchor(s)).toBe(3);
    expect(() => model.splitAnchor(s, 4)).toThrow(/pane 4 is floating; tile it before splitting/);
    expect(model.splitAnchor(session())).toBeNull();
  });

  it('places the new pane beside its anchor, ends the zoom and focuses it through focus', () => {
    const s = three();
    s.zoomed = 1;
    expect(names(model.split(s, 1, 4, 'vertical', 30))).toEqual(['layout/changed', 'focus/changed']);
    expect(s.layout).toEqual(hsplit(vsplit(leaf(1), leaf(4), 30), vsplit(leaf(2), leaf(3))));
    expect([s.zoomed, s.focused]).toEqual([null, 4]);
    valid(s);
  });

  it('clamps a split ratio to its bounds', () => {
    const s = session({ layout: leaf(1), focused: 1 });
    model.split(s, 1, 2, 'horizontal', 99);
    expect((s.layout as { ratio: number }).ratio).toBe(MAX_RATIO);
    model.split(s, 2, 3, 'horizontal', 1);
    expect(s.layout).toMatchObject({ b: { ratio: MIN_RATIO } });
    valid(s);
  });

  it('refuses a split that leaves either side under MIN_SPLIT_BODY, naming the pane, the size and what to do', () => {
    // Splitting the newest pane again and again, as a held new-pane key does: 160 columns halve to 5 on the fifth.
    const s = session({ layout: leaf(1), focused: 1 });
    let n = 1;
    for (; n < 5; n++) {
      model.roomySplitBody(s, n, 'horizontal', 50);
      model.split(s, n, n + 1, 'horizontal', 50);
    }
    expect(placements(s).find((p) => p.pane === 5)!.cols).toBe(10);
    expect(() => model.roomySplitBody(s, 5, 'horizontal', 50)).toThrow(/pane 5 has no room to split side by side: the new pane would be 5×47 cells, and a split leaves at least 6×2 \(MIN_SPLIT_BODY\); split a larger pane, split the other way/);
    // The other way, or a larger pane, still splits.
    expect(() => model.roomySplitBody(s, 5, 'vertical', 50)).not.toThrow();
    expect(() => model.roomySplitBody(s, 1, 'horizontal', 50)).not.toThrow();
    // The anchor's side counts too: a ratio that leaves it 10% of 20 columns.
    expect(() => model.roomySplitBody(s, 4, 'horizontal', 10)).toThrow(/pane 4 has no room to split side by side: pane 4 would be 2×47/);
    // Rows: a window's chrome (tag row) counts, as the body is what a program gets.
    const t = session({ layout: leaf(1), focused: 1, viewport: { cols: 160, rows: 10, chrome: { cols: 0, rows: 1 } } });
    model.split(t, 1, 2, 'vertical', 50);
    expect(() => model.roomySplitBody(t, 2, 'vertical', 50)).toThrow(/pane 2 has no room to split top and bottom: the new pane would be 160×1/);
    // The first tile of an empty session has the whole view.
    expect(() => model.roomySplitBody(session(), null, 'horizontal', 50)).not.toThrow();
  });

  it('sizes the new pane as it will be laid out', () => {
    const s = three();
    const body = model.splitBody(s, 1, 'vertical', 50);
    expect(model.roomySplitBody(s, 1, 'vertical', 50)).toEqual(body);
    model.split(s, 1, 4, 'vertical', 50);
    const pl = placements(s).find((p) => p.pane === 4)!;
    expect({ cols: pl.cols, rows: pl.rows }).toEqual(body);
  });
});

describe('close with collapse', () => {
  it('collapses the split and moves focus to the closed pane’s neighbour in reading order', () => {
    const s = three();
    expect(names(model.close(s, 3))).toEqual(['layout/changed', 'focus/changed']);
    expect(s.layout).toEqual(hsplit(leaf(1), leaf(2)));
    expect(s.focused).toBe(2);
    valid(s);
  });

  it('ends the zoom and moves focus when the focused, zoomed pane closes', () => {
    const s = three();
    model.zoom(s, 2);
    model.close(s, 2);
    // Back to 3, focused before the zoom took 2.
    expect([s.zoomed, s.focused]).toEqual([null, 3]);
    expect(leaves(s.layout)).toEqual([1, 3]);
    valid(s);
  });

  it('goes back to the pane focused before the closed one, as tmux does, not to its neighbour', () => {
    // [1 | 2/3], focused 3 then 1: closing 1 goes back to 3, where its reading-order neighbour is 2.
    const s = three();
    model.focus(s, 1);
    model.close(s, 1);
    expect(s.focused).toBe(3);
    expect(s.recent).toEqual([]);
    valid(s);
  });

  it('forgets a closed pane in the history, and an avoided pane is passed over there too', () => {
    const s = three();
    model.focus(s, 2);
    model.focus(s, 1);
    expect(s.recent).toEqual([2, 3]);
    model.close(s, 2);
    expect([s.focused, s.recent]).toEqual([1, [3]]);
    model.split(s, 1, 4, 'vertical', 50);
    model.focus(s, 1);
    expect(s.recent).toEqual([4, 3]);
    model.close(s, 1, (p) => p === 4);
    expect(s.focused).toBe(3);
    valid(s);
  });

  it('keeps focus where it is when another pane closes', () => {
    const s = three();
    expect(names(model.close(s, 1))).toEqual(['layout/changed']);
    expect(s.focused).toBe(3);
    expect(s.layout).toEqual(vsplit(leaf(2), leaf(3)));
  });

  it('drops a closed float and leaves an empty session with no focus', () => {
    const s = session({ layout: leaf(1), floating: [fl(2)], focused: 2 });
    model.close(s, 2);
    expect([s.floating, s.focused]).toEqual([[], 1]);
    model.close(s, 1);
    expect([s.layout, s.focused]).toEqual([null, null]);
    valid(s);
  });

  it('hands focus to a float when the last tile closes', () => {
    const s = session({ layout: leaf(1), floating: [fl(2)], focused: 1 });
    model.close(s, 1);
    expect(s.focused).toBe(2);
    valid(s);
  });
});

describe('float and tile', () => {
  it('goes float → tile → float and back, a tile or a float at each step, never both', () => {
    const s = session({ layout: hsplit(leaf(1), leaf(2)), focused: 1 });
    model.zoom(s, 2);
    expect(names(model.float(s, 2))).toEqual(['layout/changed', 'focus/changed']);
    expect([s.layout, s.zoomed, s.focused]).toEqual([leaf(1), null, 2]);
    expect(s.floating).toMatchObject([{ pane: 2, z: 1, layer: 'default', visible: true }]);
    valid(s);
    model.focus(s, 1);
    model.tile(s, 2);
    expect([s.layout, s.floating, s.focused]).toEqual([hsplit(leaf(1), leaf(2)), [], 2]);
    valid(s);
    model.setFloating(s, 2, 'toggle', { w: 30, h: 10 });
    expect(s.floating).toMatchObject([{ pane: 2, w: 30, h: 10 }]);
    expect(leaves(s.layout)).toEqual([1]);
    valid(s);
  });

  it('leaves a float floating when asked to float it again, and only focuses it', () => {
    const s = session({ layout: leaf(1), floating: [fl(2)], focused: 1 });
    const before = s.floating;
    expect(names(model.setFloating(s, 2, 'float'))).toEqual(['focus/changed']);
    expect(s.floating).toBe(before);
  });

  it('opens a created float on top of its layer and clamps its rectangle to the size limits', () => {
    const s = session({ layout: leaf(1), floating: [fl(2, { z: 5 })], focused: 1 });
    model.addFloat(s, 3, { x: 5000, y: 3, w: 50_000, h: 10 });
    const f = model.floatOf(s, 3);
    expect(f.z).toBe(6);
    expect(f.w).toBe(MAX_COLS);
    expect(f.x).toBe(MAX_COLS - 1);
    expect(s.focused).toBe(3);
    valid(s);
  });

  it('raises and lowers within a layer, and float/focus shows and raises', () => {
    const s = session({ floating: [fl(1, { z: 1 }), fl(2, { z: 2 }), fl(3, { z: 7, layer: 'hud' })], focused: 1 });
    model.raise(s, 1);
    expect(model.floatOf(s, 1).z).toBe(3);
    model.lower(s, 1);
    expect(model.floatOf(s, 1).z).toBe(-1);
    model.updateFloat(s, 1, { visible: false });
    model.focusFloat(s, 1);
    expect(model.floatOf(s, 1)).toMatchObject({ visible: true, z: 3 });
    expect(model.floatOf(s, 3).z).toBe(7);
    expect(s.focused).toBe(1);
    expect(() => model.raise(s, 9)).toThrow(/pane 9 is not floating/);
    valid(s);
  });

  it('ends another pane’s zoom when a float opens or is brought forward, so it is seen where the keys go', () => {
    const s = session({ layout: hsplit(leaf(1), leaf(2)), floating: [fl(3, { visible: false })], focused: 1, zoomed: 1 });
    model.addFloat(s, 4, {});
    expect([s.zoomed, s.focused]).toEqual([null, 4]);
    model.zoom(s, 2, true);
    model.focusFloat(s, 3);
    expect([s.zoomed, s.focused]).toEqual([null, 3]);
    // A zoomed float brought forward keeps its own zoom.
    model.zoom(s, 3, true);
    model.focusFloat(s, 3);
    expect(s.zoomed).toBe(3);
    valid(s);
  });

  it('moves a float by a keyboard step without leaving the view', () => {
    const s = session({ floating: [fl(1, { x: 2 })], focused: 1 });
    model.nudgeFloat(s, 1, 'left');
    expect(model.floatOf(s, 1).x).toBe(0);
    model.nudgeFloat(s, 1, 'down');
    expect(model.floatOf(s, 1).y).toBe(7);
  });
});

describe('layout presets', () => {
  it('lays the tiles out anew, ends a zoom, leaves floats and focus, and says the layout changed', () => {
    const s = three();
    s.floating = [fl(4)];
    s.zoomed = 3;
    const r = model.arrange(s, 'even-horizontal');
    expect(r.layout).toBe('even-horizontal');
    expect(names(r.events)).toEqual(['layout/changed', 'focus/changed']);
    expect(leaves(s.layout)).toEqual([1, 2, 3]);
    expect(s.layout).toMatchObject({ direction: 'horizontal' });
    expect([s.zoomed, s.focused, s.floating]).toEqual([null, 3, [fl(4)]]);
    valid(s);
  });

  it('makes the focused tile the main one', () => {
    const s = three();
    model.arrange(s, 'main-vertical');
    expect(s.layout).toMatchObject({ direction: 'horizontal', a: leaf(3) });
    valid(s);
  });

  it('goes through the presets in order with next, from the one the tiles are in (the first when none)', () => {
    const s = three();
    const seen = Array.from({ length: 6 }, () => model.arrange(s, 'next').layout);
    expect(seen).toEqual(['even-horizontal', 'even-vertical', 'main-horizontal', 'main-vertical', 'tiled', 'even-horizontal']);
  });

  it('refuses a preset that would leave a tile under MIN_SPLIT_BODY, naming it; next passes over it', () => {
    // 30 tiles in a 160×48 view: side by side they would be 5 columns wide.
    const s = session({ layout: leaf(1), focused: 1 });
    for (let n = 2; n <= 30; n++) s.layout = { type: 'split', direction: 'vertical', ratio: 50, a: s.layout!, b: leaf(n) };
    const before = s.layout;
    expect(() => model.arrange(s, 'even-horizontal')).toThrow(/even-horizontal would leave pane \d+ [1-5]×\d+ cells in this 160×48 view, and a tile takes at least 6×2/);
    expect(s.layout).toBe(before);
    // Stacked they would be a row high, and a main pane leaves the rest as cramped: the grid fits.
    expect(model.arrange(s, 'next').layout).toBe('tiled');
    valid(s);
  });

  it('spreads the current arrangement, and refuses a session with no tiles', () => {
    const s = session({ layout: hsplit(leaf(1), hsplit(leaf(2), leaf(3), 20), 80), focused: 1 });
    expect(model.arrange(s, 'spread').layout).toBe('spread');
    expect(s.layout).toMatchObject({ ratio: 33.33, b: { ratio: 50 } });
    expect(() => model.arrange(session({ floating: [fl(1)], focused: 1 }), 'tiled')).toThrow(/has no tiles to arrange/);
  });
});

describe('swap', () => {
  it('exchanges two tiles and finds the neighbour a direction names', () => {
    const s = three();
    expect(model.swapTarget(s, 1, 'right')).toBe(2);
    expect(names(model.swap(s, 1, 3))).toEqual(['layout/changed']);
    expect(leaves(s.layout)).toEqual([3, 2, 1]);
    valid(s);
  });

  it('refuses to swap a float with a tile, leaving both in place', () => {
    const s = three();
    s.floating = [fl(4)];
    expect(() => model.swap(s, 4, 1)).toThrow(/only tiled panes can be swapped/);
    expect(() => model.swap(s, 1, 4)).toThrow(/only tiled panes can be swapped/);
    expect(leaves(s.layout)).toEqual([1, 2, 3]);
  });
});

describe('resize', () => {
  it('moves a tile’s edge by cells and refuses an edge on the window border', () => {
    const s = three();
    model.resize(s, 1, 'right', 16);
    expect((s.layout as { ratio: number }).ratio).toBe(60);
    expect(() => model.resize(s, 1, 'left', 1)).toThrow(/pane 1 has no left edge to move/);
  });

  it('clamps divider ratios to their bounds, and refuses a pane in no such split', () => {
    const s = three();
    model.setRatio(s, 2, 'vertical', 97);
    expect(s.layout).toMatchObject({ b: { ratio: MAX_RATIO } });
    model.resize(s, 1, 'right', 1000);
    expect((s.layout as { ratio: number }).ratio).toBe(MAX_RATIO);
    model.setRatio(s, 1, 'horizontal', -5);
    expect((s.layout as { ratio: number }).ratio).toBe(MIN_RATIO);
    expect(() => model.setRatio(s, 1, 'vertical', 50)).toThrow(/pane 1 is in no vertical split/);
    valid(s);
  });

  it('grows a float from its bottom-right corner, never past the view', () => {
    const s = session({ floating: [fl(1, { x: 100, w: 40 })], focused: 1 });
    model.resize(s, 1, 'right', 500);
    expect(model.floatOf(s, 1)).toMatchObject({ x: 100, w: 60 });
  });
});

describe('viewport', () => {
  it('stores the window’s size clamped, and publishes only a real change', () => {
    const s = three();
    expect(names(model.setViewport(s, { cols: 5000, rows: 30, chrome: { cols: 0, rows: 1 } }))).toEqual(['layout/changed']);
    expect(s.viewport).toEqual({ cols: 1000, rows: 30, chrome: { cols: 0, rows: 1 } });
    expect(model.setViewport(s, { cols: 1000, rows: 30 })).toEqual([]);
  });
});

describe('open and restore', () => {
  it('gives a new session’s first pane the whole view and the focus, and announces the session', () => {
    const s = session();
    expect(names(model.open(s, 7))).toEqual(['session/created', 'layout/changed', 'focus/changed']);
    expect([s.layout, s.focused]).toEqual([leaf(7), 7]);
    expect(() => model.open(s, 8)).toThrow(/already has panes/);
  });

  it('lays a saved arrangement out on new numbers; a pane that did not come back collapses its split', () => {
    const saved = { layout: hsplit(leaf(1), vsplit(leaf(2), leaf(3))), floating: [fl(4)], focused: 2, zoomed: 2 };
    const map = new Map([[1, 11], [3, 13], [4, 14]]);
    const s = session();
    expect(names(model.restore(s, saved, (n) => map.get(n)))).toEqual(['session/created', 'layout/changed', 'focus/changed']);
    expect(s.layout).toEqual(hsplit(leaf(11), leaf(13)));
    expect(s.floating).toMatchObject([{ pane: 14 }]);
    expect([s.focused, s.zoomed]).toEqual([11, null]);
    valid(s);
  });

  it('brings the focus history back on the new numbers, less the panes that did not come back', () => {
    const s = session();
    model.restore(s, { layout: hsplit(leaf(1), vsplit(leaf(2), leaf(3))), floating: [], focused: 1, zoomed: null, recent: [3, 2] }, (n) => (n === 3 ? undefined : n + 10));
    expect([s.focused, s.recent]).toEqual([11, [12]]);
    valid(s);
  });

  it('keeps the saved focus and zoom when their panes came back', () => {
    const s = session();
    model.restore(s, { layout: hsplit(leaf(1), leaf(2)), floating: [], focused: 2, zoomed: 2 }, (n) => n + 10);
    expect([s.focused, s.zoomed]).toEqual([12, 12]);
  });
});

describe('invariants', () => {
  it('names each broken rule', () => {
    expect(model.sessionInvalidity(session({ layout: leaf(1), focused: 2 }))).toMatch(/focus is on 2/);
    expect(model.sessionInvalidity(session({ layout: leaf(1), focused: null }))).toMatch(/focus is on null/);
    expect(model.sessionInvalidity(session({ layout: leaf(1), focused: 1, zoomed: 3 }))).toMatch(/zoom is on 3/);
    expect(model.sessionInvalidity(session({ layout: leaf(1), floating: [fl(1)], focused: 1 }))).toMatch(/both tiled and floating/);
    expect(model.sessionInvalidity(session({ layout: hsplit(leaf(1), leaf(2), 95), focused: 1 }))).toMatch(/ratio 95/);
    expect(model.sessionInvalidity(session({ floating: [fl(1, { w: 0 })], focused: 1 }))).toMatch(/outside the limits/);
    expect(model.sessionInvalidity(session({ layout: hsplit(leaf(1), leaf(2)), focused: 1, recent: [1] }))).toMatch(/focus history 1/);
    expect(model.sessionInvalidity(session({ layout: hsplit(leaf(1), leaf(2)), focused: 1, recent: [5] }))).toMatch(/focus history 5/);
    expect(model.sessionInvalidity(session({ layout: hsplit(leaf(1), leaf(2)), focused: 1, recent: [2, 2] }))).toMatch(/focus history 2,2/);
  });

  it('hold after every operation of a long random walk', () => {
    let seed = 12345;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const s = session();
    model.open(s, 1);
    let next = 2;
    for (let i = 0; i < 2000; i++) {
      const all = model.members(s);
      const pick = all[Math.floor(rnd() * all.length)];
      const r = rnd();
      try {
        if (pick === undefined || (r < 0.25 && all.length < 8)) model.split(s, model.splitAnchor(s), next++, rnd() < 0.5 ? 'horizontal' : 'vertical', rnd() * 120 - 10);
        else if (r < 0.35) model.close(s, pick);
        else if (r < 0.42) model.focusPane(s, pick);
        else if (r < 0.45) model.focusPane(s, model.focusTarget(s, s.focused ?? pick, 'last'));
        else if (r < 0.55) model.zoom(s, pick);
        else if (r < 0.65) model.setFloating(s, pick, 'toggle', { x: Math.floor(rnd() * 2000), w: Math.floor(rnd() * 2000) });
        else if (r < 0.75) model.resize(s, pick, (['left', 'right', 'up', 'down'] as const)[Math.floor(rnd() * 4)]!, Math.ceil(rnd() * 50));
        else if (r < 0.85) model.swap(s, pick, all[Math.floor(rnd() * all.length)]!);
        else if (r < 0.92) model.raise(s, pick);
        else model.setViewport(s, { cols: Math.floor(rnd() * 300), rows: Math.floor(rnd() * 100) });
      } catch (e) {
        expect((e as Error).message).toMatch(/no .* edge|not floating|only tiled|not both tiles|floating; tile it|no pane was focused before/);
      }
      if (model.members(s).length === 0) model.open(s, next++);
      expect(model.sessionInvalidity(s), `after step ${i}`).toBeNull();
    }
  });
});
