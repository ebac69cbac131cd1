// Finding text in a pane's history, as `pane attach` does while scrolled back (`?` up,
// `/` down, `n` and `N` again): row by row through xterm's buffer, by the cells' text,
// so a match's place is a row and the columns it covers, wide characters counted as the
// two columns they take. Literal text, not a pattern; case-insensitive unless it holds a
// capital (vim's smartcase). A match across a wrapped row's end is not found.
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

/** Where a search found its text: the buffer's row (scrollback and screen counted from the top), the first column, how many columns, and the text as it is there. */
export interface Match {
  row: number;
  col: number;
  cols: number;
  text: string;
}

/**
 * The first place after (dir 1) or before (dir -1) row `from.row`, column `from.col`
 * that holds `needle`, in the buffer's rows; undefined when there is none that way.
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
    // Lowercasing keeps a string's length for all but a few letters (İ): where it does not, the row is searched as it is.
    const lower = exact ? t.text : t.text.toLowerCase();
    const hay = lower.length === t.text.length ? lower : t.text;
    let at: number;
    if (row === from.row) {
      // The same row: only past the column the search starts from.
      const unit = dir > 0 ? t.starts.findIndex((c) => c > from.col) : lastUnitBefore(t.starts, from.col);
      if (unit === -1) continue;
      at = dir > 0 ? hay.indexOf(want, unit) : hay.lastIndexOf(want, unit);
    } else at = dir > 0 ? hay.indexOf(want) : hay.lastIndexOf(want);
    if (at === -1) continue;
    const end = at + want.length - 1;
    return { row, col: t.starts[at]!, cols: t.ends[end]! - t.starts[at]!, text: t.text.slice(at, end + 1) };
  }
  return undefined;
}

/** The last UTF-16 unit whose character starts before column `col` (-1: none). */
function lastUnitBefore(starts: number[], col: number): number {
  for (let i = starts.length - 1; i >= 0; i--) if (starts[i]! < col) return i;
  return -1;
}
