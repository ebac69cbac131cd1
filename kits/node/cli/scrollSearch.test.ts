// Searching a pane's history as `pane attach` does: up and down from a place, the same
// row only past it, smartcase, wide characters counted as two columns, no match.
import { Terminal } from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { cellsText, cellText, findMatch, textBetween, wordAt } from './scrollSearch';

async function termWith(lines: string[], cols = 30): Promise<Terminal> {
  const t = new Terminal({ cols, rows: 4, scrollback: 100, allowProposedApi: true });
  await new Promise<void>((r) => t.write(lines.join('\r\n'), r));
  return t;
}

describe('scroll search', () => {
  it('finds text up and down from a place, past it on its own row', async () => {
    const t = await termWith(['error one', 'fine', 'an error two error', 'fine', 'last']);
    const b = t.buffer.active;
    const cell = b.getNullCell();
    // Up from the bottom: the later error of row 2 first, then the earlier one, then row 0's.
    const a = findMatch(b, cell, { row: 4, col: Infinity }, -1, 'error')!;
    expect(a).toEqual({ row: 2, col: 13, endRow: 2, endCol: 17, text: 'error' });
    const c = findMatch(b, cell, a, -1, 'error')!;
    expect([c.row, c.col]).toEqual([2, 3]);
    const d = findMatch(b, cell, c, -1, 'error')!;
    expect([d.row, d.col]).toEqual([0, 0]);
    expect(findMatch(b, cell, d, -1, 'error')).toBeUndefined();
    // Down again from the first.
    const e = findMatch(b, cell, d, 1, 'error')!;
    expect([e.row, e.col]).toEqual([2, 3]);
    expect(findMatch(b, cell, { row: 0, col: -1 }, 1, 'nothing like it')).toBeUndefined();
    expect(findMatch(b, cell, { row: 0, col: -1 }, 1, '')).toBeUndefined();
  });

  it('ignores case for lowercase text, and keeps it for text with a capital', async () => {
    const t = await termWith(['Build FAILED', 'build failed']);
    const b = t.buffer.active;
    const cell = b.getNullCell();
    expect(findMatch(b, cell, { row: 0, col: -1 }, 1, 'failed')!.row).toBe(0);
    expect(findMatch(b, cell, { row: 0, col: -1 }, 1, 'failed')!.text).toBe('FAILED');
    expect(findMatch(b, cell, { row: 0, col: -1 }, 1, 'FAILED')!.row).toBe(0);
    expect(findMatch(b, cell, { row: 0, col: 0 }, 1, 'failed')).toMatchObject({ row: 0, col: 6 });
    expect(findMatch(b, cell, { row: 0, col: 6 }, 1, 'failed')).toMatchObject({ row: 1, col: 6 });
    expect(findMatch(b, cell, { row: 0, col: 6 }, 1, 'FAILED')).toBeUndefined();
  });

  it('finds text that runs over a wrapped row’s end, as the row it starts in', async () => {
    const t = await termWith([`${'x'.repeat(25)}src/main.ts:42 failed`, 'after']);
    const b = t.buffer.active;
    const cell = b.getNullCell();
    const up = findMatch(b, cell, { row: 3, col: Infinity }, -1, 'main.ts:42')!;
    expect(up).toEqual({ row: 0, col: 29, endRow: 1, endCol: 8, text: 'main.ts:42' });
    expect(findMatch(b, cell, { row: 0, col: -1 }, 1, 'main.ts')).toMatchObject({ row: 0, col: 29, endRow: 1 });
    // A match wholly in the continuing row is that row's.
    expect(findMatch(b, cell, { row: 0, col: -1 }, 1, 'failed')).toMatchObject({ row: 1, col: 10, endRow: 1 });
  });

  it('counts a wide character as the two columns it takes', async () => {
    const t = await termWith(['日本 ok 日本語']);
    const b = t.buffer.active;
    const cell = b.getNullCell();
    const line = cellText(b.getLine(0)!, cell);
    expect(line.text.startsWith('日本 ok 日本語')).toBe(true);
    expect(findMatch(b, cell, { row: 0, col: -1 }, 1, 'ok')).toEqual({ row: 0, col: 5, endRow: 0, endCol: 6, text: 'ok' });
    expect(findMatch(b, cell, { row: 0, col: 0 }, 1, '日本語')).toEqual({ row: 0, col: 8, endRow: 0, endCol: 13, text: '日本語' });
  });
});

describe('selection text', () => {
  it('copies from one cell to another, either order, blanks cut, wrapped rows joined', async () => {
    const t = await termWith(['first row   ', 'second row', 'x'.repeat(45), 'last']);
    const b = t.buffer.active;
    const cell = b.getNullCell();
    expect(textBetween(b, cell, { row: 0, col: 6 }, { row: 1, col: 5 }, 1000)).toEqual({ text: 'row\nsecond', cut: false });
    expect(textBetween(b, cell, { row: 1, col: 5 }, { row: 0, col: 6 }, 1000).text).toBe('row\nsecond');
    // Row 2 wrapped onto row 3 (45 x in 30 columns): one line, no newline between.
    expect(textBetween(b, cell, { row: 2, col: 25 }, { row: 3, col: 2 }, 1000).text).toBe('xxxxxxxx');
    expect(textBetween(b, cell, { row: 0, col: 0 }, { row: 4, col: 3 }, 10)).toEqual({ text: 'first row\n', cut: true });
  });

  it('draws columns of a row as text, a wide character cut by an edge as spaces', async () => {
    const t = await termWith(['a日b本c']);
    const b = t.buffer.active;
    const row = cellText(b.getLine(0)!, b.getNullCell());
    expect(cellsText(row, 0, 7)).toBe('a日b本c');
    expect(cellsText(row, 2, 5)).toBe(' b ');
    expect(cellsText(row, 1, 3)).toBe('日');
    expect(cellsText(row, 6, 10)).toBe('c   ');
  });
});

describe('a double click’s word', () => {
  it('spans the cells up to blanks, brackets and quotes, wide characters whole', async () => {
    const t = await termWith(['cd (src/main.ts) "日本語" x']);
    const b = t.buffer.active;
    const row = cellText(b.getLine(0)!, b.getNullCell());
    expect(wordAt(row, 6)).toEqual({ from: 4, to: 15 }); // src/main.ts
    expect(wordAt(row, 0)).toEqual({ from: 0, to: 2 }); // cd
    expect(wordAt(row, 3)).toEqual({ from: 3, to: 4 }); // the bracket itself
    expect(wordAt(row, 20)).toEqual({ from: 18, to: 24 }); // 日本語, its second half clicked
    expect(wordAt(row, 40)).toEqual({ from: 40, to: 41 }); // past the text: blank cells are separators
  });
});
