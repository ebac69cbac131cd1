// An agent's float is never drawn over the pane the person types into (decision 060).
// Their keys go to the pane their focus is on; a float of the agent's drawn over it
// could show a prompt, a diff or "tests passed" that is not there while the keys went
// beneath. So a float an agent opens, moves, resizes, shows or raises goes beside the
// person's pane, narrowed to fit, or stays hidden where there is no room (the dock
// lists it); its showing is refused by name then. The person's zoom stays through an
// agent's float. The person's own floats go where they are put.
import { describe, expect, it } from 'vitest';
import type { Rect } from '../../kits/protocol/model';
import { personAndAgent } from '../agents/helpers';
import { until } from '../server/harness';

const overlaps = (a: Rect, b: Rect): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe('an agent’s float and the person’s pane', () => {
  const world = personAndAgent('bob');

  const cat = { program: '/bin/cat', args: [] as string[] };
  /** The session as the person's window draws it: the focused pane's frame, and a pane's. */
  const drawn = async (n: number) => {
    const s = await world.person.call('session/get', {});
    const at = (p: number) => s.placements.find((x) => x.pane === p)!;
    return { focused: s.focused!, zoomed: s.zoomed, mine: at(s.focused!), it: at(n), vp: s.viewport };
  };

  it('opens, moves, resizes and shows its float beside the pane the person types in, never over it', async () => {
    const mine = (await world.person.call('session/get', {})).focused!;
    // The person's pane fills the view: no room beside it, so the agent's float opens hidden.
    const first = await world.agent.call('float/create', { launch: cat });
    expect(first.rect.visible).toBe(false);
    let d = await drawn(first.pane);
    expect(d.focused).toBe(mine);
    expect(d.it.shown).toBe(false);
    // Shown by the agent now: refused, naming the person's pane.
    await expect(world.agent.call('float/visible', { pane: first.pane, visible: true })).rejects.toThrow(new RegExp(`would cover pane ${mine}, the pane the person is typing in`));
    await expect(world.agent.call('pane/hide', { pane: first.pane, hidden: false })).rejects.toThrow(/the person is typing in/);
    // The person makes room (a split of their own, focus back on theirs): the agent's next float goes beside it.
    const other = (await world.person.call('pane/split', { pane: mine, direction: 'vertical', launch: cat })).pane;
    await world.person.call('pane/focus', { pane: mine });
    const second = await world.agent.call('float/create', { launch: cat, x: 0, y: 0, w: 200, h: 200 });
    d = await drawn(second.pane);
    expect(d.it.shown).toBe(true);
    expect(overlaps(d.it, d.mine), JSON.stringify(d)).toBe(false);
    // Moved onto it, resized over it, raised, floated from a tile: each lands beside it.
    for (const [what, call] of [
      ['float/move', () => world.agent.call('float/move', { pane: second.pane, x: d.mine.x + 1, y: d.mine.y + 1 })],
      ['float/resize', () => world.agent.call('float/resize', { pane: second.pane, w: d.vp.cols, h: d.vp.rows })],
      ['float/raise', () => world.agent.call('float/raise', { pane: second.pane })],
    ] as const) {
      await (call as () => Promise<unknown>)();
      const now = await drawn(second.pane);
      expect(now.focused, what).toBe(mine);
      expect(now.it.shown, what).toBe(true);
      expect(overlaps(now.it, now.mine), `${what}: ${JSON.stringify(now)}`).toBe(false);
    }
    const tile = (await world.agent.call('pane/split', { pane: other, launch: cat })).pane;
    await world.agent.call('pane/float', { pane: tile, mode: 'float', x: 0, y: 0 });
    const floated = await drawn(tile);
    expect(floated.it.shown && overlaps(floated.it, floated.mine), JSON.stringify(floated)).toBe(false);
    // The first float shown now that there is room: beside the person's pane too.
    await world.agent.call('float/visible', { pane: first.pane, visible: true });
    const shownNow = await drawn(first.pane);
    expect(shownNow.it.shown).toBe(true);
    expect(overlaps(shownNow.it, shownNow.mine)).toBe(false);
    // The person's own float goes where the person puts it, over their pane too.
    const theirs = await world.person.call('float/create', { launch: cat, x: d.mine.x, y: d.mine.y, w: 20, h: 8 });
    expect(theirs.rect).toMatchObject({ x: d.mine.x, y: d.mine.y, visible: true });
    for (const n of [first.pane, second.pane, tile, theirs.pane, other]) await world.person.call('pane/close', { pane: n });
  });

  it('puts a pane away without giving it the keys: hiding a tile leaves the focus where it was, hiding the focused one moves it to a pane on view', async () => {
    const mine = (await world.person.call('session/get', {})).focused!;
    const other = (await world.person.call('pane/split', { pane: mine, direction: 'vertical', launch: cat })).pane;
    await world.person.call('pane/focus', { pane: mine });
    await world.person.call('pane/hide', { pane: other, hidden: true });
    expect((await world.person.call('session/get', {})).focused).toBe(mine);
    await world.person.call('pane/hide', { pane: other, hidden: false });
    expect((await world.person.call('session/get', {})).focused).toBe(other);
    await world.person.call('pane/hide', { pane: other, hidden: true });
    expect((await world.person.call('session/get', {})).focused).toBe(mine);
    // A float hidden while it had the focus gives it back too.
    const f = (await world.person.call('float/create', { launch: cat })).pane;
    expect((await world.person.call('session/get', {})).focused).toBe(f);
    await world.person.call('float/visible', { pane: f, visible: false });
    expect((await world.person.call('session/get', {})).focused).toBe(mine);
    for (const n of [other, f]) await world.person.call('pane/close', { pane: n });
  });

  it('leaves the person’s zoom on through an agent’s float', async () => {
    const mine = (await world.person.call('session/get', {})).focused!;
    await world.person.call('pane/zoom', { pane: mine, zoom: true });
    const f = await world.agent.call('float/create', { launch: cat });
    const d = await drawn(f.pane);
    expect(d.zoomed).toBe(mine);
    expect(d.focused).toBe(mine);
    expect(d.it.shown).toBe(false);
    // The zoom ended: the float, drawn again, is not over the pane the person types in (here it fills the view: hidden).
    await world.person.call('pane/zoom', { pane: mine, zoom: false });
    const after = await drawn(f.pane);
    expect(after.focused).toBe(mine);
    expect(after.it.shown && overlaps(after.it, after.mine), JSON.stringify(after)).toBe(false);
    // Hidden by the server, the float says which pane it was kept off (the window tells the person why it went); shown by the person, no more.
    const floatOf = async () => (await world.person.call('session/get', {})).floating.find((x) => x.pane === f.pane)!;
    expect(await floatOf()).toMatchObject({ visible: false, keptOff: mine });
    await world.person.call('float/visible', { pane: f.pane, visible: true });
    const shownAgain = await floatOf();
    expect(shownAgain.visible).toBe(true);
    expect(shownAgain.keptOff).toBeUndefined();
    await world.person.call('pane/close', { pane: f.pane });
  });

  it('moves an agent’s float off a pane the person’s focus moves to, and leaves the person’s own floats', async () => {
    const mine = (await world.person.call('session/get', {})).focused!;
    const other = (await world.person.call('pane/split', { pane: mine, direction: 'vertical', launch: cat })).pane;
    await world.person.call('pane/focus', { pane: mine });
    // The agent's float beside the person's pane, which is over the other tile; and one of the person's own there too.
    const f = await world.agent.call('float/create', { launch: cat });
    let d = await drawn(f.pane);
    const there = (await drawn(other)).it;
    expect(d.it.shown).toBe(true);
    expect(overlaps(d.it, there), JSON.stringify({ d, there })).toBe(true);
    // A second float of the agent's, put over the other tile too.
    const g = await world.agent.call('float/create', { launch: cat });
    await world.agent.call('float/move', { pane: g.pane, x: there.x + 1, y: there.y + 1 });
    expect(overlaps((await drawn(g.pane)).it, there)).toBe(true);
    const theirs = await world.person.call('float/create', { launch: cat, x: there.x, y: there.y, w: 20, h: 6 });
    await world.person.call('pane/focus', { pane: mine });
    // A window of the person's, listening: what it hears when their focus moves.
    const window = await world.h.connect();
    const heard: string[] = [];
    window.onEvent((event, _rev, data) => {
      if (event === 'layout/changed' || event === 'focus/changed') heard.push(event === 'focus/changed' ? `focus ${(data as { focused: number }).focused}` : 'layout');
    });
    await window.call('events/subscribe', {});
    // The person's keys go to the other tile now: both of the agent's floats move off it (or hide), in the same publish as the focus.
    await world.person.call('pane/focus', { pane: other });
    for (const n of [f.pane, g.pane]) {
      d = await drawn(n);
      expect(d.focused).toBe(other);
      expect(d.it.shown && overlaps(d.it, d.mine), JSON.stringify(d)).toBe(false);
    }
    const own = await drawn(theirs.pane);
    expect(own.it).toMatchObject({ x: there.x, y: there.y });
    // One layout for both floats, before the focus that needed it: no frame draws either over the person's pane.
    await until(`the focus event for pane ${other}`, () => heard.includes(`focus ${other}`), 5_000);
    expect(heard).toEqual(['layout', `focus ${other}`]);
    window.close();
    for (const n of [f.pane, g.pane, theirs.pane, other]) await world.person.call('pane/close', { pane: n });
  });
});
