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
// that switch; test/e2e/stream.test.ts fails if the hold never engages, or if the
// textarea still follows every write while it holds (the quieting of xterm's other
// per-write DOM work, below), so an xterm upgrade that moves the members these need
// fails a test instead of silently drawing every frame.
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

/** The parts of xterm's core (xterm.js 6, src/browser/CoreBrowserTerminal.ts) a held flood quiets besides its renderer; each optional. */
interface XtermCore {
  _syncTextArea?(): void;
  _viewport?: { _sync(ydisp?: number): void; queueSync(ydisp?: number): void };
  _selectionService?: { refresh(isLinuxMouseSelection?: boolean): void; readonly hasSelection: boolean };
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
  // The scroll bar and the selection's bookkeeping: on every line a flood scrolls, xterm
  // resizes its scroll area (a DOM write) and asks for two animation frames (one to sync
  // the scroll area again, one to redraw the selection). Held, those alone kept the page
  // drawing a frame every vsync, and a key's echo, parsed a few ms after one, waited most
  // of 16 ms for the next (parsed → frame: 13.6 ms median beside a flood, 1.2 idle). While
  // held they wait with the rest: the scroll area is synced when the pane is drawn, and
  // with no selection before or after there is no selection to redraw.
  const core = (term as unknown as { _core?: XtermCore })._core;
  const vp = core?._viewport;
  const ss = core?._selectionService;
  /** Work put off while held, done once when the pane is next drawn or let go. */
  const pending = new Set<() => void>();
  if (vp && typeof vp._sync === 'function' && typeof vp.queueSync === 'function') {
    const ownSync = vp._sync.bind(vp);
    const queueSync = vp.queueSync.bind(vp);
    // Done then as the last put-off sync would have been: to the buffer's scroll position now.
    const sync = () => ownSync();
    vp._sync = (ydisp?: number) => (held ? void pending.add(sync) : ownSync(ydisp));
    vp.queueSync = (ydisp?: number) => (held && ydisp === undefined ? void pending.add(sync) : queueSync(ydisp));
  }
  // And the hidden textarea (where an IME composes) follows the cursor: a style change, so a
  // frame, on every write a flood moves the cursor in. Held, it follows when the pane is drawn.
  if (core && typeof core._syncTextArea === 'function') {
    const syncTextArea = core._syncTextArea.bind(core);
    core._syncTextArea = () => (held ? void pending.add(syncTextArea) : syncTextArea());
  }
  if (ss && typeof ss.refresh === 'function' && typeof ss.hasSelection === 'boolean') {
    const refresh = ss.refresh.bind(ss);
    ss.refresh = (linux?: boolean) => (held && !ss.hasSelection && !selected && selection === null ? undefined : refresh(linux));
  }
  const all = () => {
    rs._pausedResizeTask?.flush();
    rs._needsFullRefresh = false;
    rs.refreshRows(0, term.rows - 1);
    const s = selection;
    selection = null;
    if (s) selectionChanged(...s);
    for (const f of pending) f();
    pending.clear();
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
