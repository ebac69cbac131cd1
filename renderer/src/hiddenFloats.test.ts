import { describe, expect, it } from 'vitest';
import type { Floating, Pane } from '../../kits/protocol/model';
import { hiddenFloatText, newHiddenFloats } from './hiddenFloats';

const pane = (n: number, owner: string, attrs: Record<string, string> = {}): Pane =>
  ({ n, uuid: '00000000-0000-4000-8000-000000000000', host: 'h', session: 's', signature: 'com.pane.terminal', kind: 'terminal', tag: { name: 'sh', user: '' }, vocabulary: [], owner, cwd: '/', launch: null, pid: 1, pgid: 1, state: 'running', exit: null, cols: 80, rows: 24, attrs, createdAt: 0 }) as unknown as Pane;
const float = (n: number, visible: boolean): Floating => ({ pane: n, x: 0, y: 0, w: 20, h: 8, z: 1, layer: 'default', visible });

describe('newHiddenFloats', () => {
  it('says an agent’s float that opened hidden once; not the person’s, not a shown one, not a minimised tile', () => {
    const seen = new Set<number>();
    const panes = { 1: pane(1, 'root'), 2: pane(2, 'mallory'), 3: pane(3, 'mallory'), 4: pane(4, 'mallory', { 'hidden.tile': '1' }) };
    const said = newHiddenFloats(seen, [float(1, false), float(2, false), float(3, true), float(4, false)], panes, 'root');
    expect(said.map((p) => p.n)).toEqual([2]);
    expect(newHiddenFloats(seen, [float(1, false), float(2, false), float(3, false), float(4, false)], panes, 'root')).toEqual([]);
  });
  it('waits for a float’s pane to be known, forgets closed floats, and escapes what the agent named', () => {
    const seen = new Set<number>();
    expect(newHiddenFloats(seen, [float(5, false)], {}, 'root')).toEqual([]);
    const p = pane(5, 'mal\u001b]0;x\u0007lory');
    expect(newHiddenFloats(seen, [float(5, false)], { 5: p }, 'root')).toEqual([p]);
    expect(newHiddenFloats(seen, [], { 5: p }, 'root')).toEqual([]);
    expect(seen.size).toBe(0);
    expect(hiddenFloatText(p)).not.toMatch(/\u001b/);
    expect(hiddenFloatText(p)).toMatch(/opened sh hidden: shown, it would cover the pane you are typing in/);
  });
});
