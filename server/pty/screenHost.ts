// The main-thread side of the screen model: one worker for all panes, fed each
// pane's output in stream order, answering snapshots whose `offset` is exactly
// the stream offset of the bytes parsed into them (attach = snapshot + stream from there).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { MAX_JSON_FRAME } from '../../kits/protocol/envelope';
import type { ScreenSnapshot } from '../../kits/protocol/pty';
import type { FromWorker, ToWorker, WorkerOptions } from './screenProtocol';

/** Rows of history each pane's screen keeps (the newest few hundred live in xterm, the rest compact: see screenHistory.ts). */
export const SCREEN_SCROLLBACK = 10_000;
/**
 * The screen worker's young generation, in MiB. Parsing output makes short-lived
 * garbage fast, and V8 lets the young generation grow well past this for it, which
 * then stays in the process's RSS; at 8 MiB a worker filling 10 full panes grew
 * ~40 MiB instead of ~66 at the same parse speed (docs/decisions/021-compact-history.md).
 */
export const SCREEN_WORKER_YOUNG_MB = 8;

/**
 * Bytes of output the worker parses between full collections of its own isolate. A flood's
 * garbage that outlives the young generation piles up in the old one until V8's next
 * limit, which it sets at a few times what was live: 20 panes printing 10,000 lines each
 * grew the worker to ~80 MiB of pages for ~17 live, the daemon's peak to 225-230 MiB. One
 * collection per 8 MiB (15-21 ms, about once a second at the worker's pace) held that
 * peak to 192-213 MiB for 2-4% more parse time; every 4 MiB cost twice the time for no
 * lower peak (decision 051).
 */
export const PARSE_COLLECT_BYTES = 8 << 20;
/** A snapshot's text + serialized state must fit one reply frame; a quarter is left for the rest of the reply. */
export const SNAPSHOT_BYTES = (MAX_JSON_FRAME * 3) / 4;

export interface ScreenHostOptions {
  /**
   * The worker script. Default: screenWorker.mjs beside this module when bundled
   * (the build emits dist/screenWorker.mjs), or screenWorker.ts when run from source.
   * A .ts path is bundled on the fly with esbuild (a devDependency), once per process.
   */
  workerPath?: string | URL;
  scrollback?: number;
  /** Defaults to SNAPSHOT_BYTES. */
  snapshotBytes?: number;
  /** Defaults to PARSE_COLLECT_BYTES; 0 turns the worker's own collections off. */
  parseCollectBytes?: number;
}

/** What a save made: the file with the newest rows (an earlier one when nothing changed), bytes of all the history's files, bytes written this time, rows, and the block files before the file. */
export interface SavedHistory {
  file: string;
  bytes: number;
  wrote: number;
  lines: number;
  blocks: string[];
}

export interface ScreenPaneOptions {
  cols: number;
  rows: number;
  /** Stream offset of the first byte this pane's screen will be sent (0 for a new pane). */
  offset?: number;
  onTitle?: (title: string) => void;
  /** BEL, or (with `via`) a desktop notification the program asked for, with its text. */
  onBell?: (via?: 'osc9' | 'osc99' | 'osc777', text?: string) => void;
  /** The program reported its working directory (OSC 7): the raw file:// URI. */
  onCwd?: (uri: string) => void;
  /** Bytes sent but not yet parsed, reported as the worker catches up. */
  onBacklog?: (backlog: number) => void;
}

interface PaneState {
  o: ScreenPaneOptions;
  /** Stream offset one past the last byte sent to the worker. */
  sent: number;
  backlog: number;
}

/**
 * What a collection of the worker's isolate did: the memory it held, in bytes — its JavaScript heap in use plus
 * the external memory its objects own (ArrayBuffers: xterm's rows, the chunks it parsed), freed with them — and the
 * collections the worker made by itself so far (PARSE_COLLECT_BYTES).
 */
export interface WorkerCollection {
  usedBefore: number;
  usedAfter: number;
  parseCollections: number;
}

interface Pending {
  pane: number;
  offset: number;
  resolve: (s: ScreenSnapshot) => void;
  reject: (e: Error) => void;
  /** For saves: what the worker reported. */
  saved?: (r: SavedHistory) => void;
}

export class ScreenHost {
  private worker: Worker | null = null;
  private failure: Error | null = null;
  private disposed = false;
  private panes = new Map<number, PaneState>();
  private pending = new Map<number, Pending>();
  /** Collections asked of the worker (collect()), by id. */
  private collects = new Map<number, (r: WorkerCollection | null) => void>();
  private nextId = 1;

  constructor(private readonly o: ScreenHostOptions = {}) {}

  /** Starts a screen for a pane (replacing any previous one of that number). */
  open(pane: number, o: ScreenPaneOptions): void {
    this.panes.set(pane, { o, sent: o.offset ?? 0, backlog: 0 });
    this.post({ type: 'open', pane, cols: o.cols, rows: o.rows });
  }

  /** Output bytes starting at stream offset `from` (a jump past the last end is a gap the screen skips). */
  write(pane: number, data: Uint8Array, from?: number): void {
    const p = this.panes.get(pane);
    if (!p || data.byteLength === 0) return;
    p.sent = (from ?? p.sent) + data.byteLength;
    if (this.failure || this.disposed) return;
    p.backlog += data.byteLength;
    // A copy of exactly these bytes, handed over without a second copy: posting a
    // Buffer view would clone its whole (often pooled) backing store.
    const own = new Uint8Array(data);
    this.post({ type: 'write', pane, data: own }, [own.buffer]);
  }

  resize(pane: number, cols: number, rows: number): void {
    if (this.panes.has(pane)) this.post({ type: 'resize', pane, cols, rows });
  }

  /** The window's cell size in CSS px (its viewport report): how many rows an image a program prints covers. */
  cellSize(w: number, h: number): void {
    this.post({ type: 'cell', w, h });
  }

  /** Bytes of this pane's output sent to the worker and not yet parsed. */
  backlog(pane: number): number {
    return this.panes.get(pane)?.backlog ?? 0;
  }

  /**
   * The pane's screen after every byte sent so far; `offset` says where the
   * stream continues. `history` caps the scrollback lines included (cost grows with them).
   */
  snapshot(pane: number, o: { history?: number; textOnly?: boolean } = {}): Promise<ScreenSnapshot> {
    const p = this.panes.get(pane);
    if (!p) return Promise.reject(new Error(`pane ${pane} has no screen`));
    if (this.failure) return Promise.reject(this.failure);
    if (this.disposed) return Promise.reject(new Error('screen host is disposed'));
    const id = this.nextId++;
    return new Promise<ScreenSnapshot>((resolve, reject) => {
      this.pending.set(id, { pane, offset: p.sent, resolve, reject });
      this.post({ type: 'snapshot', pane, id, ...(o.history !== undefined ? { history: o.history } : {}), ...(o.textOnly ? { textOnly: true } : {}) });
    });
  }

  /**
   * Has the worker write the pane's screen and last `history` lines of scrollback
   * (serialized with attributes, gzipped) atomically: the history's full blocks as
   * `blockPrefix-…` files beside `file` (only those not written before), the rest
   * to `file`. The whole cost stays on the worker.
   */
  saveScrollback(pane: number, file: string, history: number, blockPrefix = `h-${pane}`): Promise<SavedHistory> {
    if (!this.panes.has(pane)) return Promise.reject(new Error(`pane ${pane} has no screen`));
    if (this.failure) return Promise.reject(this.failure);
    if (this.disposed) return Promise.reject(new Error('screen host is disposed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { pane, offset: 0, resolve: () => undefined, reject, saved: resolve });
      this.post({ type: 'save', pane, id, history, file, blockPrefix });
    });
  }

  /** Forgets a pane's screen. */
  close(pane: number): void {
    if (!this.panes.delete(pane)) return;
    this.post({ type: 'close', pane });
    for (const [id, q] of this.pending) {
      if (q.pane !== pane) continue;
      this.pending.delete(id);
      q.reject(new Error(`pane ${pane}'s screen was closed`));
    }
  }

  /**
   * A full collection of the worker's isolate, after everything posted before it (the
   * daemon's heap trim waits for it: decision 051), with its heap in use before and
   * after. Null at once when no worker runs; null too for a worker that fails or is
   * disposed meanwhile: it has nothing left to collect.
   */
  collect(): Promise<WorkerCollection | null> {
    if (!this.worker || this.failure || this.disposed) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.collects.set(id, resolve);
      this.post({ type: 'collect', id });
    });
  }

  /** Stops the worker; pending snapshots fail, and pending collections answer null. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.rejectAll(new Error('screen host is disposed'));
    void this.worker?.terminate();
    this.worker = null;
  }

  private post(m: ToWorker, transfer?: ArrayBuffer[]): void {
    if (this.failure || this.disposed) return;
    const w = this.worker ?? this.start();
    if (w) w.postMessage(m, transfer);
  }

  private start(): Worker | null {
    try {
      const w = new Worker(runnableWorker(this.o.workerPath ?? defaultWorkerPath()), {
        workerData: { scrollback: this.o.scrollback ?? SCREEN_SCROLLBACK, snapshotBytes: this.o.snapshotBytes ?? SNAPSHOT_BYTES, parseCollectBytes: this.o.parseCollectBytes ?? PARSE_COLLECT_BYTES } satisfies WorkerOptions,
        resourceLimits: { maxYoungGenerationSizeMb: SCREEN_WORKER_YOUNG_MB },
      });
      w.on('message', (m: FromWorker) => this.receive(m));
      w.on('error', (e) => this.fail(e));
      w.on('exit', (code) => {
        if (!this.disposed) this.fail(new Error(`screen worker exited with code ${code}`));
      });
      this.worker = w;
      return w;
    } catch (e) {
      this.fail(e as Error);
      return null;
    }
  }

  private receive(m: FromWorker): void {
    switch (m.type) {
      case 'parsed': {
        const p = this.panes.get(m.pane);
        if (!p) return;
        p.backlog = Math.max(0, p.backlog - m.bytes);
        p.o.onBacklog?.(p.backlog);
        return;
      }
      case 'title':
        return this.panes.get(m.pane)?.o.onTitle?.(m.title);
      case 'bell':
        return this.panes.get(m.pane)?.o.onBell?.(m.via, m.text);
      case 'cwd':
        return this.panes.get(m.pane)?.o.onCwd?.(m.uri);
      case 'snapshot': {
        const q = this.pending.get(m.id);
        if (!q) return;
        this.pending.delete(m.id);
        q.resolve({ pane: m.pane, offset: q.offset, ...m.snapshot });
        return;
      }
      case 'saved': {
        const q = this.pending.get(m.id);
        if (!q) return;
        this.pending.delete(m.id);
        q.saved?.({ file: m.file, bytes: m.bytes, wrote: m.wrote, lines: m.lines, blocks: m.blocks });
        return;
      }
      case 'collected':
        this.collects.get(m.id)?.({ usedBefore: m.usedBefore, usedAfter: m.usedAfter, parseCollections: m.parseCollections });
        this.collects.delete(m.id);
        return;
      case 'failed': {
        const q = this.pending.get(m.id);
        if (!q) return;
        this.pending.delete(m.id);
        q.reject(new Error(`screen snapshot of pane ${m.pane} failed: ${m.message}`));
        return;
      }
    }
  }

  /**
   * A dead worker must not leave panes paused on a backlog that will never
   * drain: report every backlog as empty, and fail snapshots with the cause.
   */
  private fail(e: Error): void {
    if (this.failure || this.disposed) return;
    this.failure = new Error(`screen worker failed: ${e.message}`, { cause: e });
    this.worker = null;
    this.rejectAll(this.failure);
    for (const p of this.panes.values()) {
      p.backlog = 0;
      p.o.onBacklog?.(0);
    }
  }

  private rejectAll(e: Error): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const q of all) q.reject(e);
    const collects = [...this.collects.values()];
    this.collects.clear();
    for (const done of collects) done(null);
  }
}

function defaultWorkerPath(): URL {
  const here = import.meta.url;
  if (typeof here !== 'string') throw new Error('screen host: no import.meta.url in this bundle; pass workerPath');
  return new URL(here.endsWith('.ts') ? './screenWorker.ts' : './screenWorker.mjs', here);
}

const built = new Map<string, string>();

/**
 * A path Node can run as a worker: a .ts source (a checkout run from source: tests,
 * `vitest`) is bundled once per process, into node_modules/.cache/pane beside the
 * esbuild that bundles it, as screenWorker-<hash of the bundle>.mjs. Every process
 * running the same sources shares that one file. A temp directory per process,
 * removed at exit, was left behind whenever a test runner ended its workers without
 * exit handlers: over a thousand in /tmp after a few days of test runs.
 */
function runnableWorker(p: string | URL): string | URL {
  const file = typeof p === 'string' ? p : fileURLToPath(p);
  if (!file.endsWith('.ts')) return p;
  let out = built.get(file);
  if (!out) {
    // Loaded lazily so bundles of the server never pull esbuild in.
    const req = createRequire(import.meta.url);
    const esbuild = req('esbuild') as typeof import('esbuild');
    const code = esbuild.buildSync({
      entryPoints: [file],
      outfile: 'screenWorker.mjs',
      write: false,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'silent',
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    }).outputFiles[0]!.contents;
    const esbuildDir = path.dirname(req.resolve('esbuild/package.json'));
    const dir = path.join(path.dirname(esbuildDir), '.cache', 'pane');
    mkdirSync(dir, { recursive: true });
    out = path.join(dir, `screenWorker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
    if (!existsSync(out)) {
      // Written whole, then renamed: a process starting beside this one never runs half a file.
      const part = `${out}.${process.pid}.part`;
      writeFileSync(part, code);
      renameSync(part, out);
    }
    built.set(file, out);
  }
  return out;
}
