// The screen model, off the PTY hot path: one worker thread parses every pane's
// output into a headless xterm, so snapshots, screen text and titles exist
// without slowing the stream to clients. Main sends bytes in order; we answer.
import { parentPort, workerData } from 'node:worker_threads';
import * as headless from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { gzipSync } from 'node:zlib';
import { writeAtomic } from '../../kits/node/atomicFile';
import { isolateCollector, isolateGc } from '../../kits/node/isolateGc';
import { blockRows, blockSerialized, lastRows } from './historyStore';
import { REST_AFTER_MS, ScreenHistory, xtermScrollback } from './screenHistory';
import type { FromWorker, ToWorker, WorkerOptions, WorkerSnapshot } from './screenProtocol';
import { DEFAULT_CELL, ScreenImages } from './screenImages';
import { atScreenWidth } from './screenWidth';

// @xterm/headless is CommonJS: Node's ESM loader puts it under `default`, esbuild may not.
type HeadlessModule = typeof headless;
const xterm: HeadlessModule = (headless as HeadlessModule & { default?: HeadlessModule }).default ?? headless;

interface Screen {
  term: InstanceType<HeadlessModule['Terminal']>;
  serialize: SerializeAddon;
  history: ScreenHistory;
  /** The images on it (sixel, iTerm2 inline), replayed into a snapshot. */
  images: ScreenImages;
  /** Names this screen's saved blocks with: fresh per screen, so a reopened pane never reuses an old name. */
  id: string;
  /** Block files the last save referenced (full path → bytes): a full block never changes, so each is written once. */
  written: Map<string, number>;
  /** Counts writes and resizes: a save finding it unchanged names the last save's files again. */
  version: number;
  lastSave: { version: number; history: number; dir: string; reply: Extract<FromWorker, { type: 'saved' }> } | null;
  title: string;
  /** Lets the history rest once output stops (REST_AFTER_MS). */
  restTimer: NodeJS.Timeout | null;
  /**
   * The program hid the cursor (DECTCEM, `CSI ? 25 l`: a full-screen program such as
   * top or an agent's UI). xterm's serialize addon writes other modes but not this one,
   * so a window attaching later would show a cursor the program hid: liveSerialized adds it.
   */
  cursorHidden: boolean;
  /**
   * The mouse report form the program asked for (1005 UTF-8, 1006 SGR, 1015 urxvt, 1016
   * SGR pixels), or null for X10's. The serialize addon writes the mouse mode but not its
   * form, so a window or `pane attach` that came later reported clicks as X10 bytes to a
   * program reading SGR ones (vim, an agent's TUI): liveSerialized adds it.
   */
  mouseForm: number | null;
}

/**
 * The live part of a screen as escape sequences, after its older blocks: the last `live`
 * lines and the screen (serialize addon), its images, and the cursor hidden if the
 * program hid it. What a snapshot and a saved screen both end with.
 */
const liveSerialized = (s: Screen, live: number) => s.serialize.serialize({ scrollback: live }) + s.images.replay() + (s.cursorHidden ? '\x1b[?25l' : '') + (s.mouseForm === null ? '' : `\x1b[?${s.mouseForm}h`) + leftOut(s.term);

/** xterm's tab stop width (its tabStopWidth option, never set here): a terminal's stops start every 8 columns. */
const TAB_WIDTH = 8;

/**
 * What the serialize addon leaves out of a screen that a view opened later needs to go on
 * as the program expects, read from xterm 6.0.0's private fields (each left out when its
 * field is not there):
 * - the scroll region (DECSTBM: a progress bar kept on the last row as apt's is, an
 *   editor's split): without it a window opened later scrolled the whole screen where the
 *   program scrolls only its region, and drew its lines over the bar;
 * - the DEC line-drawing character set in G0..G3 and which of G0/G1 is in use: without it
 *   the rest of a box drawn by dialog or mc came out as "lqqk";
 * - the cursor saved by DECSC, which the program’s next DECRC goes back to;
 * - tab stops the program set or cleared (HTS, TBC: a table's columns, `tabs 4`), and LNM,
 *   under which a line feed returns the carriage too.
 * DECSTBM homes the cursor, so the cursor is put back last, counted from the region's top
 * under origin mode.
 */
function leftOut(term: headless.Terminal): string {
  const core = (term as unknown as { _core?: PrivateCore })._core;
  const b = core?.buffer;
  const a = term.buffer.active;
  let out = '';
  const cs = core?._charsetService;
  if (cs && Array.isArray(cs._charsets)) {
    cs._charsets.forEach((set, g) => {
      if (set && set.q === '\u2500') out += `\x1b${'()*+'[g]}0`;
    });
    if (cs.glevel === 1) out += '\x0e';
  }
  // LNM (CSI 20 h): xterm keeps it as its convertEol option; a line feed then returns the carriage too.
  if (term.options.convertEol) out += '\x1b[20h';
  if (!b || typeof b.scrollTop !== 'number' || typeof b.scrollBottom !== 'number') return out;
  const top = term.modes.originMode ? b.scrollTop : 0;
  const region = b.scrollTop !== 0 || b.scrollBottom !== term.rows - 1;
  if (region) out += `\x1b[${b.scrollTop + 1};${b.scrollBottom + 1}r`;
  const saved = typeof b.savedX === 'number' && typeof b.savedY === 'number' && (b.savedX !== 0 || b.savedY !== 0);
  if (saved) out += `\x1b[${b.savedY! - top + 1};${b.savedX! + 1}H\x1b7`;
  // Tab stops other than every 8 columns (HTS, TBC; `tabs`, a table from column form): all cleared, then each set again.
  const stops = tabStops(b.tabs, term.cols);
  if (stops) out += `\x1b[3g${stops.map((x) => `\x1b[1;${x + 1}H\x1bH`).join('')}`;
  if (region || saved || stops) out += `\x1b[${a.cursorY - top + 1};${a.cursorX + 1}H`;
  return out;
}

/** The columns with a tab stop, when they are not xterm's own (0, 8, 16 …, as a terminal starts); undefined when they are, or unknown. */
function tabStops(tabs: unknown, cols: number): number[] | undefined {
  if (typeof tabs !== 'object' || tabs === null) return undefined;
  const set = Object.entries(tabs as Record<string, unknown>)
    .filter(([x, on]) => on === true && Number(x) < cols)
    .map(([x]) => Number(x))
    .sort((x, y) => x - y);
  const standard = set.length === Math.ceil(cols / TAB_WIDTH) && set.every((x, i) => x === i * TAB_WIDTH);
  return standard ? undefined : set;
}


/** The private parts of xterm 6.0.0's terminal that leftOut reads. */
interface PrivateCore {
  buffer?: { scrollTop?: unknown; scrollBottom?: unknown; savedX?: number; savedY?: number; tabs?: unknown };
  _charsetService?: { glevel?: number; _charsets?: (Record<string, string> | undefined)[] };
}

/** The DEC private modes that choose the mouse report form. */
const MOUSE_FORMS = [1005, 1006, 1015, 1016];

/**
 * Follows what the serialize addon leaves out: the cursor's visibility (DECTCEM) and the
 * mouse report form; a full (RIS) or soft (DECSTR) reset shows the cursor and forgets the form.
 */
function trackModes(s: Screen): void {
  const dectcem = (hidden: boolean) => (params: (number | number[])[]) => {
    if (params.includes(25)) s.cursorHidden = hidden;
    for (const p of params) {
      if (typeof p !== 'number' || !MOUSE_FORMS.includes(p)) continue;
      // Set: that form (the last one set wins, as in xterm). Reset: the X10 form, if it was the one in force.
      if (!hidden) s.mouseForm = p;
      else if (s.mouseForm === p) s.mouseForm = null;
    }
    return false; // xterm acts on it as well
  };
  s.term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, dectcem(false));
  s.term.parser.registerCsiHandler({ prefix: '?', final: 'l' }, dectcem(true));
  const shown = () => {
    s.cursorHidden = false;
    s.mouseForm = null;
    return false;
  };
  s.term.parser.registerEscHandler({ final: 'c' }, shown);
  s.term.parser.registerCsiHandler({ intermediates: '!', final: 'p' }, shown);
}

const port = parentPort;
if (!port) throw new Error('screenWorker must run in a worker thread');
const opts = workerData as WorkerOptions;
const screens = new Map<number, Screen>();
/** The window's cell size (CSS px), for an image's height in rows: the last a window reported. */
let cell: { w: number; h: number } = { ...DEFAULT_CELL };

// Reports are coalesced per turn of the loop: a flood of bells or titles costs
// one message per pane per turn, not one per byte.
const parsed = new Map<number, number>();
const titles = new Map<number, string>();
const bells = new Map<number, { via?: 'osc9' | 'osc99' | 'osc777'; text?: string }>();
const cwds = new Map<number, string>();
/** Longest OSC 7 URI taken: PATH_MAX (4096) percent-encoded three times over, plus file://host. */
const CWD_URI_MAX = 4096 * 3 + 300;
/** Most characters of a notification's text kept: a tag or a notice shows a line, not a page. */
const NOTIFY_TEXT_MAX = 300;
let reportQueued = false;

function queueReport(): void {
  if (reportQueued) return;
  reportQueued = true;
  setImmediate(() => {
    reportQueued = false;
    for (const [pane, title] of titles) post({ type: 'title', pane, title });
    for (const [pane, b] of bells) post({ type: 'bell', pane, ...b });
    for (const [pane, uri] of cwds) post({ type: 'cwd', pane, uri });
    for (const [pane, bytes] of parsed) post({ type: 'parsed', pane, bytes });
    titles.clear();
    bells.clear();
    cwds.clear();
    parsed.clear();
  });
}

function post(m: FromWorker): void {
  port!.postMessage(m);
}

/** (Re)starts the screen's quiet timer: it rests REST_AFTER_MS after its last output. */
function restSoon(s: Screen): void {
  if (s.restTimer) return void s.restTimer.refresh();
  s.restTimer = setTimeout(() => {
    s.restTimer = null;
    // After everything written so far is parsed.
    s.term.write('', () => s.history.rest());
  }, REST_AFTER_MS);
  s.restTimer.unref();
}

function closeScreen(pane: number): void {
  const s = screens.get(pane);
  if (!s) return;
  if (s.restTimer) clearTimeout(s.restTimer);
  s.term.dispose();
  screens.delete(pane);
}

function open(pane: number, cols: number, rows: number): void {
  closeScreen(pane);
  const term = new xterm.Terminal({ cols, rows, scrollback: xtermScrollback(opts.scrollback), allowProposedApi: true });
  const serialize = new SerializeAddon();
  // The addon reads rows as wide as the screen: an alternate screen made narrower keeps wider rows (screenWidth.ts).
  // Its types name @xterm/xterm's Terminal; the headless one has every part it reads, as loadAddon's own call assumes.
  serialize.activate(atScreenWidth(term) as unknown as Parameters<SerializeAddon['activate']>[0]);
  const s: Screen = { term, serialize, history: new ScreenHistory(term, opts.scrollback), images: new ScreenImages(term, () => cell), id: randomBytes(4).toString('hex'), written: new Map(), version: 0, lastSave: null, title: '', restTimer: null, cursorHidden: false, mouseForm: null };
  trackModes(s);
  term.onTitleChange((t) => {
    s.title = t;
    titles.set(pane, t);
    queueReport();
  });
  term.onBell(() => {
    bells.set(pane, {});
    queueReport();
  });
  // Desktop notifications a program asks its terminal for (Codex, Gemini; Claude for some
  // TERM_PROGRAMs): parsed here in the screen's worker, off the output path, like OSC 7.
  const notify = (via: 'osc9' | 'osc99' | 'osc777', text: string | null) => {
    if (text === null) return true;
    bells.set(pane, { via, text: text.slice(0, NOTIFY_TEXT_MAX) });
    queueReport();
    return true;
  };
  // OSC 9 ; text (iTerm2); "9;4;…" and other digits-first forms are ConEmu's progress and the like, not a notification.
  term.parser.registerOscHandler(9, (data) => notify('osc9', /^\d+(;|$)/.test(data) ? null : data));
  // OSC 99 ; metadata ; payload (kitty): only the title or body parts of one that shows.
  term.parser.registerOscHandler(99, (data) => {
    const i = data.indexOf(';');
    const meta = i < 0 ? '' : data.slice(0, i);
    return notify('osc99', /(^|:)p=(?!title|body)/.test(meta) ? null : data.slice(i + 1));
  });
  // OSC 777 ; notify ; title ; body (urxvt, Ghostty); other OSC 777 verbs are not notifications.
  term.parser.registerOscHandler(777, (data) => notify('osc777', data.startsWith('notify;') ? data.slice(7).replace(';', ': ') : null));
  // OSC 7 ; file://host/path — the shell telling where it is (pane's shell integration emits it).
  term.parser.registerOscHandler(7, (data) => {
    if (data.length <= CWD_URI_MAX) {
      cwds.set(pane, data);
      queueReport();
    }
    return true;
  });
  screens.set(pane, s);
}

/**
 * The last `history` rows of scrollback and the screen, in both forms a snapshot
 * carries: plain text (one line per row, trailing blanks trimmed, trailing empty
 * lines dropped) and escape sequences (compact rows, then xterm's serialize of
 * the live part). The compact rows are inflated once for both. With the
 * alternate screen active, the text is only that screen (it has no scrollback).
 */
function forms(s: Screen, history: number, textOnly: boolean, older: { rows: number; text: string }): { text: string; serialized: string } {
  const buf = s.term.buffer.active;
  const alt = buf !== s.term.buffer.normal;
  const live = Math.min(history, s.history.uncaptured);
  // The compact rows wanted are the newest of those already inflated (`older`).
  const rows = history - live;
  const compact = rows >= older.rows ? older.text : lastRows(older.text, rows);
  const lines = alt ? [] : blockRows(compact);
  for (let i = buf.baseY - (alt ? 0 : live); i < buf.length; i++) lines.push((buf.getLine(i)?.translateToString(true, 0, s.term.cols) ?? '').trimEnd());
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return { text: lines.join('\n'), serialized: textOnly ? '' : blockSerialized(compact) + liveSerialized(s, live) };
}

/**
 * The screen with as much scrollback as fits the reply: a full 10,000-line
 * history in colour can pass the protocol's JSON frame limit (escape bytes
 * grow sixfold as JSON), so the history is halved until it fits. `textOnly`
 * leaves the serialized form out, so the text alone has the reply's room.
 */
function snapshot(s: Screen, maxHistory = Infinity, textOnly = false): WorkerSnapshot {
  s.history.capture(undefined, true);
  const buf = s.term.buffer.active;
  let history = Math.max(0, Math.min(s.history.lines, maxHistory));
  // Inflated once, however often the history is halved below.
  const rows = history - Math.min(history, s.history.uncaptured);
  const older = { rows, text: s.history.store.tail(rows) };
  for (;;) {
    const f = forms(s, history, textOnly, older);
    if (history === 0 || jsonBytes(f.text) + jsonBytes(f.serialized) <= opts.snapshotBytes) {
      return { cols: s.term.cols, rows: s.term.rows, text: f.text, serialized: f.serialized, cursor: { x: buf.cursorX, y: buf.cursorY }, title: s.title };
    }
    history = Math.floor(history / 2);
  }
}

/**
 * Saves the last `history` rows and the screen: full compact blocks as their own
 * files (written once, then only referenced), and the rest — the block being
 * filled, xterm's live rows, the screen — to `file`. Every file gzipped, atomically.
 * What is saved is taken at once; the writes go to the thread pool, so this
 * thread goes on parsing output while the disk works (a flush every few seconds).
 */
async function save(s: Screen, m: Extract<ToWorker, { type: 'save' }>): Promise<FromWorker> {
  const dir = path.dirname(m.file);
  const last = s.lastSave;
  // Nothing printed or resized since the last save: its files (kept while a generation names them) say it all.
  if (last && last.version === s.version && last.history === m.history && last.dir === dir && existsSync(path.join(dir, last.reply.file))) {
    return { ...last.reply, id: m.id, wrote: 0 };
  }
  const version = s.version;
  s.history.capture(undefined, true);
  const lines = Math.min(s.history.lines, m.history);
  const store = s.history.store;
  const live = Math.min(lines, s.history.uncaptured);
  const openRows = store.lines - store.blocks().reduce((a, b) => a + b.lines, 0);
  const inOpen = Math.min(openRows, lines - live);
  let need = lines - live - inOpen;
  const names: string[] = [];
  const written = new Map<string, number>();
  const toWrite: { file: string; data: Uint8Array }[] = [];
  let bytes = 0;
  let wrote = 0;
  const blocks = store.blocks();
  for (let i = blocks.length - 1; i >= 0 && need > 0; i--) {
    const b = blocks[i]!;
    const name = `${m.blockPrefix}-${s.id}-${b.seq}.gz`;
    const full = path.join(dir, name);
    let size = s.written.get(full);
    if (size === undefined) {
      toWrite.push({ file: full, data: b.gz }); // gzipped as the block filled: the same bytes every generation
      size = b.gz.byteLength;
      wrote += size;
    }
    written.set(full, size);
    bytes += size;
    names.unshift(name);
    need -= b.lines;
  }
  const data = gzipSync(blockSerialized(store.tail(inOpen)) + liveSerialized(s, live));
  // The tail's write below syncs the directory for every block renamed before it.
  await Promise.all(toWrite.map((w) => writeAtomic(w.file, w.data, { syncDir: false })));
  await writeAtomic(m.file, data);
  s.written = written;
  const reply = { type: 'saved' as const, id: m.id, pane: m.pane, file: path.basename(m.file), bytes: bytes + data.byteLength, wrote: wrote + data.byteLength, lines: lines + s.term.rows, blocks: names };
  s.lastSave = { version, history: m.history, dir, reply };
  return reply;
}

/** A string's size as JSON: exact only when it could matter (JSON.stringify of megabytes is not free). */
function jsonBytes(x: string): number {
  if (x.length * 6 + 2 <= opts.snapshotBytes / 2) return x.length * 6 + 2; // no char grows past \uXXXX
  return Buffer.byteLength(JSON.stringify(x));
}

/** This isolate's heap in use plus the ArrayBuffers its objects own (xterm keeps its rows in them). */
function heldBytes(): number {
  const s = v8.getHeapStatistics();
  return s.used_heap_size + s.external_memory;
}

/** Bytes parsed since the last parse collection (below), and how many of those there were. */
let parsedSinceCollection = 0;
let parseCollections = 0;

/** Counts parsed bytes; a full collection once opts.parseCollectBytes were parsed since the last (PARSE_COLLECT_BYTES). */
function parsedBytes(n: number): void {
  if (!(opts.parseCollectBytes > 0)) return; // 0 (or none given): off
  parsedSinceCollection += n;
  if (parsedSinceCollection < opts.parseCollectBytes) return;
  parsedSinceCollection = 0;
  parseCollections++;
  isolateGc()();
}

function handle(m: ToWorker): void {
  switch (m.type) {
    case 'collect': {
      const usedBefore = heldBytes();
      isolateCollector()(); // the collection before a trim (kits/node/isolateGc.ts; its gc is made once per isolate)
      return post({ type: 'collected', id: m.id, usedBefore, usedAfter: heldBytes(), parseCollections });
    }
    case 'open':
      return open(m.pane, m.cols, m.rows);
    case 'write': {
      const n = m.data.byteLength;
      const done = () => {
        parsed.set(m.pane, (parsed.get(m.pane) ?? 0) + n);
        queueReport();
        parsedBytes(n);
      };
      const s = screens.get(m.pane);
      // Bytes for a pane without a screen still count as consumed, or its backlog would never drain.
      if (!s) return done();
      s.version++;
      s.history.write(m.data, done);
      restSoon(s);
      return;
    }
    case 'resize': {
      const s = screens.get(m.pane);
      if (s) s.version++;
      s?.history.beforeResize(m.cols, m.rows);
      s?.term.resize(m.cols, m.rows);
      return;
    }
    case 'snapshot': {
      const s = screens.get(m.pane);
      if (!s) return post({ type: 'failed', id: m.id, pane: m.pane, message: `pane ${m.pane} has no screen` });
      // xterm parses in time slices; an empty write's callback runs after every earlier write.
      s.term.write('', () => {
        if (screens.get(m.pane) !== s) return post({ type: 'failed', id: m.id, pane: m.pane, message: 'screen closed' });
        try {
          post({ type: 'snapshot', id: m.id, pane: m.pane, snapshot: snapshot(s, m.history, m.textOnly) });
        } catch (e) {
          post({ type: 'failed', id: m.id, pane: m.pane, message: (e as Error).message });
        }
      });
      return;
    }
    case 'save': {
      const s = screens.get(m.pane);
      if (!s) return post({ type: 'failed', id: m.id, pane: m.pane, message: `pane ${m.pane} has no screen` });
      s.term.write('', () => {
        // Serializing and compressing here keeps a 10,000-line history off the server's main loop.
        save(s, m).then(post, (e: Error) => post({ type: 'failed', id: m.id, pane: m.pane, message: e.message }));
      });
      return;
    }
    case 'close':
      closeScreen(m.pane);
      return;
    case 'cell':
      cell = { w: m.w, h: m.h };
      return;
  }
}

port.on('message', (m: ToWorker) => {
  try {
    handle(m);
  } catch (e) {
    // One pane's bad state must not take down the others' screens.
    if (m.type === 'snapshot') post({ type: 'failed', id: m.id, pane: m.pane, message: (e as Error).message });
  }
});
