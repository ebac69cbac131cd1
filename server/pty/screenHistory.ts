// Binds a pane's headless xterm to its compact history: xterm keeps only a short
// live scrollback, and rows about to leave it are captured (historyStore.ts) first.
// Only the public API is used: a marker holds "captured so far" (xterm moves it as
// rows are trimmed or reflowed, and disposes it if uncaptured rows were trimmed), and
// output is written in pieces too small to push more rows than the slack holds.
import type { IBufferCell, IMarker, Terminal } from '@xterm/headless';
import { Utf8Carry, XTERM_WRITE_MAX } from '../../kits/client/utf8Carry';
import { encodeLine } from './lineSgr';
import { HistoryStore } from './historyStore';

/**
 * Rows of scrollback kept live in xterm (~1.2 KB a row at 100 columns, against
 * ~100 bytes in the compact store): enough that the rows a program may still
 * rewrite after they scroll (a resize's reflow, a prompt redrawn) are real xterm
 * rows, small enough that a full pane costs little more than its text.
 */
export const LIVE_SCROLLBACK = 500;
/**
 * Rows xterm may hold beyond the live scrollback before it trims: room for one
 * piece of output (each row needs at least one byte) and one capture batch; with
 * the live rows, room for the tallest screen (MAX_ROWS) a resize pushes up.
 */
export const SLACK_ROWS = 500;
/**
 * A screen with no output for this long rests: its uncaptured scrollback beyond the
 * live rows is captured and xterm lets go of the slack rows (issue 14: ~0.6 MB of
 * xterm rows per pane at 100 columns, for every pane that ever flooded). The next
 * output or resize takes the slack back first. Long enough that a program printing
 * in bursts does not trim and regrow between them.
 */
export const REST_AFTER_MS = 10_000;
/**
 * Scrollback rows xterm keeps while a screen rests (the rest are in the compact store,
 * captured first). Nothing rewrites scrollback while no output comes, and a resize
 * wakes the screen before it reflows (beforeResize); a wider one pulls down at most a
 * screen's worth of rows. So a rest needs far fewer live rows than output does: 100
 * (two and a half screens of 40 rows) instead of LIVE_SCROLLBACK's 500 frees 400 xterm
 * rows, ~0.5 MB at 100 columns, of every quiet pane that ever scrolled that far.
 */
export const REST_LIVE_ROWS = 100;
/** Most bytes written to xterm at once; xterm calls each piece's callback before parsing the next. */
export const PIECE_BYTES = 256;
/** Most bytes written to xterm at once without a history to capture: the carry's whole write (decision 054). */
export const WHOLE_PIECE_BYTES = XTERM_WRITE_MAX;
/** Rows captured at once at least (fewer, larger captures cost less per row). */
const CAPTURE_BATCH = 64;

/** xterm's `scrollback` option for a history of `limit` rows. */
export function xtermScrollback(limit: number): number {
  return limit <= LIVE_SCROLLBACK ? limit : LIVE_SCROLLBACK + SLACK_ROWS;
}

export class ScreenHistory {
  readonly store: HistoryStore;
  /** Off when the whole history fits the live scrollback: xterm alone keeps it. */
  private readonly on: boolean;
  /** The normal buffer's first uncaptured row; null before the first capture or after a clear. */
  private marker: IMarker | null = null;
  /** Uncaptured rows at the last capture, and rows scrolled since: what a gap's size is reckoned from. */
  private uncapturedThen = 0;
  private scrolled = 0;
  private readonly cell: IBufferCell;
  /** xterm keeps only the live rows now (see REST_AFTER_MS). */
  private rested = false;
  /** The first bytes of a character the last write ended inside (xterm 6.0 could lose it). */
  private readonly carry = new Utf8Carry();

  constructor(
    private readonly term: Terminal,
    readonly limit: number,
  ) {
    this.on = limit > LIVE_SCROLLBACK;
    this.store = new HistoryStore(this.on ? limit : 0);
    this.cell = term.buffer.normal.getNullCell();
    term.onScroll(() => {
      if (term.buffer.active === term.buffer.normal) this.scrolled++;
    });
    // ESC [ 3 J (what `clear` sends) clears the scrollback: the compact part too.
    term.parser.registerCsiHandler({ final: 'J' }, (params) => {
      if (params[0] === 3) this.clear();
      return false; // xterm still does its part
    });
    // ESC c (full reset) replaces xterm's buffers: what scrolled away stays history.
    term.parser.registerEscHandler({ final: 'c' }, () => {
      this.capture(0, true);
      this.marker?.dispose();
      this.marker = null;
      return false;
    });
  }

  /**
   * Writes output in pieces, capturing between them; `done` runs after the last. Every
   * piece goes through the carry: a character a read or a piece cut in two reaches
   * xterm whole (kits/client/utf8Carry.ts).
   */
  write(data: Uint8Array, done: () => void): void {
    this.wake();
    // Without a history the pieces need only be within what xterm parses whole.
    const piece = this.on ? PIECE_BYTES : WHOLE_PIECE_BYTES;
    if (data.byteLength <= piece) {
      this.term.write(this.carry.take(data), () => {
        this.capture();
        done();
      });
      return;
    }
    for (let i = 0; i < data.byteLength; i += piece) {
      const last = i + piece >= data.byteLength;
      this.term.write(this.carry.take(data.subarray(i, i + piece)), last ? () => (this.capture(), done()) : () => this.capture());
    }
  }

  /**
   * Before a resize: a narrower one reflows rows into more rows, so everything
   * uncaptured is taken first; a shorter one pushes screen rows into the
   * scrollback (up to 1,000: MAX_ROWS), so as much is taken as they need room.
   */
  beforeResize(cols: number, rows: number): void {
    this.wake();
    const shrink = Math.max(0, this.term.rows - rows);
    this.capture(cols < this.term.cols ? 0 : Math.max(0, Math.min(LIVE_SCROLLBACK, LIVE_SCROLLBACK + SLACK_ROWS - shrink)), true);
  }

  /**
   * The pane went quiet (REST_AFTER_MS): capture down to REST_LIVE_ROWS and let xterm
   * drop the rows beyond them. Not while the alternate screen is up: the normal
   * buffer's rows could not be captured first.
   */
  rest(): void {
    if (!this.on || this.rested || this.term.buffer.active !== this.term.buffer.normal) return;
    this.capture(REST_LIVE_ROWS, true);
    this.term.options.scrollback = REST_LIVE_ROWS;
    this.rested = true;
  }

  /** Room for output again: the slack back, before anything can scroll into it. */
  private wake(): void {
    if (!this.rested) return;
    this.rested = false;
    this.term.options.scrollback = xtermScrollback(this.limit);
  }

  /** Rows of the normal buffer's scrollback not captured yet. */
  get uncaptured(): number {
    const buf = this.term.buffer.normal;
    if (!this.on) return buf.baseY;
    return buf.baseY - (this.marker && !this.marker.isDisposed ? this.marker.line : 0);
  }

  /** Rows of history in all (compact + live), at most the limit. */
  get lines(): number {
    return Math.min(this.limit, this.store.lines + this.uncaptured);
  }

  /**
   * Moves scrollback rows past the newest `keep` into the store (by default only
   * once a batch has gathered). Runs only while the normal buffer is active: the
   * alternate one has no scrollback, and the normal one does not move meanwhile.
   */
  capture(keep = LIVE_SCROLLBACK, now = false): void {
    if (!this.on) return;
    const term = this.term;
    const buf = term.buffer.normal;
    if (term.buffer.active !== buf) return;
    let start = 0;
    if (this.marker && !this.marker.isDisposed) start = this.marker.line;
    else if (this.marker) {
      // The rows that should be uncaptured now, against the rows the scrollback has: more than it has were trimmed.
      const gone = this.uncapturedThen + this.scrolled - buf.baseY;
      // Uncaptured rows were trimmed: say so in the history, never lose them silently.
      if (gone > 0) this.store.lost(gone);
      // Else nothing was: the marker sat on the screen's top row (everything above captured) and an erase
      // replaced that row (ESC [ 2 J, what `clear`, watch and every full-screen redraw send: xterm 6 disposes
      // the markers of the rows it erases). The first uncaptured row is where the marker was.
      else start = Math.max(0, Math.min(buf.baseY, buf.baseY - this.scrolled - this.uncapturedThen));
    }
    const end = buf.baseY - keep;
    if (end - start < (now ? 1 : CAPTURE_BATCH) && this.marker && !this.marker.isDisposed) return;
    for (let y = start; y < end; y++) {
      const wraps = buf.getLine(y + 1)?.isWrapped ?? false;
      this.store.push(encodeLine(buf.getLine(y)!, wraps, this.cell), wraps);
    }
    const at = Math.max(start, end);
    this.marker?.dispose();
    this.marker = term.registerMarker(at - (buf.baseY + buf.cursorY)) ?? null;
    this.uncapturedThen = buf.baseY - at;
    this.scrolled = 0;
  }

  /** ESC [ 3 J: the compact history goes with xterm's scrollback. */
  private clear(): void {
    this.store.clear();
    this.marker?.dispose();
    this.marker = null;
    this.scrolled = 0;
    this.uncapturedThen = 0;
  }
}
