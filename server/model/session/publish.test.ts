// publish sends a session operation's events in order, and where the person's focus
// moved, a float of someone else's that now covers their pane is moved off it first,
// in a layout/changed that goes out before the focus event (decision 060). The
// server here records what publish asks of it: the two calls it makes.
import { describe, expect, it } from 'vitest';
import type { Floating, LayoutNode, Session } from '../../../kits/protocol/model';
import type { PaneServer } from '../../paneServer';
import { focusEvent, layoutEvent, type SessionEvent } from './changes';
import { publish } from './publish';

const leaf = (pane: number): LayoutNode => ({ type: 'leaf', pane });
/** [1 | 2] on an 80×24 view, focus on 1; pane 3 the agent's float over 2, pane 4 the person's over 2 too. */
function world(): { s: Session; server: PaneServer; heard: string[] } {
  const fl = (pane: number, x: number): Floating => ({ pane, x, y: 2, w: 30, h: 10, z: pane, layer: 'default', visible: true });
  const s: Session = {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'main',
    host: 'here',
    layout: { type: 'split', direction: 'horizontal', ratio: 50, a: leaf(1), b: leaf(2) },
    floating: [fl(3, 45), fl(4, 42)],
    focused: 1,
    zoomed: null,
    viewport: { cols: 80, rows: 24 },
    placements: [],
    createdAt: 0,
  };
  const owners: Record<number, string> = { 1: 'ada', 2: 'ada', 3: 'bob', 4: 'ada' };
  const heard: string[] = [];
  const tell = (event: string, data: unknown) => {
    if (event === 'layout/changed') {
      const at = (data as Session).floating.map((f) => `${f.pane}:${f.visible ? `${f.x},${f.y},${f.w}` : 'hidden'}`).join(' ');
      heard.push(`layout ${at}`);
    } else heard.push(`${event} ${(data as { focused?: number }).focused ?? ''}`.trim());
  };
  const server = {
    user: 'ada',
    sessions: new Map([[s.id, s]]),
    panes: new Map(Object.entries(owners).map(([n, owner]) => [Number(n), { owner }])),
    layoutChanged: (x: Session) => tell('layout/changed', x),
    publish: tell,
  } as unknown as PaneServer;
  return { s, server, heard };
}

const overTwo = (line: string | undefined) => / 3:(4[0-9]|[5-7][0-9]),/.test(line ?? '');

describe('publish', () => {
  it('moves an agent’s float off the pane the person’s focus moved to, in one layout before the focus event; the person’s own float stays', () => {
    const { s, server, heard } = world();
    s.focused = 2;
    publish(server, [focusEvent(s)]);
    expect(heard).toHaveLength(2);
    expect(heard[1]).toBe('focus/changed 2');
    expect(heard[0]).toMatch(/^layout /);
    expect(overTwo(heard[0]), heard[0]).toBe(false);
    expect(heard[0]).toContain('4:42,2,30');
  });

  it('sends the correction before the focus event even when the operation’s own layout comes after it', () => {
    const { s, server, heard } = world();
    s.focused = 2;
    const ops: SessionEvent[] = [focusEvent(s), layoutEvent(s)];
    publish(server, ops);
    expect(heard.map((h) => h.split(' ')[0])).toEqual(['layout', 'focus/changed', 'layout']);
    expect(overTwo(heard[0]), heard[0]).toBe(false);
  });

  it('adds nothing where the operation’s own layout already goes out before its focus event', () => {
    const { s, server, heard } = world();
    s.focused = 2;
    publish(server, [layoutEvent(s), focusEvent(s)]);
    expect(heard.map((h) => h.split(' ')[0])).toEqual(['layout', 'focus/changed']);
    expect(overTwo(heard[0]), heard[0]).toBe(false);
  });

  it('leaves the floats alone when the focus moved where none covers it', () => {
    const { s, server, heard } = world();
    s.focused = 1;
    publish(server, [focusEvent(s)]);
    expect(heard).toEqual(['focus/changed 1']);
  });
});
