// Predictive local echo in the window: one pane's Predictor (predict.ts) fed by its
// keys and by its terminal after each parsed output, and drawn as a DOM layer over
// xterm's screen — never written into xterm's buffer, so a wrong guess cannot stay
// on screen: dropping a guess is removing a span.
import type { IDisposable, Terminal } from '@xterm/xterm';
import type { Look } from './look';
import { Predictor, type EchoScreen, type PredictiveEchoMode, type ResetCause } from './predict';

/** What screenOf reads of a terminal: xterm.js's (and @xterm/headless's, for the bench) public buffer API. */
export interface XtermLike {
  readonly cols: number;
  readonly buffer: { readonly active: Pick<Terminal['buffer']['active'], 'baseY' | 'cursorY' | 'cursorX' | 'type' | 'getLine'> };
}

/** xterm's buffer as the predictor sees it: absolute rows, the cursor, the alternate screen. */
export function screenOf(term: XtermLike): EchoScreen {
  const b = term.buffer.active;
  return {
    cols: term.cols,
    cursorRow: b.baseY + b.cursorY,
    cursorCol: b.cursorX,
    alternate: b.type === 'alternate',
    charAt: (row, col) => b.getLine(row)?.getCell(col)?.getChars() ?? '',
  };
}

export class LocalEcho {
  readonly predictor: Predictor;
  private term: Terminal | null = null;
  private layer: HTMLDivElement | null = null;
  private scrolled: IDisposable | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** What the layer draws now (a key of cells and cursor), so an unchanged guess set costs no DOM work. */
  private drawn = '';

  constructor(
    mode: PredictiveEchoMode,
    private look: Look,
    /** The pane belongs to another host ('auto' guesses there whatever the measured delay). */
    private readonly remote: () => boolean,
  ) {
    this.predictor = new Predictor(mode);
  }

  get mode(): PredictiveEchoMode {
    return this.predictor.mode;
  }

  /** The terminal to watch (a re-attach makes a new one): drops every guess. */
  attach(term: Terminal): void {
    this.detach('attach');
    this.term = term;
    this.scrolled = term.onScroll(() => this.draw());
  }

  detach(cause: ResetCause): void {
    this.reset(cause);
    this.scrolled?.dispose();
    this.scrolled = null;
    this.layer?.remove();
    this.layer = null;
    this.term = null;
  }

  setMode(mode: PredictiveEchoMode): void {
    this.predictor.setMode(mode);
    this.draw();
  }

  setLook(look: Look): void {
    this.look = look;
    this.drawn = '';
    this.draw();
  }

  /** Keys typed into the terminal, before they are sent. */
  typed(data: string): void {
    if (!this.term || this.predictor.mode === 'off') return;
    this.predictor.typed(data, screenOf(this.term), performance.now());
    this.changed();
  }

  /** Output was parsed into the terminal. Cheap when nothing is guessed: one length check. */
  parsed(): void {
    if (!this.term || this.predictor.count === 0) return;
    this.predictor.parsed(screenOf(this.term), performance.now());
    this.changed();
  }

  /** Drops every guess (resize, re-attach, connection lost): `cause` says which. */
  reset(cause: ResetCause): void {
    // Nothing guessed and nothing drawn (always so when off): nothing to do.
    if (this.predictor.count === 0 && this.drawn === '') return;
    this.predictor.drop('reset', cause);
    this.changed();
  }

  private changed(): void {
    this.draw();
    this.arm();
  }

  /** One timer for the oldest guess's expiry, while there is one. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const at = this.predictor.expiresAt();
    if (at === null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.predictor.expire(performance.now(), this.term ? screenOf(this.term) : undefined);
      this.changed();
    }, Math.max(0, at - performance.now()) + 1);
  }

  /** The guesses drawn now, for tests and debugging. */
  get shown(): string {
    return this.layer?.textContent ?? '';
  }

  private draw(): void {
    const term = this.term;
    const screen = term?.element?.querySelector<HTMLElement>('.xterm-screen');
    const { cells, cursor } = this.predictor.shown(this.remote());
    const top = term?.buffer.active.viewportY ?? 0;
    const key = cells.length === 0 ? '' : `${top}|${cursor?.row}:${cursor?.col}|${cells.map((c) => `${c.row}:${c.col}:${c.ch}`).join(',')}`;
    if (key === this.drawn && (key === '' || this.layer?.parentElement === screen)) return;
    this.drawn = key;
    if (!term || !screen || cells.length === 0) {
      this.layer?.replaceChildren();
      return;
    }
    const layer = this.layer ?? this.makeLayer();
    if (layer.parentElement !== screen) screen.appendChild(layer);
    // The screen element is exactly cols × rows cells (xterm sizes it so).
    const cw = screen.clientWidth / term.cols;
    const ch = screen.clientHeight / term.rows;
    const t = this.look.theme;
    const spans: HTMLElement[] = [];
    const cell = (row: number, col: number) => {
      const y = row - top;
      if (y < 0 || y >= term.rows) return null;
      const s = document.createElement('span');
      s.style.cssText = `position:absolute;left:${col * cw}px;top:${y * ch}px;width:${cw}px;height:${ch}px;line-height:${ch}px`;
      spans.push(s);
      return s;
    };
    for (const c of cells) {
      const s = cell(c.row, c.col);
      if (!s) continue;
      s.className = 'pane-predict-cell';
      s.textContent = c.ch;
      s.style.color = t.foreground ?? '';
      s.style.background = t.background ?? '';
    }
    if (cursor) {
      const s = cell(cursor.row, cursor.col);
      if (s) {
        s.className = 'pane-predict-cursor';
        s.style.background = t.cursor ?? t.foreground ?? '';
      }
    }
    layer.style.fontFamily = this.look.fontFamily;
    layer.style.fontSize = `${this.look.fontSize}px`;
    layer.replaceChildren(...spans);
  }

  private makeLayer(): HTMLDivElement {
    const l = document.createElement('div');
    l.className = 'pane-predict';
    l.setAttribute('aria-hidden', 'true');
    this.layer = l;
    return l;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.detach('closed');
  }
}
