// The predictor against a plain grid standing in for xterm's buffer: the grid is what
// the program's echo made of the screen; the predictor must confirm what matches and
// drop everything on the first sign that the screen went elsewhere.
import { describe, expect, it } from 'vitest';
import { PREDICT_EXPIRE_MIN_MS, PREDICT_MAX_PENDING, PREDICT_MIN_RTT_MS, PREDICT_OFF_RTT_MS, Predictor, type EchoScreen } from './predict';

class Grid implements EchoScreen {
  cols = 20;
  cursorRow = 0;
  cursorCol = 0;
  alternate = false;
  private rows = new Map<number, string[]>();
  charAt(row: number, col: number): string {
    return this.rows.get(row)?.[col] ?? '';
  }
  /** The program writes text at the cursor (as an echo does). */
  put(text: string): this {
    for (const ch of text) {
      if (ch === '\b') {
        this.cursorCol--;
        continue;
      }
      const r = this.rows.get(this.cursorRow) ?? [];
      r[this.cursorCol++] = ch;
      this.rows.set(this.cursorRow, r);
    }
    return this;
  }
  at(row: number, col: number): this {
    this.cursorRow = row;
    this.cursorCol = col;
    return this;
  }
}

/** A shell prompt on row 3, proven by one echoed key so later guesses show. */
function proven(mode: 'always' | 'auto' = 'always'): { p: Predictor; g: Grid } {
  const g = new Grid().at(3, 0).put('$ ');
  const p = new Predictor(mode);
  p.typed('e', g, 0);
  g.put('e');
  p.parsed(g, 10);
  return { p, g };
}
const text = (p: Predictor) => p.shown().cells.map((c) => c.ch).join('');

describe('predictive echo', () => {
  it('counts drops by reason, and names what a reset came from; a reset with nothing guessed counts none', () => {
    const { p, g } = proven();
    p.drop('reset', 'resize');
    expect([p.drops, p.lastReset]).toEqual([0, null]);
    p.typed('c', g, 100);
    p.drop('reset', 'attach');
    p.typed('x', g, 200);
    g.put('y');
    p.parsed(g, 300);
    expect(p.lastDrop).toBe('mismatch');
    expect(p.dropsBy).toEqual({ reset: 1, mismatch: 1 });
    expect([p.drops, p.lastReset]).toEqual([2, 'attach']);
  });

  it('shows typed keys at once and confirms each when its echo lands in its cell', () => {
    const { p, g } = proven();
    p.typed('c', g, 100);
    p.typed('h', g, 110);
    expect(p.shown().cells).toEqual([{ row: 3, col: 3, ch: 'c' }, { row: 3, col: 4, ch: 'h' }]);
    expect(p.shown().cursor).toEqual({ row: 3, col: 5 });
    g.put('c');
    p.parsed(g, 400);
    expect(text(p)).toBe('h');
    g.put('h');
    p.parsed(g, 410);
    expect(p.count).toBe(0);
    expect(p.shown().cells).toEqual([]);
    expect(p.lastDrop).toBeNull();
  });

  it('keeps a new run hidden until the program echoes one of its keys (a password is never drawn)', () => {
    const g = new Grid().at(0, 0).put('Password: ');
    const p = new Predictor('always');
    for (const c of 'hunter2') p.typed(c, g, 0);
    expect(p.count).toBe(7);
    expect(p.shown().cells).toEqual([]);
    // Nothing echoed: the guesses expire, never shown.
    expect(p.expire(PREDICT_EXPIRE_MIN_MS - 1)).toBe(false);
    expect(p.expire(PREDICT_EXPIRE_MIN_MS)).toBe(true);
    expect(p.count).toBe(0);
    expect(p.lastDrop).toBe('expired');
  });

  it('drops every guess when the echo differs from the guess', () => {
    const { p, g } = proven();
    for (const c of 'ls') p.typed(c, g, 100);
    expect(text(p)).toBe('ls');
    g.put('X');
    p.parsed(g, 300);
    expect(p.count).toBe(0);
    expect(p.shown().cells).toEqual([]);
    expect(p.lastDrop).toBe('mismatch');
  });

  it('drops every guess when the cursor goes somewhere no guess leads (a newline, a redraw)', () => {
    const { p, g } = proven();
    p.typed('a', g, 100);
    g.at(4, 0);
    p.parsed(g, 300);
    expect(p.lastDrop).toBe('mismatch');
    expect(p.count).toBe(0);
  });

  it('keeps guesses while output leaves the cursor where they start', () => {
    const { p, g } = proven();
    p.typed('a', g, 100);
    // A status line drawn elsewhere, the cursor put back.
    g.at(0, 0).put('12:00').at(3, 3);
    p.parsed(g, 150);
    expect(text(p)).toBe('a');
  });

  it('guesses a backspace: of a key still on its way, and of an echoed key this run typed', () => {
    const { p, g } = proven();
    p.typed('a', g, 100);
    p.typed('\x7f', g, 110);
    expect(p.shown().cells).toEqual([{ row: 3, col: 3, ch: ' ' }]);
    expect(p.shown().cursor).toEqual({ row: 3, col: 3 });
    // The echo of 'a' alone is a state on the way, not a mismatch.
    g.put('a');
    p.parsed(g, 300);
    expect(p.count).toBe(1);
    g.put('\b \b');
    p.parsed(g, 310);
    expect(p.count).toBe(0);
    expect(p.lastDrop).toBeNull();
    // Now erase the echoed 'e' (the run's first key), then one more: that would erase the prompt.
    p.typed('\x7f', g, 400);
    expect(p.shown().cells).toEqual([{ row: 3, col: 2, ch: ' ' }]);
    p.typed('\x7f', g, 410);
    expect(p.count).toBe(0);
    expect(p.lastDrop).toBe('control');
  });

  it('does not take the screen before a key and its backspace for their echo (the screen is the same), and confirms them as echoes come', () => {
    const { p, g } = proven();
    p.typed('X', g, 100);
    p.typed('\x7f', g, 110);
    p.typed('r', g, 120);
    // Output that leaves the screen as it was (a bell): nothing is taken as echoed.
    p.parsed(g, 130);
    expect(p.count).toBe(3);
    g.put('X');
    p.parsed(g, 300);
    expect(p.count).toBe(2);
    g.put('\b \b');
    p.parsed(g, 310);
    expect(p.count).toBe(1);
    g.put('r');
    p.parsed(g, 320);
    expect(p.count).toBe(0);
    expect(p.lastDrop).toBeNull();
  });

  it('confirms at expiry a key and its backspace whose echoes left the screen as it was, rather than dropping them', () => {
    const { p, g } = proven();
    p.typed('X', g, 100);
    p.typed('\x7f', g, 110);
    g.put('X\b \b');
    p.parsed(g, 300);
    expect(p.count).toBe(2);
    expect(p.expire(100 + PREDICT_EXPIRE_MIN_MS, g)).toBe(true);
    expect(p.count).toBe(0);
    expect(p.lastDrop).toBeNull();
    // Still proven: the next key shows at once.
    p.typed('y', g, 2000);
    expect(text(p)).toBe('y');
  });

  it('drops and stops guessing on the alternate screen', () => {
    const { p, g } = proven();
    p.typed('v', g, 100);
    g.alternate = true;
    p.parsed(g, 120);
    expect(p.lastDrop).toBe('alternate');
    p.typed('j', g, 130);
    expect(p.count).toBe(0);
  });

  it('drops on a paste, Enter, arrows and Ctrl keys, and the next run is hidden again', () => {
    for (const key of ['pasted text', '\x1b[200~x\x1b[201~', '\r', '\x1b[D', '\x03', '\t']) {
      const { p, g } = proven();
      p.typed('a', g, 100);
      p.typed(key, g, 110);
      expect(p.count, JSON.stringify(key)).toBe(0);
      expect(p.lastDrop).toBe(key.length > 1 && !key.startsWith('\x1b[D') ? 'paste' : 'control');
      p.typed('b', g, 120);
      expect(p.shown().cells).toEqual([]);
    }
  });

  it('guesses nothing in the middle of a line or at its last column', () => {
    const { p, g } = proven();
    g.put(' tail').at(3, 3);
    p.typed('x', g, 100);
    expect(p.count).toBe(0);
    expect(p.lastDrop).toBe('edge');
    const q = proven();
    q.g.at(3, q.g.cols - 1);
    q.p.typed('x', q.g, 100);
    expect(q.p.count).toBe(0);
  });

  it("'auto' shows guesses once the echo is slower than the threshold, and stops below the lower one", () => {
    const { p, g } = proven('auto');
    let row = 10;
    // Each key on a fresh line, so no line runs out of columns.
    const key = (delay: number, t: number) => {
      g.at(row++, 0);
      p.typed('k', g, t);
      g.put('k');
      p.parsed(g, t + delay);
    };
    // The first echo took 10 ms.
    expect(p.rttMs).toBe(10);
    expect(p.shouldShow()).toBe(false);
    for (let i = 0; i < 40; i++) key(300, 1000 * i + 1000);
    expect(p.rttMs!).toBeGreaterThan(PREDICT_MIN_RTT_MS);
    expect(p.shouldShow()).toBe(true);
    // Between the two thresholds it stays on; below the lower one it goes off.
    for (let i = 0; i < 100 && p.rttMs! >= PREDICT_MIN_RTT_MS; i++) key(25, 100_000 + i * 100);
    expect(p.rttMs!).toBeLessThan(PREDICT_MIN_RTT_MS);
    expect(p.shouldShow()).toBe(true);
    for (let i = 0; i < 100 && p.rttMs! >= PREDICT_OFF_RTT_MS; i++) key(1, 200_000 + i * 100);
    expect(p.shouldShow()).toBe(false);
    // A pane of another host shows them whatever the estimate.
    expect(p.shouldShow(true)).toBe(true);
  });

  it('holds at most PREDICT_MAX_PENDING guesses: the key past it drops them all', () => {
    const { p, g } = proven();
    g.cols = PREDICT_MAX_PENDING + 10;
    for (let i = 0; i < PREDICT_MAX_PENDING; i++) p.typed('a', g, 100 + i);
    expect(p.count).toBe(PREDICT_MAX_PENDING);
    p.typed('\x7f', g, 1000);
    expect(p.count).toBe(0);
    expect(p.lastDrop).toBe('edge');
  });

  it("does nothing when 'off'", () => {
    const g = new Grid();
    const p = new Predictor('off');
    p.typed('a', g, 0);
    expect(p.count).toBe(0);
    expect(p.shouldShow(true)).toBe(false);
  });
});
