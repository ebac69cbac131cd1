// Finding text in a pane's history, as `pane attach` does while scrolled back (`?` up,
// `/` down, `n` and `N` again): row by row through xterm's buffer, by the cells' text,
// so a match's place is a row and the columns it covers, wide characters counted as the
// two columns they take. Literal text, not a pattern; case-insensitive unless it holds a
// capital (vim's smartcase). A match may run over a wrapped row's end into the row that
// continues it.
import type { IBuffer, IBufferCell, IBufferLine } from '@xterm/headless';
import { hasControls, withoutControls } from '../../protocol/shown';

/** The longest text searched for: a line's worth, and a bound on what each row is compared with. */
export const SEARCH_MAX = 200;

/** A row's text, and for each of its UTF-16 units the column its character starts at and the column after it ends. */
export function cellText(line: IBufferLine, cell: IBufferCell): { text: string; starts: number[]; ends: number[] } {
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (let x = 0; x < line.length; x++) {
    const c = line.getCell(x, cell);
    if (!c) break;
    const w = c.getWidth();
    if (w === 0) continue; // the right half of a wide character
    const raw = c.getChars();
    const chars = raw === '' ? ' ' : hasControls(raw) ? withoutControls(raw) || ' ' : raw;
    for (let i = 0; i < chars.length; i++) {
      starts.push(x);
      ends.push(x + w);
    }
    text += chars;
  }
  return { text, starts, ends };
}

/** Where a search found its text: its first cell and its last (a row further on where it runs over a wrapped row's end), and the text as it is there. */
export interface Match {
  row: number;
  col: number;
  endRow: number;
  endCol: number;
  text: string;
}

/**
 * Rows after a row that a match starting in it may run into, where they continue it
 * (wrapped): a line of a log, a path in a compiler's error, wraps in a narrow pane.
 */
const WRAP_JOIN_MAX = 8;

/**
 * The first place after (dir 1) or before (dir -1) row `from.row`, column `from.col`
 * that holds `needle`, in the buffer's rows; undefined when there is none that way. A
 * match starts in one row and may run on into the rows that continue it.
 * `from.col` may be -1 (from a row's start, going down) or Infinity (from its end, going up).
 */
export function findMatch(buf: IBuffer, cell: IBufferCell, from: { row: number; col: number }, dir: -1 | 1, needle: string): Match | undefined {
  if (needle === '') return undefined;
  const exact = needle !== needle.toLowerCase();
  const want = exact ? needle : needle.toLowerCase();
  for (let row = Math.max(0, Math.min(buf.length - 1, from.row)); row >= 0 && row < buf.length; row += dir) {
    const line = buf.getLine(row);
    if (!line) continue;
    const t = cellText(line, cell);
    // The rows that continue this one, joined on: a match may start here and end there.
    const rows = t.text.length;
    const joined = { text: t.text, starts: [...t.starts], ends: [...t.ends], rowOf: new Array<number>(rows).fill(row) };
    for (let k = 1; k <= WRAP_JOIN_MAX && want.length > 1; k++) {
      const next = buf.getLine(row + k);
      if (!next?.isWrapped) break;
      const n = cellText(next, cell);
      joined.text += n.text;
      joined.starts.push(...n.starts);
      joined.ends.push(...n.ends);
      for (let u = 0; u < n.text.length; u++) joined.rowOf.push(row + k);
    }
    // Lowercasing keeps a string's length for all but a few letters (İ): where it does not, the row is searched as it is.
    const lower = exact ? joined.text : joined.text.toLowerCase();
    const hay = lower.length === joined.text.length ? lower : joined.text;
    let at: number;
    if (row === from.row) {
      // The same row: only past the column the search starts from.
      const unit = dir > 0 ? t.starts.findIndex((c) => c > from.col) : lastUnitBefore(t.starts, from.col);
      if (unit === -1) continue;
      at = dir > 0 ? hay.indexOf(want, unit) : hay.lastIndexOf(want, unit);
    } else at = dir > 0 ? hay.indexOf(want) : hay.lastIndexOf(want, rows - 1);
    // Only a match that starts in this row is this row's (one starting further on is the next row's).
    if (at === -1 || at >= rows) continue;
    const end = at + want.length - 1;
    return { row, col: joined.starts[at]!, endRow: joined.rowOf[end]!, endCol: joined.ends[end]! - 1, text: joined.text.slice(at, end + 1) };
  }
  return undefined;
}

/** The last UTF-16 unit whose character starts before column `col` (-1: none). */
function lastUnitBefore(starts: number[], col: number): number {
  for (let i = starts.length - 1; i >= 0; i--) if (starts[i]! < col) return i;
  return -1;
}

/** A place in the buffer: its row (scrollback and screen counted from the top) and column. */
export interface Cell {
  row: number;
  col: number;
}

/** Two places, the earlier first: a selection dragged up or left runs backwards. */
export function inOrder(a: Cell, b: Cell): [Cell, Cell] {
  return a.row < b.row || (a.row === b.row && a.col <= b.col) ? [a, b] : [b, a];
}

/** The cells of columns [from, to) of a row as plain text, a wide character cut by either edge a space: what a selection draws over the row. */
export function cellsText(t: { text: string; starts: number[]; ends: number[] }, from: number, to: number): string {
  let out = '';
  let x = from;
  for (let i = 0; i < t.text.length && x < to; i++) {
    const s = t.starts[i]!;
    const e = t.ends[i]!;
    if (e <= from || s < x) continue; // before the range, or the rest of a character already out
    if (s > x) out += ' '.repeat(Math.min(s, to) - x); // the left half of a cut wide character
    if (s >= to) break;
    // A character is one or two UTF-16 units with the same start: all of them, or a space where its end is cut.
    let j = i;
    while (j + 1 < t.text.length && t.starts[j + 1] === s) j++;
    if (e > to) out += ' '.repeat(to - s);
    else out += t.text.slice(i, j + 1);
    x = Math.min(e, to);
    i = j;
  }
  return out + ' '.repeat(Math.max(0, to - x));
}

/**
 * The text from one cell to another (inclusive, either order), as a terminal copies a
 * selection: each row's part with its trailing blanks cut, rows joined by a newline
 * unless the next one continues it (wrapped), and at most `max` characters.
 */
export function textBetween(buf: IBuffer, cell: IBufferCell, a: Cell, b: Cell, max: number): { text: string; cut: boolean } {
  const [s, e] = inOrder(a, b);
  let text = '';
  for (let row = s.row; row <= e.row; row++) {
    const line = buf.getLine(row);
    if (!line) continue;
    const t = cellText(line, cell);
    const from = row === s.row ? s.col : 0;
    const to = row === e.row ? e.col + 1 : line.length;
    const part = cellsText(t, from, Math.max(from, to));
    const next = row < e.row ? buf.getLine(row + 1) : undefined;
    text += next?.isWrapped ? part : part.replace(/ +$/, '') + (row < e.row ? '\n' : '');
    if (text.length > max) return { text: [...text].slice(0, max).join(''), cut: true };
  }
  return { text, cut: false };
}

/** What ends a word for a double click, as xterm's default word separators: blanks, brackets and quotes. */
const WORD_SEPARATORS = ' ()[]{}\'"`,;<>|';

/** The columns [from, to) of the word under column `col` of a row (a double click's selection); the one cell itself where it is a separator. */
export function wordAt(t: { text: string; starts: number[]; ends: number[] }, col: number): { from: number; to: number } {
  const at = t.starts.findIndex((s, i) => s <= col && col < t.ends[i]!);
  if (at === -1) return { from: col, to: col + 1 };
  const sep = (i: number) => WORD_SEPARATORS.includes(t.text[i]!);
  if (sep(at)) return { from: t.starts[at]!, to: t.ends[at]! };
  let a = at;
  let b = at;
  while (a > 0 && !sep(a - 1)) a--;
  while (b + 1 < t.text.length && !sep(b + 1)) b++;
  return { from: t.starts[a]!, to: t.ends[b]! };
}
