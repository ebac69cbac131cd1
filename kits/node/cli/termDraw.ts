// Drawing a pane's screen model on the person's own terminal, as tmux draws a window:
// from cells (characters, colours, attributes), never by passing the program's bytes
// through. The program in the pane may be an agent, or print what an agent or a host
// wrote; its escape sequences (OSC 52 to set the clipboard, a title, a query whose
// answer the terminal would type, a file download) reach pane's own model and stop
// there. What leaves here is text, SGR colours and cursor moves, and nothing else.
import type { IBufferCell, IBufferLine } from '@xterm/headless';
import { hasControls, withoutControls } from '../../protocol/shown';

const ESC = '\x1b';

/** The SGR parameters of a cell (attributes, then foreground, then background); "" for the default. */
export function sgrOf(c: IBufferCell): string {
  const p: (string | number)[] = [];
  if (c.isBold()) p.push(1);
  if (c.isDim()) p.push(2);
  if (c.isItalic()) p.push(3);
  if (c.isUnderline()) p.push(4);
  if (c.isBlink()) p.push(5);
  if (c.isInverse()) p.push(7);
  if (c.isInvisible()) p.push(8);
  if (c.isStrikethrough()) p.push(9);
  if (c.isOverline()) p.push(53);
  colour(p, c.isFgRGB(), c.isFgPalette(), c.getFgColor(), 30, 90, 38);
  colour(p, c.isBgRGB(), c.isBgPalette(), c.getBgColor(), 40, 100, 48);
  return p.join(';');
}

function colour(p: (string | number)[], rgb: boolean, palette: boolean, v: number, base: number, bright: number, ext: number): void {
  if (rgb) p.push(`${ext};2;${(v >> 16) & 0xff};${(v >> 8) & 0xff};${v & 0xff}`);
  else if (palette) p.push(v < 8 ? base + v : v < 16 ? bright + v - 8 : `${ext};5;${v}`);
}

/**
 * One row of a pane as the person's terminal draws it: at most `width` cells from
 * column `left`, each with its colours and attributes, ending with the attributes
 * reset; blank cells at its end are left off (`cells` says how many were drawn; the
 * caller erases the rest of the row). A wide character cut by either edge is a space,
 * so the row never runs past `width`. Controls and format characters that reorder
 * text (a bidi override the program printed) are taken out of a cell's text.
 */
export function rowText(line: IBufferLine | undefined, left: number, width: number, cell: IBufferCell, spare: IBufferCell = cell): { text: string; cells: number } {
  const parts: string[] = [];
  let sgr = '';
  /** The previous cell, kept in the other of the two cells: a cell with its attributes works out no SGR of its own. */
  let prev: IBufferCell | undefined;
  let x = left;
  const end = left + width;
  /** Where the row's text ends: after its last cell that is not a blank with no attributes. */
  let keep = 0;
  let kept = 0;
  let keptSgr = '';
  while (x < end) {
    const c = line?.getCell(x, prev === cell ? spare : cell);
    if (!c) break; // past the pane's width
    const w = c.getWidth();
    if (w === 0) {
      // The right half of a wide character whose left half was before `left`.
      parts.push(' ');
      x++;
      continue;
    }
    const s = prev !== undefined && prev !== c && sameAttributes(c, prev) ? sgr : sgrOf(c);
    prev = c;
    if (s !== sgr) {
      parts.push(`${ESC}[0${s === '' ? '' : `;${s}`}m`);
      sgr = s;
    }
    const raw = c.getChars();
    const chars = hasControls(raw) ? withoutControls(raw) : raw;
    if (w === 2 && x + 1 >= end) {
      parts.push(' ');
      x++;
    } else {
      parts.push(chars === '' ? ' ' : chars);
      x += w;
    }
    if (chars !== '' || s !== '') {
      keep = parts.length;
      kept = x - left;
      keptSgr = sgr;
    }
  }
  const text = parts.slice(0, keep).join('');
  return { text: keptSgr === '' ? text : `${text}${ESC}[0m`, cells: kept };
}

/**
 * Whether two cells have the same colours and attributes: xterm keeps both in a cell's
 * `fg` and `bg` numbers (colour, mode and flag bits; 6.0.0's private fields). Where they
 * are not numbers (another version), never: each cell then works out its own SGR.
 */
function sameAttributes(a: IBufferCell, b: IBufferCell): boolean {
  const x = a as unknown as { fg?: unknown; bg?: unknown };
  const y = b as unknown as { fg?: unknown; bg?: unknown };
  return typeof x.fg === 'number' && x.fg === y.fg && x.bg === y.bg;
}

/** Which part of a pane a terminal smaller than it shows: the rows and columns that hold the cursor, ending at it at first, then moving only as far as the cursor leaves it. */
export function viewOf(pane: { cols: number; rows: number }, room: { cols: number; rows: number }, cursor: { x: number; y: number }, was?: { top: number; left: number }): { top: number; left: number } {
  const fit = (size: number, space: number, at: number, prev: number | undefined): number => {
    if (size <= space) return 0;
    const max = size - space;
    // A first view ends at the cursor: what was printed above it is shown, the blank below it is not.
    let v = prev ?? at - space + 1;
    if (at < v) v = at;
    else if (at >= v + space) v = at - space + 1;
    return Math.max(0, Math.min(max, v));
  };
  return {
    top: fit(pane.rows, room.rows, cursor.y, was?.top),
    left: fit(pane.cols, room.cols, cursor.x, was?.left),
  };
}

/** The status row's text, reverse video across the terminal's width; the pane's name is someone else's text, so it is shown with its controls escaped by the caller. */
export function statusRow(text: string, cols: number): string {
  const chars = [...text];
  const fitted = chars.length > cols ? chars.slice(0, Math.max(0, cols - 1)).join('') + '…' : text + ' '.repeat(cols - chars.length);
  return `${ESC}[0;7m${fitted}${ESC}[0m`;
}

/**
 * A row's cells as xterm keeps them (three numbers a cell: its character, its
 * foreground and its background with the attributes' bits) and the text of its
 * combined characters: what tells, without drawing it, whether a row changed since
 * the last frame. Read from xterm's private fields (6.0.0); undefined where they
 * are not there (another version), and the row is then drawn and compared as text.
 */
export function rowCells(line: IBufferLine | undefined): { data: Uint32Array; combined: string } | undefined {
  const inner = (line as unknown as { _line?: { _data?: unknown; _combined?: Record<number, string> } } | undefined)?._line;
  const data = inner?._data;
  if (!(data instanceof Uint32Array)) return undefined;
  const combined = inner?._combined;
  let text = '';
  if (combined) for (const k in combined) text += `${k}:${combined[k]}\u0000`;
  return { data, combined: text };
}

/** Whether a row's cells are those kept from the last frame (its first `cols` cells). */
export function sameCells(now: { data: Uint32Array; combined: string }, was: { data: Uint32Array; combined: string } | undefined, cols: number): boolean {
  if (!was || was.combined !== now.combined) return false;
  const n = cols * 3;
  if (now.data.length < n || was.data.length < n) return false;
  for (let i = 0; i < n; i++) if (now.data[i] !== was.data[i]) return false;
  return true;
}
