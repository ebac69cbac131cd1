// The messages between the screen host (main thread) and the screen worker, as
// plain data: one type each way, so each side is one loop over one switch.

export type ToWorker =
  | { type: 'open'; pane: number; cols: number; rows: number }
  | { type: 'write'; pane: number; data: Uint8Array }
  | { type: 'resize'; pane: number; cols: number; rows: number }
  /** `history`: most scrollback lines to include (default: all the screen keeps). */
  | { type: 'snapshot'; pane: number; id: number; history?: number; textOnly?: boolean }
  | { type: 'close'; pane: number }
  /** The window's cell size in CSS pixels (its viewport report): how many rows an image covers (screenImages.ts). */
  | { type: 'cell'; w: number; h: number }
  /**
   * Writes the pane's screen + last `history` lines, serialized with attributes and
   * gzipped: full history blocks as `BLOCKPREFIX-…gz` files beside `file` (each written
   * once), the rest to `file` (unless nothing changed since the last save); all atomically.
   */
  | { type: 'save'; pane: number; id: number; history: number; file: string; blockPrefix: string }
  /** A full collection of the worker's isolate, answered `collected` (before the daemon trims its heap: decision 051). */
  | { type: 'collect'; id: number };

/** The screen state the worker knows; the host adds the stream offset. */
export interface WorkerSnapshot {
  cols: number;
  rows: number;
  text: string;
  serialized: string;
  cursor: { x: number; y: number };
  title: string;
}

export type FromWorker =
  /** Bytes of this pane's output parsed since the last report (drives the backlog bound). */
  | { type: 'parsed'; pane: number; bytes: number }
  | { type: 'title'; pane: number; title: string }
  /** BEL, or a desktop notification the program asked for (OSC 9, OSC 99, OSC 777 notify) with its text; the last one per turn. */
  | { type: 'bell'; pane: number; via?: 'osc9' | 'osc99' | 'osc777'; text?: string }
  /** OSC 7 (the shell's working directory), the raw URI; the last one per turn. */
  | { type: 'cwd'; pane: number; uri: string }
  | { type: 'snapshot'; id: number; pane: number; snapshot: WorkerSnapshot }
  | { type: 'failed'; id: number; pane: number; message: string }
  /**
   * `file`: the file (name, beside the one asked for) holding the newest rows and the
   * screen — an earlier save's when nothing changed since; `blocks`: the block files
   * (oldest first) before it; `bytes` of all of them, `wrote` of those written by this save.
   */
  | { type: 'saved'; id: number; pane: number; file: string; bytes: number; wrote: number; lines: number; blocks: string[] }
  /**
   * The worker's heap in use plus the external memory its objects own (bytes), before and after the collection;
   * `parseCollections`: the collections it made by itself so far, one per parseCollectBytes parsed.
   */
  | { type: 'collected'; id: number; usedBefore: number; usedAfter: number; parseCollections: number };

export interface WorkerOptions {
  /** Rows of history each pane keeps in all (a short live part in xterm, the rest compact). */
  scrollback: number;
  /** Most bytes `text` + `serialized` may take as JSON; older scrollback is left out to fit. */
  snapshotBytes: number;
  /** Bytes parsed between the worker's own collections (PARSE_COLLECT_BYTES; 0: none). */
  parseCollectBytes: number;
}
