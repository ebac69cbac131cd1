// The attach client's drawing: rows from cells, with their colours; wide characters
// kept whole or blanked at a cut; a bidi override drawn as '?'; which part of a
// larger pane a small terminal shows; the status row fitted to the width.
import { Terminal } from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { rowCells, rowText, sameCells, sgrOf, statusRow, viewOf } from './termDraw';

async function termWith(text: string, cols = 20): Promise<Terminal> {
  const t = new Terminal({ cols, rows: 4, allowProposedApi: true });
  await new Promise<void>((r) => t.write(text, r));
  return t;
}

/** What a row draws as, read back through a second terminal. */
async function redrawn(s: string, cols = 20): Promise<{ text: string; t: Terminal }> {
  const t = await termWith(s, cols);
  return { text: t.buffer.active.getLine(0)!.translateToString(true), t };
}

describe('rowText', () => {
  it('draws text with its attributes and colours (16, 256 and true colour), resetting after', async () => {
    const t = await termWith('\x1b[1;31mab\x1b[0m \x1b[38;5;200;48;2;1;2;3mc\x1b[0m\x1b[4;97md');
    const cell = t.buffer.active.getNullCell();
    const row = rowText(t.buffer.active.getLine(0), 0, 6, cell);
    // The blank after d is left off: the caller erases the rest of the row.
    expect(row).toEqual({ text: '\x1b[0;1;31mab\x1b[0m \x1b[0;38;5;200;48;2;1;2;3mc\x1b[0;4;97md\x1b[0m', cells: 5 });
    const back = await redrawn(row.text);
    const c = back.t.buffer.active.getLine(0)!.getCell(3)!;
    expect([back.text, c.getFgColor(), c.getBgColor()]).toEqual(['ab cd', 200, 0x010203]);
    expect(sgrOf(back.t.buffer.active.getLine(0)!.getCell(0)!)).toBe('1;31');
  });

  it('keeps a wide character whole, and draws one cut by either edge as a space, never past the width', async () => {
    const t = await termWith('a界b');
    const cell = t.buffer.active.getNullCell();
    const line = t.buffer.active.getLine(0);
    expect(rowText(line, 0, 4, cell)).toEqual({ text: 'a界b', cells: 4 });
    expect(rowText(line, 0, 2, cell)).toEqual({ text: 'a ', cells: 2 });
    expect(rowText(line, 2, 2, cell)).toEqual({ text: ' b', cells: 2 });
  });

  it('takes a format character that reorders text out of its cell, and stops at the pane’s width', async () => {
    const t = await termWith('x\u202ey', 3);
    const row = rowText(t.buffer.active.getLine(0), 0, 5, t.buffer.active.getNullCell());
    expect(row).toEqual({ text: 'xy', cells: 2 });
  });

  it('keeps a coloured blank at the end (a bar of background colour), and resets after it', async () => {
    const t = await termWith('a\x1b[44m  \x1b[0m', 6);
    expect(rowText(t.buffer.active.getLine(0), 0, 6, t.buffer.active.getNullCell())).toEqual({ text: 'a\x1b[0;44m  \x1b[0m', cells: 3 });
  });
});

describe('viewOf', () => {
  it('shows a pane that fits whole, and of a larger one the bottom-left with the cursor', () => {
    expect(viewOf({ cols: 80, rows: 24 }, { cols: 100, rows: 29 }, { x: 5, y: 23 })).toEqual({ top: 0, left: 0 });
    expect(viewOf({ cols: 120, rows: 40 }, { cols: 80, rows: 20 }, { x: 2, y: 39 })).toEqual({ top: 20, left: 0 });
    // The cursor high up: the top rows, which hold it and what was printed above it; far right: the columns that end at it.
    expect(viewOf({ cols: 120, rows: 40 }, { cols: 80, rows: 20 }, { x: 100, y: 3 })).toEqual({ top: 0, left: 21 });
    expect(viewOf({ cols: 120, rows: 40 }, { cols: 80, rows: 20 }, { x: 0, y: 25 })).toEqual({ top: 6, left: 0 });
  });

  it('stays where it was while the cursor is in sight, so the view does not jump with every line', () => {
    const was = { top: 10, left: 0 };
    expect(viewOf({ cols: 80, rows: 40 }, { cols: 80, rows: 20 }, { x: 0, y: 15 }, was)).toEqual(was);
    expect(viewOf({ cols: 80, rows: 40 }, { cols: 80, rows: 20 }, { x: 0, y: 31 }, was)).toEqual({ top: 12, left: 0 });
  });
});

describe('statusRow', () => {
  it('fills the width in reverse video, and cuts a longer text with an ellipsis', () => {
    expect(statusRow(' pane 3 ', 10)).toBe('\x1b[0;7m pane 3   \x1b[0m');
    expect(statusRow(' pane 3 · a long name ', 10)).toBe('\x1b[0;7m pane 3 ·…\x1b[0m');
  });
});

describe('rowCells', () => {
  it('tells a row unchanged from one whose text, colour or combined character changed', async () => {
    const t = await termWith('ab\r\nxy');
    const copy = (y: number) => {
      const c = rowCells(t.buffer.active.getLine(y))!;
      return { data: c.data.slice(), combined: c.combined };
    };
    const was = copy(0);
    const write = (s: string) => new Promise<void>((r) => t.write(s, r));
    await write('\x1b[2;3Hz');
    expect(sameCells(rowCells(t.buffer.active.getLine(0))!, was, 20)).toBe(true);
    await write('\x1b[1;1H\x1b[31ma');
    expect(sameCells(rowCells(t.buffer.active.getLine(0))!, was, 20)).toBe(false);
    const red = copy(0);
    await write('\x1b[1;2He\u0301');
    const accented = copy(0);
    expect(sameCells(accented, red, 20)).toBe(false);
    await write('\x1b[1;2He\u0300');
    expect(sameCells(rowCells(t.buffer.active.getLine(0))!, accented, 20)).toBe(false);
  });
});
