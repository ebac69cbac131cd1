// Images in the server's screen model (issue 36.5). The window draws sixel and
// iTerm2 inline images with xterm.js's image addon, but the headless screen model
// the server keeps parses them as nothing: a window attaching later got the text
// without the picture, and the model's cursor stayed where the image began while
// the window's moved below it. Here, in the screen worker, each image sequence is
// kept (bounded per pane) with a marker on the line it was drawn at, the cursor is
// moved as the addon moves it (one line feed for each cell row the image covers
// but the last, back to its column), and a snapshot replays the images still on
// the screen at their place, after the serialized text.
//
// An image's height in cell rows needs the window's cell size (ScreenImages.cell,
// from the window's viewport report; the addon's own 7×14 fallback until then).
// Limits: MAX_KEPT_IMAGES and MAX_KEPT_IMAGE_BYTES per pane (oldest dropped first; sized to
// fit an attach reply beside the screen's text);
// a sequence over MAX_IMAGE_SEQUENCE is not kept (the window's addon shows its own
// placeholder for what it will not draw). Cleared with the screen (ED 2/3, RIS) and
// with the alternate screen it was drawn on. Images scrolled into history are not
// replayed (a snapshot places images by cursor position, which reaches the screen only).
import type { IMarker, Terminal } from '@xterm/headless';

/** Images one pane keeps for late attach: a screenful of thumbnails, or a few pictures. */
export const MAX_KEPT_IMAGES = 32;
/**
 * Encoded bytes of images one pane keeps: they ride in every attach snapshot, whose
 * text and serialized state share one reply frame (SNAPSHOT_BYTES, 3 MiB of
 * MAX_JSON_FRAME's 4): a third of it for pictures (a few thumbnails, or one
 * screen-sized sixel), the rest for the screen and its history.
 */
export const MAX_KEPT_IMAGE_BYTES = 1 << 20;
/** One image sequence kept at most (encoded): all a pane keeps; a larger one is drawn by the windows open now, not kept. */
export const MAX_IMAGE_SEQUENCE = MAX_KEPT_IMAGE_BYTES;
/** The cell size until a window reports its own: the image addon's fallback (CSS px). */
export const DEFAULT_CELL = { w: 7, h: 14 } as const;

interface Kept {
  marker: IMarker;
  x: number;
  alt: boolean;
  seq: string;
}

/** What the headless core offers that its typings do not: the addon moves the cursor through the same. */
interface Core {
  _core: { _inputHandler: { lineFeed(): void }; buffer: { x: number } };
}

export class ScreenImages {
  private kept: Kept[] = [];
  private bytes = 0;
  /** Images seen but not kept (too large, or a height that could not be read). */
  notKept = 0;

  constructor(
    private readonly term: Terminal,
    private readonly cell: () => { w: number; h: number },
  ) {
    const p = term.parser;
    p.registerDcsHandler({ final: 'q' }, (data, params) => this.guard(() => this.sixel(data, params)));
    p.registerOscHandler(1337, (data) => this.guard(() => this.inline(data)));
    // The screen cleared (ED 2: the screen; ED 3: the history too; RIS: all): its images go with it. The default handler still runs.
    p.registerCsiHandler({ final: 'J' }, (params) => {
      const mode = params[0] ?? 0;
      if (mode === 2 || mode === 3) this.clear(mode === 3 ? 'all' : 'screen');
      return false;
    });
    p.registerEscHandler({ final: 'c' }, () => {
      this.clear('all');
      return false;
    });
    // Leaving the alternate screen discards it, and what was drawn on it.
    term.buffer.onBufferChange((b) => {
      if (b.type === 'normal') this.drop((k) => k.alt);
    });
  }

  /** A handler never throws into the parser: an image it cannot read is not kept, and the stream goes on. */
  private guard(f: () => boolean): boolean {
    try {
      return f();
    } catch {
      this.notKept++;
      return true;
    }
  }

  private sixel(data: string, params: (number | number[])[]): boolean {
    // Raster attributes ("Pan;Pad;Ph;Pv) give the height img2sixel and chafa draw; without them, six pixels a band.
    const raster = /^\s*"\d+;\d+;(\d+);(\d+)/.exec(data);
    const height = raster ? Number(raster[2]) : (data.match(/-/g)?.length ?? 0) * 6 + 6;
    const head = params.map((x) => (Array.isArray(x) ? x.join(':') : String(x))).join(';');
    this.place(`\x1bP${head}q${data}\x1b\\`, height);
    return true;
  }

  private inline(data: string): boolean {
    if (!data.startsWith('File=')) return false;
    const colon = data.indexOf(':');
    if (colon < 0) return true;
    const args = new Map(
      data
        .slice(5, colon)
        .split(';')
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] as const),
    );
    if (args.get('inline') !== '1') return true; // a file sent to download: nothing drawn
    const px = this.inlineHeight(args, data.slice(colon + 1));
    if (px === null) {
      this.notKept++;
      return true;
    }
    this.place(`\x1b]1337;${data}\x07`, px);
    return true;
  }

  /** An inline image's height in pixels: as its arguments say (cells, px, or auto: the picture's own, scaled to a given width). */
  private inlineHeight(args: Map<string, string>, b64: string): number | null {
    const cell = this.cell();
    const h = args.get('height') ?? 'auto';
    const w = args.get('width') ?? 'auto';
    const inPx = (v: string, unit: number, whole: number): number | null => {
      if (/^\d+$/.test(v)) return Number(v) * unit;
      if (/^\d+px$/.test(v)) return Number(v.slice(0, -2));
      if (/^\d+%$/.test(v)) return (Number(v.slice(0, -1)) / 100) * whole;
      return null;
    };
    const fixed = inPx(h, cell.h, this.term.rows * cell.h);
    if (fixed !== null) return fixed;
    const size = pictureSize(Buffer.from(b64.slice(0, 64 << 10), 'base64'));
    if (!size) return null;
    const width = inPx(w, cell.w, this.term.cols * cell.w);
    return width === null ? size.h : (size.h * width) / size.w;
  }

  /** Keeps `seq`, drawn at the cursor `heightPx` tall, and moves the cursor as the window's addon does. */
  private place(seq: string, heightPx: number): void {
    const rows = Math.max(1, Math.ceil(heightPx / this.cell().h));
    const buf = this.term.buffer.active;
    const x = buf.cursorX;
    // The alternate screen takes no markers, and has no history to scroll into: its row is its place.
    const marker = this.term.registerMarker(0) ?? (buf.type === 'alternate' ? fixedMarker(buf.baseY + buf.cursorY) : undefined);
    if (seq.length <= MAX_IMAGE_SEQUENCE && marker) {
      this.kept.push({ marker, x, alt: buf.type === 'alternate', seq });
      this.bytes += seq.length;
      this.evict();
    } else {
      marker?.dispose();
      this.notKept++;
    }
    // The addon's sixel scrolling: a line feed for each row but the last, then back to the image's column.
    const core = (this.term as unknown as Core)._core;
    for (let i = 1; i < rows; i++) core._inputHandler.lineFeed();
    core.buffer.x = x;
  }

  private evict(): void {
    this.drop((k) => k.marker.isDisposed);
    while (this.kept.length > MAX_KEPT_IMAGES || this.bytes > MAX_KEPT_IMAGE_BYTES) this.forget(this.kept.shift()!);
  }

  private forget(k: Kept): void {
    this.bytes -= k.seq.length;
    k.marker.dispose();
  }

  private drop(pred: (k: Kept) => boolean): void {
    const keep: Kept[] = [];
    for (const k of this.kept) {
      if (pred(k)) this.forget(k);
      else keep.push(k);
    }
    this.kept = keep;
  }

  private clear(what: 'screen' | 'all'): void {
    const buf = this.term.buffer.active;
    const alt = buf.type === 'alternate';
    this.drop((k) => k.alt === alt && (what === 'all' || k.marker.line >= buf.baseY));
  }

  /** Encoded bytes kept now: at most MAX_KEPT_IMAGE_BYTES, so a snapshot's replay fits its reply. */
  get keptBytes(): number {
    return this.bytes;
  }

  /** How many images are kept now (for tests and figures). */
  get count(): number {
    this.drop((k) => k.marker.isDisposed);
    return this.kept.length;
  }

  /**
   * The kept images on the screen now, each drawn again where it was (the cursor saved
   * and put back around them): appended to a snapshot's serialized text, so a window
   * attaching later draws them as the first did.
   */
  replay(): string {
    const buf = this.term.buffer.active;
    const alt = buf.type === 'alternate';
    let out = '';
    for (const k of this.kept) {
      if (k.marker.isDisposed || k.alt !== alt || k.marker.line < buf.baseY) continue;
      out += `\x1b7\x1b[${k.marker.line - buf.baseY + 1};${k.x + 1}H${k.seq}\x1b8`;
    }
    return out;
  }
}

/** A place on the alternate screen, which does not scroll into history: a row that stays until the screen is left. */
function fixedMarker(line: number): IMarker {
  let disposed = false;
  return {
    id: -1,
    line,
    get isDisposed() {
      return disposed;
    },
    dispose() {
      disposed = true;
    },
    onDispose: () => ({ dispose: () => undefined }),
  } as IMarker;
}

/** A PNG's, GIF's or JPEG's size in pixels from its first bytes; null for anything else. */
export function pictureSize(b: Buffer): { w: number; h: number } | null {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('ascii', 12, 16) === 'IHDR') return { w: b.readUInt32BE(16), h: b.readUInt32BE(20) };
  if (b.length >= 10 && b.toString('ascii', 0, 3) === 'GIF') return { w: b.readUInt16LE(6), h: b.readUInt16LE(8) };
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    // JPEG: walk the segments to a start-of-frame (SOF0..SOF15 but DHT, JPG, DAC).
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const m = b[i + 1]!;
      const len = b.readUInt16BE(i + 2);
      if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) return { w: b.readUInt16BE(i + 7), h: b.readUInt16BE(i + 5) };
      i += 2 + len;
    }
  }
  return null;
}
