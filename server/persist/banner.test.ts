// The banner a resurrected pane starts with: after a saved screen whose program had set a
// scroll region, the mouse, application keys, a hidden cursor, LNM and tab stops of its
// own, the new program starts on a terminal with none of them, its cursor below the
// history (not homed by the reset).
import * as headless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { bannerText } from './banner';

const xterm = (headless as unknown as { default?: typeof headless }).default ?? headless;

describe('bannerText', () => {
  it('turns off what the old program left on, keeping the cursor under its history', async () => {
    const t = new xterm.Terminal({ cols: 40, rows: 10, allowProposedApi: true });
    const write = (s: string) => new Promise<void>((r) => t.write(s, r));
    await write('\x1b[1;8r\x1b[?6h\x1b[?1002h\x1b[?1006h\x1b[?1h\x1b[?2004h\x1b[?25l\x1b[20h\x1b[3g\x1b[1;3H\x1bH\x1b[5;1Hold-output\x1b(0');
    await write(bannerText({ history: 0, notices: [], waitingFor: null, cols: 40 }));
    const core = (t as unknown as { _core: { buffer: { scrollTop: number; scrollBottom: number } } })._core;
    expect({ top: core.buffer.scrollTop, bottom: core.buffer.scrollBottom }).toEqual({ top: 0, bottom: 9 });
    expect(t.modes).toMatchObject({ originMode: false, mouseTrackingMode: 'none', applicationCursorKeysMode: false, bracketedPasteMode: false });
    // The label follows the old output, not the top row.
    const rows = [...Array(10).keys()].map((y) => t.buffer.active.getLine(y)!.translateToString(true));
    expect(rows[4]).toBe('old-output');
    expect(rows[5]).toMatch(/^── history saved /);
    // Line drawing is off: the new program's q is a q.
    await write('q');
    expect(t.buffer.active.getLine(t.buffer.active.cursorY)!.translateToString(true)).toBe('q');
    // Tabs stop every 8 columns again, and a line feed no longer returns the carriage (LNM off).
    await write('\tt\nn');
    expect(t.buffer.active.getLine(t.buffer.active.cursorY - 1)!.translateToString(true)).toBe('q       t');
    expect(t.buffer.active.getLine(t.buffer.active.cursorY)!.translateToString(true)).toBe('         n');
  });
});
