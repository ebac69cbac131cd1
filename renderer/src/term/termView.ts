// One pane's terminal body: an xterm.js Terminal that outlives React re-renders
// (zoom, float and re-tiling move its element, never rebuild it), attached to the
// pane's PTY stream with snapshot + offsets, acking what it parsed. It shows exactly
// the cols×rows the server placed the pane at (setSize); it never measures or fits.
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { imagesFor, sixelDecoder, sixelMustWait, withImages, withoutImages } from './images';
import type { WebglAddon } from '@xterm/addon-webgl';
import { Terminal } from '@xterm/xterm';
import { AckMeter } from '../../../kits/client/ackMeter';
import { Utf8Carry } from '../../../kits/client/utf8Carry';
import { isSignalKey } from '../../../kits/protocol/flow';
import { FloodRedraw, xtermGate } from './floodRedraw';
import { LocalEcho } from './localEcho';
import { PlumbLinks, type PlumbHost } from './plumbLinks';
import type { Look } from './look';
import type { PredictiveEchoMode } from './predict';
import { StreamCursor } from './streamCursor';
import { WriteScheduler } from './writeScheduler';

/** One scheduler for the page: every pane's xterm writes share its frames (writeScheduler.ts). */
const writes = new WriteScheduler();

/**
 * The WebGL addon (~125 KB of script) is its own chunk, loaded when the first
 * pane is dealt a WebGL context: the first frame draws with the DOM renderer and
 * never waits for it (issue 14: load only what the first frame needs).
 */
let webglModule: typeof import('@xterm/addon-webgl') | null = null;
let webglLoading: Promise<unknown> | null = null;

/** True once the WebGL addon can be used; otherwise starts loading it and calls `then` when it has (never, if it fails to load). */
export function webglReady(then: () => void): boolean {
  if (webglModule) return true;
  webglLoading ??= import('@xterm/addon-webgl').then(
    (m) => (webglModule = m),
    () => undefined, // no WebGL addon: every pane keeps the DOM renderer
  );
  void webglLoading.then(() => webglModule && then());
  return false;
}

export interface TermHost extends PlumbHost {
  attach(pane: number): Promise<{ from: number; snapshot?: { serialized: string; cols: number; rows: number } | undefined }>;
  /**
   * Attaches again with output from `from` on, no snapshot (an offset past the end means the end: what comes next);
   * `atInput`: from where this window's last key reached the program instead, when that is further (pty/attach's atInput).
   */
  attachFrom(pane: number, from: number, atInput?: boolean): Promise<{ from: number }>;
  ack(pane: number, bytes: number): void;
  input(pane: number, data: Uint8Array): void;
  focused(pane: number): void;
  failed(pane: number, message: string): void;
  /** The pane belongs to another host (predictive echo's 'auto' guesses there). */
  remote(pane: number): boolean;
}


const encoder = new TextEncoder();

/**
 * An interrupt key drops this pane's waiting output only when at least this much
 * waits to be parsed: a flood (the scheduler's FLOOD_BATCH is 16 KiB), not the few
 * KiB a prompt or a TUI's redraw leaves queued. Measured under `yes` on 2 cores,
 * ~112 KiB were still parsed after the key (233 ms, issue 35).
 */
export const INTERRUPT_DROP_MIN = 32 << 10;
/** An offset past any stream's end: pty/attach clamps it to the end, so output resumes with what comes next. */
const LIVE_END = Number.MAX_SAFE_INTEGER;

export class TermView {
  readonly el: HTMLDivElement;
  term!: Terminal;
  private webgl: WebglAddon | null = null;
  /** WebGL threw or lost its context for this pane: stay on the DOM renderer. */
  webglFailed = false;
  private opened = false;
  private readonly cursor = new StreamCursor();
  private readonly acks: AckMeter;
  /** Draws this pane a few times a second while it floods (made when the terminal opens). */
  private redraw = new FloodRedraw(null);
  /** The size the server placed this pane at (its PTY's size); null until the first placement. */
  private size: { cols: number; rows: number } | null = null;
  private generation = 0;
  /** attach() calls not finished (their snapshot not yet drawn). */
  private attachesInFlight = 0;
  /** Predictive local echo (settings.json predictiveEcho; off until terminals.ts sets it). */
  readonly echo: LocalEcho;
  /** Something was written since the Terminal was made: a re-attach needs a fresh one. */
  private dirty = false;
  /** Frames waiting for this terminal's sixel decoder (write), in order; null when nothing waits. */
  private sixelHeld: Array<[number, Uint8Array]> | null = null;
  /** The first bytes of a character the last slice ended inside (xterm 6.0 could lose it). */
  private readonly carry = new Utf8Carry();
  /** Bytes written recently; the WebGL budget decays it to rank busy panes. */
  activity = 0;
  disposed = false;

  constructor(
    readonly pane: number,
    private readonly host: TermHost,
    private screenReader: boolean,
    private look: Look,
  ) {
    this.el = document.createElement('div');
    this.el.className = 'term-host';
    this.acks = new AckMeter((n) => this.host.ack(this.pane, n));
    this.echo = new LocalEcho('off', look, () => this.host.remote(this.pane));
    this.create();
  }

  /** A fresh Terminal (first use, and on every re-attach so no stale write can land after the snapshot). */
  private create(): void {
    this.term = new Terminal({
      allowProposedApi: true,
      fontFamily: this.look.fontFamily,
      fontSize: this.look.fontSize,
      scrollback: 5000,
      theme: this.look.theme,
      screenReaderMode: this.screenReader,
      cursorBlink: false,
      // The server's PTY owns line discipline; do not translate.
      convertEol: false,
      // An OSC 8 hyperlink is plumbed like any text clicked: the rules decide what its address opens.
      linkHandler: { activate: (_e, uri) => this.host.plumb(this.pane, uri, undefined), allowNonHttpProtocols: true },
      ...(this.size ?? {}),
    });
    this.term.loadAddon(new Unicode11Addon());
    this.term.unicode.activeVersion = '11';
    // Clicks on what a plumbing rule matches (file:line, tracebacks, URLs, commits) go to the server's plumber; a window it plumbs nothing for keeps plain web links.
    const term = this.term;
    let plain = false;
    this.term.registerLinkProvider(
      new PlumbLinks(term, this.pane, this.host, () => {
        if (plain || term !== this.term) return;
        plain = true;
        term.loadAddon(new WebLinksAddon());
      }),
    );
    this.term.onData((d) => {
      this.echo.typed(d);
      this.typed(encoder.encode(d));
    });
    this.term.onBinary((d) => {
      this.echo.reset('binary');
      this.typed(Uint8Array.from(d, (c) => c.charCodeAt(0) & 0xff));
    });
    this.echo.attach(this.term);
    // Title and bell are not taken from here: the server's screen model sees the same
    // bytes and publishes them as the attrs `title` and `bell` (see attention.ts).
  }

  /** Keys (or a paste) for the program: other panes' floods make way for the echo (writeScheduler ECHO_WAIT_MS). */
  private typed(data: Uint8Array): void {
    // The kernel flushes the PTY's queue on a signal key; what waits for this page goes too.
    const dropping = isSignalKey(data) && this.mayDrop(this.redraw.holding);
    // A flood being dropped stays undrawn until its stream resumes (resumeAtEnd): drawn now, the
    // screen about to be left behind would take the main thread (a DOM redraw of every row) while
    // the new stream's first bytes, the prompt, wait to be taken.
    if (!dropping) this.redraw.release();
    writes.keyed(this.pane);
    this.host.input(this.pane, data);
    if (dropping) void this.resumeAtEnd();
  }

  /**
   * Whether an interrupt key typed now drops this pane's waiting output. Under a flood,
   * the output waiting here (parsed at the page's pace, ~1 MiB/s for `yes` on a loaded
   * machine) would keep drawing for a quarter second after the program stopped; a
   * terminal drops it instead (the kernel flushes the PTY's queue on the signal), and
   * so does this: the waiting bytes are forgotten and the stream resumes where the key
   * reached the program (pty/attach's atInput), so what comes next (the ^C, the shell's
   * prompt) is drawn at once, and drawn even when the program answered before the
   * re-attach was asked. The server's screen model keeps every byte (`pane screen`, the
   * body, a later attach). A remote pane too: its stand-in resumes where the key reached
   * the program on its host (asked of the host), so what was still on its way over the
   * link before the key is not drawn (the host's screen model keeps every byte; decision 042). Not for a full-screen program (alternate
   * screen: it takes the key itself and owns every cell), or a queue below
   * INTERRUPT_DROP_MIN unless the pane is `flooding` (drawn at the flood's pace, floodRedraw.ts): then the
   * flow window's bytes still on their way here are the backlog, however little has
   * arrived (a flood's first seconds: under 32 KiB queued at the key, then ~250 KiB
   * more parsed in ~60 ms).
   */
  private mayDrop(flooding: boolean): boolean {
    if (this.term.buffer.active.type !== 'normal') return false;
    return flooding || writes.queued(this.pane) >= INTERRUPT_DROP_MIN;
  }

  private async resumeAtEnd(): Promise<void> {
    // What this window had taken of the stream: the re-attach resumes where the key reached the program, or here
    // if that is further on; never further than the key (its ^C and the prompt after it are drawn however soon they
    // came), and never before what was taken (a key the server had not written yet redraws nothing).
    const had = this.cursor.offset;
    const gen = this.restartStream();
    try {
      const r = await (had === null ? this.host.attachFrom(this.pane, LIVE_END) : this.host.attachFrom(this.pane, had, true));
      if (gen !== this.generation || this.disposed) return;
      for (const f of this.cursor.start(r.from)) this.write(f.offset, f.data);
    } catch {
      // Attach as usual (a snapshot): the pane's screen, whatever was dropped.
      if (gen === this.generation && !this.disposed) void this.attach();
    } finally {
      if (!this.disposed) this.redraw.release();
    }
  }

  /** Puts the terminal's element into `parent` (a tile or a floating window). */
  mount(parent: HTMLElement): void {
    if (this.disposed) return;
    parent.appendChild(this.el);
    if (!this.opened) this.openTerm();
  }

  unmount(parent: HTMLElement): void {
    if (this.el.parentElement === parent) parent.removeChild(this.el);
  }

  get mounted(): boolean {
    return this.el.isConnected;
  }

  private openTerm(): void {
    this.term.open(this.el);
    // The image addon draws into the opened terminal's layers: given after open (one given before draws nothing).
    withImages(this.term);
    this.redraw.release();
    this.redraw = new FloodRedraw(xtermGate(this.term));
    this.term.textarea?.addEventListener('focus', () => this.host.focused(this.pane));
    this.opened = true;
  }

  /** Forgets the stream as it was (queued writes, offsets, pending acks, echo guesses) before attaching again; returns the new generation. */
  private restartStream(): number {
    const gen = ++this.generation;
    this.sixelHeld = null;
    this.carry.reset();
    writes.drop(this.pane);
    this.cursor.stop();
    this.acks.reset();
    this.echo.reset('attach');
    return gen;
  }

  /** Attaches (or re-attaches) to the pane's stream: snapshot first, then output from its offset. */
  async attach(): Promise<void> {
    const gen = this.restartStream();
    this.attachesInFlight++;
    try {
      const r = await this.host.attach(this.pane);
      if (gen !== this.generation || this.disposed) return;
      // A snapshot the server replayed images into waits for the image addon (output meanwhile is held until the cursor starts).
      if (this.dirty) this.rebuild();
      this.dirty = true;
      if (r.snapshot) await imagesFor(r.snapshot.serialized, this.term);
      if (gen !== this.generation || this.disposed) return;
      if (r.snapshot) {
        this.term.resize(Math.max(2, r.snapshot.cols), Math.max(1, r.snapshot.rows));
        this.term.write(r.snapshot.serialized);
      }
      // The snapshot is drawn at the size it was taken at; then the placed size holds.
      if (this.size) this.setSize(this.size.cols, this.size.rows);
      for (const f of this.cursor.start(r.from)) this.write(f.offset, f.data);
    } catch (e) {
      if (gen === this.generation) this.host.failed(this.pane, e instanceof Error ? e.message : String(e));
    } finally {
      this.attachesInFlight--;
    }
  }

  /** Drops the old Terminal for a new one in the same element (keeps WebGL choice). */
  private rebuild(): void {
    const hadWebgl = this.webgl !== null;
    // The keyboard stays where it was: disposing the old terminal drops its textarea's focus to the page's body,
    // and a window re-attached after its socket dropped would take no keys until clicked.
    const hadFocus = this.el.contains(document.activeElement);
    this.disposeWebgl();
    this.redraw.release();
    this.redraw = new FloodRedraw(null);
    withoutImages(this.term);
    this.term.dispose();
    this.el.replaceChildren();
    this.opened = false;
    this.create();
    if (this.el.isConnected) this.openTerm();
    if (hadWebgl) this.setWebgl(true);
    if (hadFocus && this.opened) this.term.focus();
  }

  /** One output frame from the server. */
  write(offset: number, data: Uint8Array): void {
    // A sixel in a new terminal's first moments waits for its decoder, and the frames after it with it (images.ts).
    if (this.sixelHeld !== null) {
      this.sixelHeld.push([offset, data]);
      return;
    }
    if (sixelMustWait(this.term, data)) {
      const held: Array<[number, Uint8Array]> = [[offset, data]];
      this.sixelHeld = held;
      const gen = this.generation;
      void sixelDecoder(this.term).then(() => {
        if (this.sixelHeld !== held) return; // re-attached meanwhile: these belong to the old stream
        this.sixelHeld = null;
        if (gen !== this.generation || this.disposed) return;
        for (const [o, d] of held) this.write(o, d);
      });
      return;
    }
    if (this.cursor.hold(offset, data)) return;
    const a = this.cursor.accept(offset, data);
    if (a.dropped > 0) this.acks.parsed(a.dropped);
    if (a.data.byteLength === 0) return;
    this.activity += a.data.byteLength;
    const gen = this.generation;
    const redraw = this.redraw;
    // xterm parses one write() whole before it yields to the page, and the server may
    // send up to 1 MiB in a frame: the page's scheduler hands it over in slices of a
    // few ms, round-robin with the other panes, so a flood never holds the main thread
    // or another pane's echo. Ack each slice once parsed: that bounds the backlog.
    // Each slice through the carry: a character a frame or a slice cut in two reaches xterm whole (kits/client/utf8Carry.ts).
    writes.write(
      this.pane,
      a.data,
      (part, done) =>
        this.term.write(this.carry.take(part), () => {
          if (gen === this.generation) {
            this.acks.parsed(part.byteLength);
            this.echo.parsed();
          }
          redraw.parsed(part.byteLength);
          done();
        }),
      () => redraw.flood(),
    );
  }

  /** Connection lost: stop expecting output until the next attach. */
  detached(): void {
    this.generation++;
    this.sixelHeld = null;
    this.carry.reset();
    this.echo.reset('disconnect');
    writes.drop(this.pane);
    this.cursor.stop();
    this.acks.reset();
  }

  /**
   * Shows exactly `cols`×`rows`: the server's placement, which is also its PTY's
   * size. Called synchronously as the layout event is applied, before any output
   * drawn for the new size can be written.
   */
  setSize(cols: number, rows: number): void {
    this.size = { cols, rows };
    if (this.term.cols === cols && this.term.rows === rows) return;
    this.redraw.release();
    this.echo.reset('resize');
    this.term.resize(cols, rows);
  }

  focus(): void {
    if (this.opened) this.term.focus();
  }

  /**
   * New font, size or colours (settings.json edited, or zoom keys), applied live.
   * No fit here: the new cell is measured (terminals.ts applyLook), the window
   * reports it, and the server's new placements size this terminal through setSize.
   */
  setLook(look: Look): void {
    this.look = look;
    const o = this.term.options;
    if (o.fontFamily !== look.fontFamily) o.fontFamily = look.fontFamily;
    if (o.fontSize !== look.fontSize) o.fontSize = look.fontSize;
    o.theme = look.theme;
    this.echo.setLook(look);
  }

  setPredictiveEcho(mode: PredictiveEchoMode): void {
    this.echo.setMode(mode);
  }

  setScreenReader(on: boolean): void {
    this.screenReader = on;
    this.term.options.screenReaderMode = on;
  }

  /** WebGL for this pane on or off; any failure leaves the DOM renderer drawing. */
  setWebgl(on: boolean): boolean {
    if (!on) {
      this.disposeWebgl();
      return false;
    }
    if (this.webgl || !this.opened || this.webglFailed || !webglModule) return this.webgl !== null;
    try {
      const a = new webglModule.WebglAddon();
      a.onContextLoss(() => {
        // The browser took the context back (too many, or a GPU reset): DOM from now on.
        this.webglFailed = true;
        this.disposeWebgl();
      });
      this.term.loadAddon(a);
      this.webgl = a;
      return true;
    } catch {
      this.webglFailed = true;
      this.webgl = null;
      return false;
    }
  }

  /** Attaches asked and not yet drawn (a snapshot on its way, or its images): for tests and debugging. */
  get attaching(): boolean {
    return this.attachesInFlight > 0;
  }

  /** Drawing is held while this pane floods (floodRedraw.ts): for tests and debugging. */
  get redrawHeld(): boolean {
    return this.redraw.holding;
  }

  get usesWebgl(): boolean {
    return this.webgl !== null;
  }

  private disposeWebgl(): void {
    const a = this.webgl;
    this.webgl = null;
    try {
      a?.dispose();
    } catch {
      // Disposing a lost context can throw; the DOM renderer takes over regardless.
    }
  }

  dispose(): void {
    this.disposed = true;
    this.redraw.release();
    this.generation++;
    writes.drop(this.pane);
    // The pane is gone on the server too: an ack now would only earn a "not found".
    this.acks.reset();
    this.disposeWebgl();
    this.echo.dispose();
    withoutImages(this.term);
    this.term.dispose();
    this.el.remove();
  }
}
