// Predictive local echo (issue 26.5), the pure part: which typed keys are guessed,
// where their echo will land, and whether the screen, once the program's output is
// parsed, confirms the guesses or contradicts them. No DOM and no xterm here: the
// terminal is seen through `EchoScreen`, so tests drive it with a plain grid.
// As in Mosh, a new run of guesses (after Enter, a control key or any drop) stays
// hidden until the program echoes one of them: a password prompt never shows the
// password, and a program that does not echo never has a key of it drawn.

import type { Settings } from '../../../kits/protocol/settings';

/** How the window guesses echoes (settings.json `predictiveEcho`). */
export type PredictiveEchoMode = Settings['predictiveEcho'];

/**
 * The echo delay above which 'auto' shows guesses, in ms: below it a real echo comes
 * within a frame or two and a guess would only flicker. VS Code's terminal typeahead
 * uses the same 30 ms default (terminal.integrated.localEchoLatencyThreshold).
 */
export const PREDICT_MIN_RTT_MS = 30;
/** 'auto' stops showing guesses only once the estimate falls below this: hysteresis, so a delay near the threshold does not toggle them key by key (Mosh uses 20/30 ms). */
export const PREDICT_OFF_RTT_MS = 20;
/** Weight of a new sample in the echo-delay estimate (TCP's SRTT uses 1/8: smooth, yet a slower link shows within ~8 keys). */
export const RTT_GAIN = 1 / 8;
/** A guess not confirmed within max(this, RTT_EXPIRE_FACTOR × estimate) is dropped: the program is not echoing it (a key it swallowed, a dead pane). */
export const PREDICT_EXPIRE_MIN_MS = 1500;
export const RTT_EXPIRE_FACTOR = 4;
/** At most this many guesses wait at once; a key past it drops them all (a row or two of typing ahead is plenty; it bounds each check). */
export const PREDICT_MAX_PENDING = 256;

/** What the predictor needs to see of a terminal. Rows are absolute (scrollback included). */
export interface EchoScreen {
  readonly cols: number;
  readonly cursorRow: number;
  readonly cursorCol: number;
  /** The alternate screen is active (a full-screen program: editors, pagers): no guesses there. */
  readonly alternate: boolean;
  /** The character drawn at a cell; '' or ' ' for a blank one. */
  charAt(row: number, col: number): string;
}

/** One guessed key: a character written at (row, col), or (erase) the cell at (row, col) blanked by a backspace. */
export interface Guess {
  kind: 'char' | 'erase';
  row: number;
  col: number;
  /** The character for 'char'; ' ' for 'erase'. */
  ch: string;
  /** Cursor before and after the key. */
  from: { row: number; col: number };
  to: { row: number; col: number };
  typedAt: number;
}

/** Why the guesses were dropped (for tests and debugging). */
export type DropReason = 'control' | 'paste' | 'alternate' | 'mismatch' | 'expired' | 'edge' | 'reset';
/** What a 'reset' came from: something outside the keys and their echo (for tests and debugging). */
export type ResetCause = 'mode' | 'resize' | 'attach' | 'disconnect' | 'binary' | 'dead key' | 'closed';

/** How a bracketed paste starts (xterm sends the pasted text between these markers when the program asked for them). */
const BRACKETED_PASTE = '\x1b[200~';
const blank = (c: string) => c === '' || c === ' ';
/** Printable and one cell wide for sure: ASCII and Latin-1. Wider or combining characters are not guessed (their cell count depends on the font tables). */
const guessable = (c: string) => {
  const n = c.charCodeAt(0);
  return c.length === 1 && ((n >= 0x20 && n < 0x7f) || (n >= 0xa0 && n <= 0xff));
};

export class Predictor {
  private pending: Guess[] = [];
  /** The program echoed a guess of this run: the run's guesses may be shown. */
  private proven = false;
  /** Leftmost column the run may erase to: where the run's first key landed (a backspace never guesses over the prompt). */
  private floor: { row: number; col: number } | null = null;
  private srtt: number | null = null;
  private showing = false;
  /** The last drop, for tests and debugging. */
  lastDrop: DropReason | null = null;
  /** Drops so far by reason (those lastDrop names). */
  readonly dropsBy: Partial<Record<DropReason, number>> = {};
  /** What the last 'reset' drop came from. */
  lastReset: ResetCause | null = null;
  /** What the screen showed at the last mismatch: the cursor, and the cells the guesses covered. */
  lastMismatch: string | null = null;

  constructor(private current: PredictiveEchoMode = 'off') {}

  /** How many drops so far, whatever their reason. */
  get drops(): number {
    let n = 0;
    for (const k of Object.values(this.dropsBy)) n += k ?? 0;
    return n;
  }

  get mode(): PredictiveEchoMode {
    return this.current;
  }

  setMode(mode: PredictiveEchoMode): void {
    if (mode === this.current) return;
    this.current = mode;
    this.drop('reset', 'mode');
  }

  /** The echo-delay estimate in ms (keystroke to its echo parsed), or null before the first echo. */
  get rttMs(): number | null {
    return this.srtt;
  }

  get count(): number {
    return this.pending.length;
  }

  /** Keys typed (xterm's onData string), before they are sent. */
  typed(data: string, s: EchoScreen, now: number): void {
    if (this.current === 'off') return;
    if (s.alternate) return this.drop('alternate');
    if (data.length > 1) return this.drop(data.startsWith('\x1b') && !data.startsWith(BRACKETED_PASTE) ? 'control' : 'paste');
    if (this.pending.length >= PREDICT_MAX_PENDING) return this.drop('edge');
    if (data === '\x7f' || data === '\b') return this.backspace(s, now);
    if (!guessable(data)) return this.drop('control');
    const at = this.cursor(s);
    // Only at the end of what the line holds: typed into the middle, a shell shifts the
    // rest of the line, and a guess drawn over it would hide real text.
    if (at.col >= s.cols - 1 || !this.restBlank(s, at.row, at.col)) return this.drop('edge');
    this.floor ??= { ...at };
    this.pending.push({ kind: 'char', row: at.row, col: at.col, ch: data, from: at, to: { row: at.row, col: at.col + 1 }, typedAt: now });
  }

  private backspace(s: EchoScreen, now: number): void {
    const at = this.cursor(s);
    const f = this.floor;
    // Only what this run typed is guessed erased (never the prompt, nor text the run did
    // not see typed); a key still on its way is erased after its echo, so both are kept.
    if (!f || at.row !== f.row || at.col - 1 < f.col || !this.restBlank(s, at.row, at.col)) return this.drop('control');
    const to = { row: at.row, col: at.col - 1 };
    this.pending.push({ kind: 'erase', row: to.row, col: to.col, ch: ' ', from: at, to, typedAt: now });
  }

  /** Where the next key's echo lands: after the pending guesses, else the real cursor. */
  private cursor(s: EchoScreen): { row: number; col: number } {
    const last = this.pending[this.pending.length - 1];
    return last ? { ...last.to } : { row: s.cursorRow, col: s.cursorCol };
  }

  /**
   * Output was parsed: confirm the guesses the screen now shows, keep those still on
   * their way, drop them all if the screen went anywhere else.
   */
  parsed(s: EchoScreen, now: number): void {
    if (this.pending.length === 0) return;
    if (s.alternate) return this.drop('alternate');
    const k = this.echoed(s);
    if (k < 0) {
      const cells = this.pending.map((g) => `${g.kind === 'char' ? g.ch : '⌫'}@${g.row}:${g.col}=${JSON.stringify(s.charAt(g.row, g.col))}`);
      this.lastMismatch = `cursor ${s.cursorRow}:${s.cursorCol}, guesses from ${this.pending[0]!.from.row}:${this.pending[0]!.from.col}: ${cells.join(' ')}`;
      return this.drop('mismatch');
    }
    if (k === 0) return;
    for (let i = 0; i < k; i++) if (this.pending[i]!.kind === 'char') this.sample(now - this.pending[i]!.typedAt);
    this.pending.splice(0, k);
    this.proven = true;
  }

  /**
   * How many guesses the screen has caught up with: the smallest k such that the screen
   * is as the first k guesses leave it. The smallest, because a key and its backspace
   * leave the screen as it was before either: until more output tells them apart, the
   * two stay pending (drawn as what they will make, which is what is there).
   * -1: the screen is as no number of guesses would leave it.
   */
  private echoed(s: EchoScreen): number {
    for (let k = 0; k <= this.pending.length; k++) if (this.showsFirst(s, k)) return k;
    return -1;
  }

  /** The screen is as the first k guesses leave it: the cursor where guess k starts, and their cells hold what they guessed (a later guess of the same cell wins). */
  private showsFirst(s: EchoScreen, k: number): boolean {
    const p = this.pending;
    const at = k < p.length ? p[k]!.from : p[p.length - 1]!.to;
    return at.row === s.cursorRow && at.col === s.cursorCol && this.cellsHold(s, k);
  }

  private cellsHold(s: EchoScreen, k: number): boolean {
    for (let i = 0; i < k; i++) {
      const g = this.pending[i]!;
      let later = false;
      for (let j = i + 1; j < k && !later; j++) later = this.pending[j]!.row === g.row && this.pending[j]!.col === g.col;
      if (later) continue;
      const c = s.charAt(g.row, g.col);
      if (g.kind === 'char' ? c !== g.ch : !blank(c)) return false;
    }
    return true;
  }

  /**
   * Guesses the program has sat on too long: confirmed if the screen shows all of them
   * (a key and its backspace, whose echo could not be told from none until now), else
   * dropped. True if any went.
   */
  expire(now: number, s?: EchoScreen): boolean {
    const first = this.pending[0];
    if (!first || now - first.typedAt < this.expireMs()) return false;
    if (s && !s.alternate && this.showsFirst(s, this.pending.length)) {
      this.pending = [];
      this.proven = true;
    } else this.drop('expired');
    return true;
  }

  /** When the oldest guess expires (ms since the epoch of `now`), or null with none pending. */
  expiresAt(): number | null {
    const first = this.pending[0];
    return first ? first.typedAt + this.expireMs() : null;
  }

  private expireMs(): number {
    return Math.max(PREDICT_EXPIRE_MIN_MS, RTT_EXPIRE_FACTOR * (this.srtt ?? 0));
  }

  /** Drops every guess; the next run stays hidden until the program echoes one. */
  drop(reason: DropReason, cause?: ResetCause): void {
    // A reset with nothing waiting (a mode change, a resize) dropped nothing worth naming.
    if (this.pending.length > 0 || reason !== 'reset') {
      this.lastDrop = reason;
      this.dropsBy[reason] = (this.dropsBy[reason] ?? 0) + 1;
      if (reason === 'reset') this.lastReset = cause ?? null;
    }
    this.pending = [];
    this.proven = false;
    this.floor = null;
  }

  private sample(ms: number): void {
    const v = Math.max(0, ms);
    this.srtt = this.srtt === null ? v : this.srtt + RTT_GAIN * (v - this.srtt);
  }

  /** Whether guesses are drawn at all now: 'always', or 'auto' on a slow echo (or a pane of another host, `remote`). */
  shouldShow(remote = false): boolean {
    if (this.current === 'always') this.showing = true;
    else if (this.current === 'off') this.showing = false;
    else if (remote) this.showing = true;
    else if (this.srtt === null) this.showing = false;
    else if (this.srtt >= PREDICT_MIN_RTT_MS) this.showing = true;
    else if (this.srtt < PREDICT_OFF_RTT_MS) this.showing = false;
    return this.showing;
  }

  /**
   * What to draw: each guessed cell as it will look (a later guess of a cell wins) and
   * where the cursor will be. Nothing until the run is proven, or when not showing.
   */
  shown(remote = false): { cells: { row: number; col: number; ch: string }[]; cursor: { row: number; col: number } | null } {
    if (!this.proven || this.pending.length === 0 || !this.shouldShow(remote)) return { cells: [], cursor: null };
    const byCell = new Map<string, { row: number; col: number; ch: string }>();
    for (const g of this.pending) byCell.set(`${g.row}:${g.col}`, { row: g.row, col: g.col, ch: g.ch });
    return { cells: [...byCell.values()], cursor: { ...this.pending[this.pending.length - 1]!.to } };
  }

  /** The line from (row, col) on is blank as it will be once the pending guesses are echoed. */
  private restBlank(s: EchoScreen, row: number, col: number): boolean {
    for (let c = col; c < s.cols; c++) if (!blank(this.predictedChar(s, row, c))) return false;
    return true;
  }

  /** A cell as it will be once the pending guesses are echoed: the last guess of it, else what it holds. */
  private predictedChar(s: EchoScreen, row: number, col: number): string {
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const g = this.pending[i]!;
      if (g.row === row && g.col === col) return g.ch;
    }
    return s.charAt(row, col);
  }
}
