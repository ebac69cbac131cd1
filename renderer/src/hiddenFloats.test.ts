import { describe, expect, it } from 'vitest';
import type { Floating, Pane } from '../../kits/protocol/model';
import { hiddenFloatText, newHiddenFloats } from './hiddenFloats';

const pane = (n: number, owner: string, attrs: Record<string, string> = {}): Pane =>
  ({ n, uuid: '00000000-0000-4000-8000-000000000000', host: 'h', session: 's', signature: 'com.pane.terminal', kind: 'terminal', tag: { name: 'sh', user: '' }, vocabulary: [], owner, cwd: '/', launch: null, pid: 1, pgid: 1, state: 'running', exit: null, cols: 80, rows: 24, attrs, createdAt: 0 }) as unknown as Pane;
const float = (n: number, visible: boolean, keptOff?: number): Floating => ({ pane: n, x: 0, y: 0, w: 20, h: 8, z: 1, layer: 'default', visible, ...(keptOff ? { keptOff } : {}) });

describe('newHiddenFloats', () => {
  it('says an agent’s float that opened hidden once; not the person’s, not a shown one, not a minimised tile', () => {
    const seen = new Map<number, boolean>();
    const panes = { 1: pane(1, 'root'), 2: pane(2, 'mallory'), 3: pane(3, 'mallory'), 4: pane(4, 'mallory', { 'hidden.tile': '1' }) };
    const said = newHiddenFloats(seen, [float(1, false), float(2, false), float(3, true), float(4, false)], panes, 'root');
    expect(said.map((h) => h.pane.n)).toEqual([2]);
    expect(newHiddenFloats(seen, [float(1, false), float(2, false), float(3, false), float(4, false)], panes, 'root')).toEqual([]);
  });
  it('waits for a float’s pane to be known, forgets closed floats, and escapes what the agent named', () => {
    const seen = new Map<number, boolean>();
    expect(newHiddenFloats(seen, [float(5, false)], {}, 'root')).toEqual([]);
    const p = pane(5, 'mal\u001b]0;x\u0007lory');
    expect(newHiddenFloats(seen, [float(5, false)], { 5: p }, 'root')).toEqual([{ pane: p, keptOff: null }]);
    expect(newHiddenFloats(seen, [], { 5: p }, 'root')).toEqual([]);
    expect(seen.size).toBe(0);
    expect(hiddenFloatText({ pane: p, keptOff: null })).not.toMatch(/\u001b/);
    expect(hiddenFloatText({ pane: p, keptOff: null })).toMatch(/opened sh hidden: shown, it would cover the pane you are typing in/);
    expect(hiddenFloatText({ pane: p, keptOff: 3 })).not.toMatch(/\u001b/);
  });
  it('says a shown float of an agent’s that the server hid off the person’s pane, each time; not one its owner or the person hid', () => {
    const seen = new Map<number, boolean>();
    const panes = { 2: pane(2, 'mallory'), 3: pane(3, 'mallory') };
    expect(newHiddenFloats(seen, [float(2, true), float(3, true)], panes, 'root')).toEqual([]);
    // The person's focus moved onto pane 1 beneath both: 2 had no room beside it and was hidden by the server; 3 was hidden by mallory.
    const said = newHiddenFloats(seen, [float(2, false, 1), float(3, false)], panes, 'root');
    expect(said).toEqual([{ pane: panes[2], keptOff: 1 }]);
    expect(hiddenFloatText(said[0]!)).toBe("mallory's sh is hidden: it covered pane 1, which you moved to and type in (click to show it)");
    // Unchanged: nothing more. Shown again and hidden again: said again.
    expect(newHiddenFloats(seen, [float(2, false, 1), float(3, false)], panes, 'root')).toEqual([]);
    expect(newHiddenFloats(seen, [float(2, true), float(3, false)], panes, 'root')).toEqual([]);
    expect(newHiddenFloats(seen, [float(2, false, 4), float(3, false)], panes, 'root').map((h) => h.keptOff)).toEqual([4]);
    // The person's own float hidden the same way is not said.
    const mine = { 5: pane(5, 'root') };
    newHiddenFloats(seen, [float(5, true)], mine, 'root');
    expect(newHiddenFloats(seen, [float(5, false, 1)], mine, 'root')).toEqual([]);
  });
});
