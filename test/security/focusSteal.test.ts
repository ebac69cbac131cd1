// An agent's request never moves the session's own focus: the pane the person's
// window and a following `pane attach` type into. Otherwise an agent could focus its
// own pane, or split one running `cat > FILE`, just before the person types a
// password into their shell, and take the keys. An agent's focus and zoom move a
// context of its own (`agent:NAME`), as a grant's guest's do; the panes it makes and
// the floats it moves take that context's focus, not the session's.
import { describe, expect, it } from 'vitest';
import { personAndAgent } from '../agents/helpers';

describe('an agent and the person’s focus', () => {
  const world = personAndAgent('bob');

  const view = async () => {
    const s = await world.person.call('session/get', {});
    // The person's focus history too (where `pane focus last` and a close go back to): an agent's moves write none of it.
    return { focused: s.focused, zoomed: s.zoomed, recent: s.recent ?? [] };
  };
  const cat = { program: '/bin/cat', args: [] as string[] };

  it('leaves the session’s focus and zoom where the person put them through every request that would move them', async () => {
    const before = await view();
    const mine = before.focused!;
    expect(mine).not.toBeNull();
    expect(before.zoomed).toBeNull();
    // Its own panes, made every way an agent may make one: none takes the person's focus.
    const split = (await world.agent.call('pane/split', { launch: cat })).pane;
    expect(await view(), 'a split').toEqual(before);
    const launched = (await world.agent.call('pane/launch', { pane: split, launch: cat })).pane;
    expect(await view(), 'a launch').toEqual(before);
    const float = (await world.agent.call('float/create', { launch: cat })).pane;
    expect(await view(), 'a float').toEqual(before);
    // Focus, zoom, a float's focus, and its pane floated, tiled, hidden and shown again.
    for (const [what, call] of [
      ['pane/focus', () => world.agent.call('pane/focus', { pane: split })],
      ['pane/focus -d', () => world.agent.call('pane/focus', { pane: split, direction: 'next' })],
      ['pane/focus last', () => world.agent.call('pane/focus', { pane: split, direction: 'last' })],
      ['pane/zoom', () => world.agent.call('pane/zoom', { pane: launched, zoom: true })],
      ['float/focus', () => world.agent.call('float/focus', { pane: float })],
      ['pane/float float', () => world.agent.call('pane/float', { pane: split, mode: 'float' })],
      ['pane/float tile', () => world.agent.call('pane/float', { pane: split, mode: 'tile' })],
      ['pane/hide', () => world.agent.call('pane/hide', { pane: launched, hidden: true })],
      ['pane/hide (show)', () => world.agent.call('pane/hide', { pane: launched, hidden: false })],
      ['pane/exec a word', () => world.agent.call('pane/exec', { pane: split, line: 'zoom' })],
    ] as const) {
      await (call as () => Promise<unknown>)();
      expect(await view(), what).toEqual(before);
    }
    // A line of its own in a shell: its +Errors pane is made, and the person's focus stays.
    const ran = await world.agent.call('pane/exec', { pane: split, line: 'true', fallback: 'shell' });
    expect(ran.output).toMatch(/\+Errors/);
    expect(await view(), 'a shell line').toEqual(before);
    // Its own view did move: it is in context agent:bob, focused on what it last focused.
    const own = await world.agent.call('session/context', {});
    expect(own.context).toBe('agent:bob');
    expect(own.focused).not.toBe(mine);
    // The person's own requests still move the session's focus.
    await world.person.call('pane/focus', { pane: split });
    expect((await view()).focused).toBe(split);
    await world.person.call('pane/focus', { pane: mine });
  });

  it('closing the pane the person focused, an agent does not choose where the person’s keys go next: its own panes beside it are passed over', async () => {
    const mine = (await view()).focused!;
    const a = (await world.agent.call('pane/split', { pane: mine, launch: cat })).pane;
    // The person looks at the agent's pane and types to it.
    await world.person.call('pane/focus', { pane: a });
    // The agent puts a pane of its own first in reading order beside it (a split, then a swap), and closes the focused one.
    const trap = (await world.agent.call('pane/split', { pane: a, launch: cat })).pane;
    await world.agent.call('pane/swap', { pane: a, with: trap });
    expect((await world.person.call('pane/get', { pane: trap })).owner).toBe('bob');
    await world.agent.call('pane/close', { pane: a });
    const now = (await view()).focused!;
    expect(now).not.toBe(trap);
    expect((await world.person.call('pane/get', { pane: now })).owner).not.toBe('bob');
    // The same close by the person goes back to the pane they focused before, the agent's or not.
    const b = (await world.person.call('pane/split', { pane: trap, launch: cat })).pane;
    await world.person.call('pane/focus', { pane: trap });
    await world.person.call('pane/focus', { pane: b });
    await world.person.call('pane/close', { pane: b });
    expect((await view()).focused).toBe(trap);
    await world.person.call('pane/focus', { pane: mine });
  });

  it('refuses an agent a layout preset and a move between sessions: the arrangement of the tiles is the person’s', async () => {
    const layout = (await world.person.call('session/get', {})).layout;
    await expect(world.agent.call('session/layout', { layout: 'tiled' })).rejects.toThrow(/rearranges every tile of the person’s session/);
    await expect(world.agent.call('session/layout', { layout: 'next' })).rejects.toThrow(/rearranges every tile/);
    // Not even its own pane, into a session of its own or the person's.
    const own = (await world.agent.call('pane/split', { launch: cat })).pane;
    await expect(world.agent.call('pane/move', { pane: own, newSession: true })).rejects.toThrow(/moves a pane between the person’s sessions/);
    const mine = (await view()).focused!;
    await expect(world.agent.call('pane/move', { pane: mine, newSession: true, name: 'away' })).rejects.toThrow(/moves a pane between/);
    expect((await world.person.call('session/list', {})).sessions.map((x) => x.name)).not.toContain('away');
    await world.person.call('pane/close', { pane: own });
    expect((await world.person.call('session/get', {})).layout).toEqual(layout);
    expect((await world.person.call('session/layout', { layout: 'tiled' })).layout).toBe('tiled');
  });

  it('refuses an agent the session’s own view and a named context people share, naming why', async () => {
    await expect(world.agent.call('session/context', { context: null })).rejects.toThrow(/an agent follows a context of its own \(agent:bob\); the session's own focus is the person's/);
    await expect(world.agent.call('session/context', { context: 'pairing' })).rejects.toThrow(/an agent follows its own context \(agent:bob\) alone/);
    expect((await world.agent.call('session/context', { context: 'agent:bob' })).context).toBe('agent:bob');
  });
});
