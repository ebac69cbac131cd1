// Copy mode's cursor moves, searches and selects over a buffer as tmux's does.
import { describe, expect, it } from 'vitest';
import { CopyCursor, type Lines } from './copyCursor';

const buf = (rows: string[], cols = 20, page = 3): Lines => ({ length: rows.length, cols, rows: page, text: (y) => rows[y] ?? '' });
const text = ['$ echo alpha', 'alpha', '$ ls', 'one two three', '$ echo Alpha beta', 'Alpha beta', '$ ', '', ''];

describe('CopyCursor', () => {
  it('moves by cell and line within the buffer, and by pages', () => {
    const c = new CopyCursor(buf(text), { x: 2, y: 6 });
    c.move(-5, 0);
    expect(c.cursor).toEqual({ x: 0, y: 6 });
    c.page(-1);
    expect(c.cursor.y).toBe(3);
    c.move(0, 100);
    expect(c.cursor.y).toBe(8);
  });

  it('keeps up and down within the text of the line reached, and gives the column back on a longer line', () => {
    const c = new CopyCursor(buf(['a long line here', 'ab', '', 'another long line']), { x: 10, y: 0 });
    const walk = (dy: number) => (c.move(0, dy), { ...c.cursor });
    expect([walk(1), walk(1), walk(1)]).toEqual([{ x: 1, y: 1 }, { x: 0, y: 2 }, { x: 10, y: 3 }]);
    // $ keeps to the end of each line; h sets the column again.
    c.lineEnd();
    expect([walk(-2), walk(-1)]).toEqual([{ x: 1, y: 1 }, { x: 15, y: 0 }]);
    c.move(-3, 0);
    expect([walk(3)]).toEqual([{ x: 12, y: 3 }]);
  });

  it('goes to the top (g) and to the last line with text (G)', () => {
    const c = new CopyCursor(buf(text), { x: 3, y: 3 });
    c.top();
    expect(c.cursor).toEqual({ x: 0, y: 0 });
    c.bottom();
    expect(c.cursor).toEqual({ x: 0, y: 6 });
  });

  it('moves by words across lines', () => {
    const c = new CopyCursor(buf(text), { x: 0, y: 3 });
    c.word(1);
    expect(c.cursor).toEqual({ x: 4, y: 3 });
    c.word(1);
    c.word(1);
    expect(c.cursor).toEqual({ x: 2, y: 4 });
    c.word(-1);
    expect(c.cursor).toEqual({ x: 8, y: 3 });
  });

  it('searches forward and backward with wrap-around, smartcase', () => {
    const c = new CopyCursor(buf(text), { x: 0, y: 6 });
    expect(c.search('alpha', -1)).toEqual({ x: 0, y: 5 });
    expect(c.search('alpha', -1)).toEqual({ x: 7, y: 4 });
    expect(c.search('alpha', -1)).toEqual({ x: 0, y: 1 });
    expect(c.search('Alpha', 1)).toEqual({ x: 7, y: 4 });
    expect(c.search('Alpha', 1)).toEqual({ x: 0, y: 5 });
    expect(c.search('Alpha', 1)).toEqual({ x: 7, y: 4 });
    expect(c.search('nowhere', 1)).toBeNull();
  });

  it('selects from the anchor to the cursor in either direction, as xterm select() wants', () => {
    const c = new CopyCursor(buf(text), { x: 4, y: 3 });
    expect(c.selection()).toBeNull();
    c.toggleVisual();
    c.move(2, 0);
    expect(c.selection()).toEqual({ column: 4, row: 3, length: 3 });
    c.move(0, -1); // onto "$ ls": its last character, column 3
    c.move(-1, 0);
    expect(c.selection()).toEqual({ column: 2, row: 2, length: 20 + 3 });
    c.toggleVisual();
    expect(c.selection()).toBeNull();
  });

  it('goes to the end of a word (e) and by WORDs (W B E), a path whole, across lines', () => {
    const rows = ['error in /src/app.ts:12 now', '  next-line here'];
    const c = new CopyCursor(buf(rows, 30), { x: 0, y: 0 });
    c.wordEnd();
    expect(c.cursor).toEqual({ x: 4, y: 0 }); // error
    c.wordEnd();
    expect(c.cursor).toEqual({ x: 7, y: 0 }); // in
    c.wordEnd();
    expect(c.cursor).toEqual({ x: 12, y: 0 }); // src: words stop at punctuation
    c.word(1, true);
    expect(c.cursor).toEqual({ x: 24, y: 0 }); // now: the path was one WORD
    c.word(-1, true);
    expect(c.cursor).toEqual({ x: 9, y: 0 });
    c.wordEnd(true);
    expect(c.cursor).toEqual({ x: 22, y: 0 }); // the path's last character
    c.wordEnd(true);
    c.wordEnd(true);
    expect(c.cursor).toEqual({ x: 10, y: 1 }); // next-line, on the next line
    // At the buffer's end e stays where it is.
    c.wordEnd(true);
    c.wordEnd(true);
    expect(c.cursor).toEqual({ x: 15, y: 1 });
  });

  it('goes to a line\'s first non-blank (^) and to a line of the screen (H M L)', () => {
    const c = new CopyCursor(buf(['  indented', 'x', '', '    four'], 20), { x: 8, y: 0 });
    c.lineFirst();
    expect(c.cursor).toEqual({ x: 2, y: 0 });
    c.toLine(3);
    expect(c.cursor).toEqual({ x: 4, y: 3 });
    c.toLine(2);
    expect(c.cursor).toEqual({ x: 0, y: 2 });
    c.toLine(99);
    expect(c.cursor.y).toBe(3);
  });

  it('selects whole lines with V, in either direction, and v and V switch the kind', () => {
    const c = new CopyCursor(buf(text), { x: 4, y: 3 });
    c.toggleVisual(true);
    expect(c.lineWise).toBe(true);
    expect(c.selection()).toEqual({ column: 0, row: 3, length: 20 });
    c.move(0, -2);
    expect(c.selection()).toEqual({ column: 0, row: 1, length: 3 * 20 });
    // v while lines are selected: the same anchor, character-wise.
    c.toggleVisual(false);
    expect(c.selection()).toEqual({ column: 4, row: 1, length: 2 * 20 + 1 });
    c.toggleVisual(false);
    expect(c.selection()).toBeNull();
  });
});
