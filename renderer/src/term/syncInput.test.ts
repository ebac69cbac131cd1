import { describe, expect, it } from 'vitest';
import { forSyncedPane, syncTargets } from './syncInput';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

describe('synced typing', () => {
  it('takes the paste markers off for a pane whose program did not ask for them, and keeps everything else', () => {
    const paste = enc('\x1b[200~ls -l\nmake\x1b[201~');
    expect(dec(forSyncedPane(paste, false))).toBe('ls -l\nmake');
    expect(dec(forSyncedPane(paste, true))).toBe('\x1b[200~ls -l\nmake\x1b[201~');
    for (const s of ['echo hi\r', '\x1b[200~', '\x1b[A', '\x1b[200~unended']) expect(dec(forSyncedPane(enc(s), false))).toBe(s);
  });

  it('copies to the session’s running terminal and remote panes on screen, never agents, hidden or ended ones, nor while off', () => {
    const pane = (n: number, kind: string, state = 'running') => ({ n, kind, state, session: 's' });
    const st = {
      synced: { s: true as const },
      sessions: {
        s: {
          layout: { type: 'split', direction: 'horizontal', ratio: 50, a: { type: 'leaf', pane: 1 }, b: { type: 'split', direction: 'vertical', ratio: 50, a: { type: 'leaf', pane: 2 }, b: { type: 'split', direction: 'vertical', ratio: 50, a: { type: 'leaf', pane: 3 }, b: { type: 'leaf', pane: 4 } } } },
          floating: [{ pane: 5, visible: true }, { pane: 6, visible: false }],
        },
      },
      panes: { 1: pane(1, 'terminal'), 2: pane(2, 'agent'), 3: pane(3, 'terminal', 'exited'), 4: pane(4, 'remote'), 5: pane(5, 'terminal'), 6: pane(6, 'terminal') },
    } as unknown as Parameters<typeof syncTargets>[0];
    expect(syncTargets(st, 1, 's')).toEqual([4, 5]);
    expect(syncTargets(st, 5, 's')).toEqual([1, 4]);
    expect(syncTargets({ ...st, synced: {} }, 1, 's')).toEqual([]);
    expect(syncTargets(st, 1, null)).toEqual([]);
  });
});
