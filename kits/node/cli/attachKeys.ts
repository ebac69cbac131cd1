// What `pane attach` makes of the bytes the person's terminal sends: the keys that
// scroll its view back into the pane's history (the wheel, Shift+PgUp/PgDn, and while
// scrolled back the keys of a pager), mouse reports, and the keys that are the
// program's. Pure, so each rule is tested without a terminal.

/** Shift+PgUp and Shift+PgDn as xterm sends them: a terminal that passes them on (most do in its alternate screen) scrolls here. */
const SHIFT_PAGE_UP = '\x1b[5;2~';
const SHIFT_PAGE_DOWN = '\x1b[6;2~';

/** An SGR mouse report: ESC [ < button ; column ; row, then M (pressed or moved) or m (released). */
// eslint-disable-next-line no-control-regex
const PIECE = /\x1b\[<(\d{1,4});(\d{1,5});(\d{1,5})([Mm])|\x1b\[5;2~|\x1b\[6;2~/g;

/** A piece of one read from the person's terminal. */
export type KeyPiece =
  | { kind: 'keys'; text: string }
  | { kind: 'mouse'; cb: number; cx: number; cy: number; final: string }
  | { kind: 'page'; by: -1 | 1 };

/** One read cut into the program's keys, mouse reports and Shift+PgUp/PgDn, in order. */
export function piecesOf(text: string): KeyPiece[] {
  const out: KeyPiece[] = [];
  let from = 0;
  for (const m of text.matchAll(PIECE)) {
    if (m.index > from) out.push({ kind: 'keys', text: text.slice(from, m.index) });
    from = m.index + m[0].length;
    if (m[0] === SHIFT_PAGE_UP) out.push({ kind: 'page', by: -1 });
    else if (m[0] === SHIFT_PAGE_DOWN) out.push({ kind: 'page', by: 1 });
    else out.push({ kind: 'mouse', cb: Number(m[1]), cx: Number(m[2]), cy: Number(m[3]), final: m[4]! });
  }
  if (from < text.length) out.push({ kind: 'keys', text: text.slice(from) });
  return out;
}

/** A key's escape sequence: CSI (arrows with modifiers, PgUp, F5…) or SS3 (arrows in application mode, F1-F4). */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /^\x1b(?:\[[0-?]*[ -/]*[@-~]|O.)/;

/** The first key of a read: an escape sequence whole, a lone Esc, or one character (a surrogate pair whole). */
export function firstKey(text: string): string {
  const seq = ESCAPE_SEQUENCE.exec(text);
  if (seq) return seq[0];
  const cp = text.codePointAt(0);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/** What a key does to a view scrolled back: move by rows or pages, go to the top or the bottom, search (up or down, or the last search again, its way or the other), or back to the live screen. */
export type ScrollMove = { rows: number } | { pages: number } | 'top' | 'bottom' | { search: -1 | 1 } | { again: -1 | 1 } | 'live';

/**
 * A key read while the view is scrolled back, as a pager takes it: arrows and k/j a
 * row, PgUp/PgDn, b and space a page, Home/g the top, End/G the bottom, ? and / a search
 * up and down, n and N the last one again, q and Esc back to the live screen. Undefined
 * for any other key: it goes back to the live screen and on to the program, as a
 * terminal does when someone types while scrolled back.
 */
export function scrollMoveOf(key: string): ScrollMove | undefined {
  switch (key) {
    case '\x1b[A':
    case '\x1bOA':
    case 'k':
      return { rows: -1 };
    case '\x1b[B':
    case '\x1bOB':
    case 'j':
      return { rows: 1 };
    case '\x1b[5~':
    case 'b':
      return { pages: -1 };
    case '\x1b[6~':
    case ' ':
      return { pages: 1 };
    case '\x1b[H':
    case '\x1bOH':
    case '\x1b[1~':
    case 'g':
      return 'top';
    case '\x1b[F':
    case '\x1bOF':
    case '\x1b[4~':
    case 'G':
      return 'bottom';
    case '?':
      return { search: -1 };
    case '/':
      return { search: 1 };
    case 'n':
      return { again: 1 };
    case 'N':
      return { again: -1 };
    case 'q':
    case '\x1b':
      return 'live';
    default:
      return undefined;
  }
}

/** The wheel's SGR button: 64 away from the person (up, into history), 65 toward; 66 and 67 (sideways) are not scrolls here. */
export function wheelOf(cb: number): -1 | 1 | undefined {
  if ((cb & 64) === 0 || (cb & 32) !== 0) return undefined;
  const b = cb & 3;
  return b === 0 ? -1 : b === 1 ? 1 : undefined;
}
