// Copy mode's cursor, as tmux's vi copy mode moves it: over the whole buffer
// (scrollback + screen) by cell, line, page, top/bottom, line start/end/first
// non-blank, a line of the screen (H M L), word (w b e) and WORD (W B E: runs of
// non-blanks, a path or URL whole); searching forward and backward with wrap-around;
// and the selection between the anchor (set by v, or by V for whole lines) and the cursor. Pure: it reads lines through a tiny interface,
// so it is tested without a terminal; CopyMode.tsx draws it with xterm's APIs.

export interface Lines {
  /** Lines in the buffer (scrollback + screen). */
  readonly length: number;
  readonly cols: number;
  /** Screen rows: what a page is. */
  readonly rows: number;
  text(y: number): string;
}

export interface Cell {
  x: number;
  y: number;
}

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_]/u.test(c);
/** A WORD's character (vim's W): anything but a blank, so `/src/app.ts:12` or a URL is one. */
const isBig = (c: string | undefined) => c !== undefined && !/\s/.test(c);

export class CopyCursor {
  cursor: Cell;
  anchor: Cell | null = null;
  /** V: the selection takes whole lines, from the anchor's to the cursor's. */
  lineWise = false;
  /**
   * The column up and down keep to (vim's "curswant"): a move onto a shorter line puts
   * the cursor on its last character, and the next longer line gives the column back.
   * Infinity after $ (the end of every line). Null until a vertical move needs it.
   */
  private want: number | null = null;

  constructor(
    private readonly lines: Lines,
    start: Cell,
  ) {
    this.cursor = this.clamp(start);
  }

  private clamp(c: Cell): Cell {
    const y = Math.max(0, Math.min(this.lines.length - 1, c.y));
    return { x: Math.max(0, Math.min(this.lines.cols - 1, c.x)), y };
  }

  /** The column of a line's last character (0 on an empty line). */
  private lastCol(y: number): number {
    return Math.max(0, this.lines.text(y).trimEnd().length - 1);
  }

  /**
   * Moves by cells and lines (hjkl, arrows, pages). Up and down land within the text of
   * the line they reach (past its end the cursor stood on nothing and a selection ended
   * in blank cells), keeping the column they left for the next longer line.
   */
  move(dx: number, dy: number): void {
    if (dy === 0) {
      this.want = null;
      this.cursor = this.clamp({ x: this.cursor.x + dx, y: this.cursor.y });
      return;
    }
    this.want ??= this.cursor.x;
    const y = Math.max(0, Math.min(this.lines.length - 1, this.cursor.y + dy));
    this.cursor = this.clamp({ x: Math.min(this.want, this.lastCol(y)) + dx, y });
  }

  page(dir: 1 | -1): void {
    this.move(0, dir * this.lines.rows);
  }

  top(): void {
    this.want = null;
    this.cursor = { x: 0, y: 0 };
  }

  /** G: the last line with text on it (the screen below the prompt is empty). */
  bottom(): void {
    let y = this.lines.length - 1;
    while (y > 0 && this.lines.text(y).trimEnd() === '') y--;
    this.want = null;
    this.cursor = { x: 0, y };
  }

  lineStart(): void {
    this.want = null;
    this.cursor = { ...this.cursor, x: 0 };
  }

  /** The column of a line's first non-blank (0 on a blank line). */
  private firstNonBlank(y: number): number {
    return Math.max(0, this.lines.text(y).search(/\S/));
  }

  /** ^: the line's first non-blank character. */
  lineFirst(): void {
    this.want = null;
    this.cursor = this.clamp({ x: this.firstNonBlank(this.cursor.y), y: this.cursor.y });
  }

  /** H, M, L (and half pages): line `y` of the buffer, at its first non-blank. */
  toLine(y: number): void {
    const to = Math.max(0, Math.min(this.lines.length - 1, y));
    this.want = null;
    this.cursor = this.clamp({ x: this.firstNonBlank(to), y: to });
  }

  /** $: the line's last character, and the end of every line up and down reach. */
  lineEnd(): void {
    this.want = Infinity;
    this.cursor = this.clamp({ x: this.lastCol(this.cursor.y), y: this.cursor.y });
  }

  /** w / b: the start of the next (previous) word, across lines; W / B (big) of the next WORD. */
  word(dir: 1 | -1, big = false): void {
    const isWord = big ? isBig : isWordChar;
    let { x, y } = this.cursor;
    const at = () => this.lines.text(y)[x];
    const step = (): boolean => {
      x += dir;
      if (x >= 0 && x < Math.max(1, this.lines.text(y).length)) return true;
      y += dir;
      if (y < 0 || y >= this.lines.length) return false;
      x = dir > 0 ? 0 : Math.max(0, this.lines.text(y).length - 1);
      return true;
    };
    if (dir > 0) {
      while (isWord(at()) && step());
      while (!isWord(at()) && step());
    } else {
      if (!step()) return;
      while (!isWord(at()) && step());
      while (isWord(this.lines.text(y)[x - 1]) && x > 0) x--;
    }
    this.want = null;
    this.cursor = this.clamp({ x, y });
  }

  /** e: the end of this word, or of the next when at an end already, across lines; E (big) of the WORD. */
  wordEnd(big = false): void {
    const isWord = big ? isBig : isWordChar;
    let { x, y } = this.cursor;
    const text = () => this.lines.text(y);
    const step = (): boolean => {
      x += 1;
      if (x < text().length) return true;
      if (y + 1 >= this.lines.length) return false;
      y += 1;
      x = 0;
      return true;
    };
    if (!step()) return;
    while (!isWord(text()[x])) if (!step()) return;
    while (isWord(text()[x + 1])) x++;
    this.want = null;
    this.cursor = this.clamp({ x, y });
  }

  /**
   * v: start (or drop) a selection at the cursor; V: one of whole lines. The other key
   * while one is on switches its kind, as in vim; the same key again drops it.
   */
  toggleVisual(lines = false): void {
    if (this.anchor && this.lineWise === lines) {
      this.anchor = null;
      return;
    }
    this.anchor ??= { ...this.cursor };
    this.lineWise = lines;
  }

  /** The selection as xterm's select(column, row, length) wants it, or null. */
  selection(): { column: number; row: number; length: number } | null {
    if (!this.anchor) return null;
    const [a, b] = before(this.anchor, this.cursor) ? [this.anchor, this.cursor] : [this.cursor, this.anchor];
    if (this.lineWise) return { column: 0, row: a.y, length: (b.y - a.y + 1) * this.lines.cols };
    return { column: a.x, row: a.y, length: (b.y - a.y) * this.lines.cols + (b.x - a.x) + 1 };
  }

  /**
   * / (forward) and ? (backward): the next match of `query` from the cursor, wrapping
   * around the buffer; moves the cursor to its start. Case-insensitive unless the
   * query has a capital (vim's smartcase). Returns the match, or null.
   */
  search(query: string, dir: 1 | -1): Cell | null {
    if (query === '') return null;
    const fold = query === query.toLowerCase();
    const q = fold ? query.toLowerCase() : query;
    const n = this.lines.length;
    const text = (y: number) => (fold ? this.lines.text(y).toLowerCase() : this.lines.text(y));
    for (let i = 0; i <= n; i++) {
      const y = (((this.cursor.y + dir * i) % n) + n) % n;
      const t = text(y);
      let x: number;
      if (dir > 0) x = t.indexOf(q, i === 0 ? this.cursor.x + 1 : 0);
      else x = i === 0 ? (this.cursor.x > 0 ? t.lastIndexOf(q, this.cursor.x - 1) : -1) : t.lastIndexOf(q);
      if (x >= 0) {
        this.want = null;
        this.cursor = { x, y };
        return this.cursor;
      }
    }
    return null;
  }
}

function before(a: Cell, b: Cell): boolean {
  return a.y < b.y || (a.y === b.y && a.x <= b.x);
}
