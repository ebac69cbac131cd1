// Redraws a flooding pane a few times a second instead of every frame (issue 14,
// decision 024). Without a GPU, xterm's DOM renderer rebuilds every row of a
// scrolling pane on each frame; in the profile that was most of the page's CPU during
// a flood, far more than parsing, and it took the main thread from other panes'
// echoes and the CPU from the PTY and server feeding the flood. A flood cannot be read
// as it scrolls, so while one lasts its pane is drawn every FLOOD_REDRAW_MS; the moment
// it ends, or a key is typed into it, or it is resized, it is drawn at once and at the
// full frame rate again. Parsing is never held: only drawing waits.
//
// xterm.js has no public API to hold its renderer. It has one inside: the render
// service pauses itself while the terminal is scrolled out of view (an
// IntersectionObserver) and redraws everything when it shows again. `xtermGate` uses
// that switch; test/e2e/stream.test.ts fails if the hold never engages, so an xterm
// upgrade that moves the members it needs fails a test instead of silently drawing
// every frame.
import type { Terminal } from '@xterm/xterm';

/** A flooding pane's redraw period: 10 a second, ~6× fewer DOM rebuilds than 60 Hz, still visibly moving. */
export const FLOOD_REDRAW_MS = 100;

/** The renderer switch the throttle works: hold drawing, draw the whole screen once, let go. */
export interface RenderGate {
  /** Stops drawing (until `draw` or `free`). False when drawing is already stopped by someone else (the pane is out of view). */
  hold(): boolean;
  /** While held: draws everything that changed, once, on the next frame; stays held. */
  draw(): void;
  /** Draws at once and draws every frame again. */
  free(): void;
}

export interface RedrawClock {
  every(fn: () => void, ms: number): () => void;
}

const realClock: RedrawClock = {
  every(fn, ms) {
    const t = setInterval(fn, ms);
    return () => clearInterval(t);
  },
};

export class FloodRedraw {
  private held = false;
  private stopTimer: (() => void) | null = null;
  /** Bytes parsed since the last tick: none means the flood is over. */
  private fresh = 0;

  constructor(
    private readonly gate: RenderGate | null,
    private readonly clock: RedrawClock = realClock,
    private readonly periodMs = FLOOD_REDRAW_MS,
  ) {}

  /** The pane is flooding (a flood-sized batch went to xterm): draw it every `periodMs` from now on. */
  flood(): void {
    if (!this.gate) return;
    if (!this.held) {
      if (!this.gate.hold()) return;
      this.held = true;
      this.fresh = 0;
      this.stopTimer = this.clock.every(() => this.tick(), this.periodMs);
    } else {
      // Someone else may have let the renderer go meanwhile (the pane came back into view).
      this.gate.hold();
    }
  }

  /** `n` bytes of this pane were parsed. */
  parsed(n: number): void {
    this.fresh += n;
  }

  /** Draw now and every frame again: a key was typed here, the pane was resized, or it goes away. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    this.stopTimer?.();
    this.stopTimer = null;
    this.gate!.free();
  }

  get holding(): boolean {
    return this.held;
  }

  private tick(): void {
    if (this.fresh === 0) return this.release();
    this.fresh = 0;
    this.gate!.draw();
  }
}

/** The shape of xterm's render service this file relies on (xterm.js 6, src/browser/services/RenderService.ts). */
interface XtermRenderService {
  _isPaused: boolean;
  _needsFullRefresh: boolean;
  _pausedResizeTask?: { flush(): void };
  refreshRows(start: number, end: number): void;
  handleSelectionChanged(start: [number, number] | undefined, end: [number, number] | undefined, columnSelectMode: boolean): void;
}

/** xterm's render service, if it still has the members `xtermGate` needs. */
export function renderServiceOf(term: Terminal): XtermRenderService | null {
  const rs = (term as unknown as { _core?: { _renderService?: Partial<XtermRenderService> } })._core?._renderService;
  if (!rs || typeof rs._isPaused !== 'boolean' || typeof rs._needsFullRefresh !== 'boolean' || typeof rs.refreshRows !== 'function' || typeof rs.handleSelectionChanged !== 'function') return null;
  return rs as XtermRenderService;
}

/** The gate over an opened xterm Terminal; null (draw every frame, as xterm does) if its internals moved. */
export function xtermGate(term: Terminal): RenderGate | null {
  const rs = renderServiceOf(term);
  if (!rs) return null;
  // The selection's redraw: xterm asks for it on every scroll (to move a selection with
  // its text), and the DOM renderer answers with a full redraw of its own, outside the
  // pause and on top of the frame's usual one. With no selection before or after there is
  // nothing for it to move, so it is skipped (every scrolling frame was drawn twice). While
  // held it waits with the rest; the newest request is replayed on drawing.
  const selectionChanged = rs.handleSelectionChanged.bind(rs);
  let held = false;
  let selected = false;
  let selection: Parameters<XtermRenderService['handleSelectionChanged']> | null = null;
  rs.handleSelectionChanged = (...args) => {
    const now = args[0] !== undefined && args[1] !== undefined;
    if (!now && !selected && selection === null) return;
    selected = now;
    if (!held) return selectionChanged(...args);
    selection = args;
    rs._needsFullRefresh = true;
  };
  const all = () => {
    rs._pausedResizeTask?.flush();
    rs._needsFullRefresh = false;
    rs.refreshRows(0, term.rows - 1);
    const s = selection;
    selection = null;
    if (s) selectionChanged(...s);
  };
  return {
    hold() {
      if (rs._isPaused) return false;
      rs._isPaused = held = true;
      return true;
    },
    draw() {
      if (!rs._needsFullRefresh) return;
      rs._isPaused = false;
      all();
      rs._isPaused = true;
    },
    free() {
      rs._isPaused = held = false;
      all();
    },
  };
}
