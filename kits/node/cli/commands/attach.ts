// `pane attach`: one pane in this terminal, as dtach or `tmux attach` gives it —
// from an ssh session, a phone, a console with no window. The pane's output goes
// into a screen model here (xterm's headless terminal, the window's parser) and is
// drawn from its cells (termDraw.ts): text, colours and cursor moves reach the
// terminal, the program's own escape sequences never do. Keys go to the pane as the
// window's do (INPUT frames, checked by the server for this connection's principal),
// but for the detach key. The last row says which pane this is and how to leave.
import { StringDecoder } from 'node:string_decoder';
import type * as tty from 'node:tty';
import type { Terminal as HeadlessTerminal } from '@xterm/headless';
import { AckMeter } from '../../../client/ackMeter';
import { Utf8Carry, XTERM_WRITE_MAX } from '../../../client/utf8Carry';
import type { Connection } from '../../../client/connection';
import type { PaneFault } from '../../../protocol/fault';
import type { PaneRef } from '../../../protocol/ids';
import type { ExitStatus, Pane } from '../../../protocol/model';
import { exitLine, programOf } from '../../../protocol/exitLabel';
import { clip, shown } from '../../../protocol/shown';
import { EXIT, OpError, streamEnded, UsageError } from '../errors';
import { rowCells, rowText, sameCells, statusRow, viewOf } from '../termDraw';
import { firstKey, piecesOf, scrollMoveOf, wheelOf, type ScrollMove } from '../attachKeys';
import { cellsText, cellText, findMatch, inOrder, SEARCH_MAX, textBetween, wordAt, type Cell, type Match } from '../scrollSearch';
import { remoteKey } from './follow';
import { PANE_REF } from '../args';
import { asRef, type CommandContext } from '../context';

/**
 * The least time between two draws: a terminal's frame. Output after a quiet spell
 * (an echo) is drawn at once; output within a frame of the last draw waits for the
 * frame's end, so a flood sends one screen a frame down an ssh link, not its every
 * intermediate state.
 */
export const ATTACH_FRAME_MS = 8;

/** Ctrl+\ (0x1c), as dtach and abduco detach: a key no shell or editor binds by default. */
export const DEFAULT_DETACH = 0x1c;


/**
 * Rows of history the screen model keeps, to scroll back into: as many as the
 * window's terminal keeps (renderer/src/term/termView.ts). The snapshot brings at most
 * ATTACH_HISTORY_MAX of them; what is printed while attached adds the rest.
 */
const MODEL_SCROLLBACK = 5_000;

/**
 * The most characters a drag copies: it reaches the person's clipboard as OSC 52, a third
 * larger in base64, and terminals bound what they take there (xterm and several others
 * refuse much past 100 KB); a longer selection is cut, and the status row says so.
 */
const COPY_MAX = 100_000;

/** Presses on one cell within this long of each other are a double (a word) or triple (a row) click, as most terminals count them. */
const MULTI_CLICK_MS = 400;

/** Rows one notch of the wheel scrolls the view, as xterm and most terminals scroll. */
const WHEEL_ROWS = 3;

/** The person's terminal's mouse mode for each of the program's (xterm's names), always reported in SGR form (1006), which this side reads. */
const MOUSE_OFF = '\x1b[?9l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l';
const MOUSE_MODE: Record<string, string> = { none: MOUSE_OFF, x10: '\x1b[?9h\x1b[?1006h', vt200: '\x1b[?1000h\x1b[?1006h', drag: '\x1b[?1002h\x1b[?1006h', any: '\x1b[?1003h\x1b[?1006h' };

/** What the person's terminal is put back to on leaving, whatever was mirrored onto it. */
const RESTORE = `\x1b[?2026l\x1b[0m\x1b[?25h\x1b[?7h\x1b[?1l\x1b>\x1b[?2004l\x1b[?1004l${MOUSE_OFF}\x1b[?1049l`;

/** A mouse event as xterm's mouse service takes it (CoreMouseButton: 0 left, 1 middle, 2 right, 3 none, 4 wheel; CoreMouseAction: 0 up, 1 down, 32 move). */
export interface MouseEvent {
  col: number;
  row: number;
  x: number;
  y: number;
  button: number;
  action: number;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

/** An SGR report's fields as xterm's mouse event, at the pane's column and row (0-based); undefined for a report off the pane. */
export function mouseEventOf(cb: number, cx: number, cy: number, final: string, view: { top: number; left: number }, room: { cols: number; rows: number }): MouseEvent | undefined {
  if (cx < 1 || cy < 1 || cx > room.cols || cy > room.rows) return undefined;
  const col = cx - 1 + view.left;
  const row = cy - 1 + view.top;
  const mods = { shift: (cb & 4) !== 0, alt: (cb & 8) !== 0, ctrl: (cb & 16) !== 0 };
  const at = { col, row, x: col, y: row };
  if (cb & 64) return { ...at, ...mods, button: 4, action: cb & 1 ? 1 : 0 };
  if (cb & 32) return { ...at, ...mods, button: cb & 3, action: 32 };
  return { ...at, ...mods, button: cb & 3, action: final === 'M' ? 1 : 0 };
}

/** `^\`, `^A`, `^]`: the detach key as a caret chord; its byte. */
export function detachKeyOf(spec: string): number {
  const m = /^\^(.)$/.exec(spec);
  const ch = m?.[1]?.toUpperCase();
  const code = ch === undefined ? -1 : ch === '?' ? 0x7f : ch.charCodeAt(0) ^ 0x40;
  if (code < 0 || (code > 0x1f && code !== 0x7f)) throw new UsageError(`--detach-key takes a control key written as ^ and a character (^\\, ^Q, ^]), not '${spec}'`, 'attach');
  return code;
}

function keyName(code: number): string {
  return code === 0x7f ? 'Ctrl+?' : `Ctrl+${String.fromCharCode(code ^ 0x40)}`;
}

export interface AttachOptions {
  detachKey: number;
  readOnly: boolean;
  /** Size the pane's PTY to this terminal (less the status row), now and as it resizes. */
  fit: boolean;
  /** Rows of the pane's history the snapshot brings, to scroll back into (0: the screen alone, for a slow link). */
  history: number;
  /** The wheel scrolls back while the program does not ask for the mouse (the terminal is asked for it throughout); false leaves the mouse to the terminal then. */
  mouseScroll: boolean;
}

/**
 * What `-t` names: a pane (N, HOST:N) as it is, or a session (NAME, HOST:NAME) as its
 * focused pane, since a tmux user's fingers type `attach -t work`. Neither: refused,
 * with the sessions there are.
 */
export async function attachTarget(c: Connection, t: PaneRef | undefined): Promise<PaneRef | undefined> {
  if (t === undefined || typeof t === 'number' || PANE_REF.test(t)) return t === undefined || typeof t === 'number' ? t : asRef(t);
  const colon = t.indexOf(':');
  const host = colon === -1 ? undefined : t.slice(0, colon);
  const name = colon === -1 ? t : t.slice(colon + 1);
  const { sessions } = await c.call('session/list', host === undefined ? {} : { host });
  const s = sessions.find((x) => x.name === name);
  if (!s) {
    const names = sessions.map((x) => (host === undefined ? x.name : `${host}:${x.name}`));
    throw new UsageError(`-t '${clip(shown(t), 80)}' is neither a pane id (N or HOST:N) nor a session${host === undefined ? '' : ` of ${clip(shown(host), 40)}`}: ${names.length ? `its sessions are ${clip(shown(names.join(', ')), 300)}` : 'there is no session'}`, 'attach');
  }
  if (s.focused === null) throw new OpError(`session ${clip(shown(t), 80)} has no pane to attach to`);
  return host === undefined ? s.focused : `${host}:${s.focused}`;
}

/** A session's name as the person would type it back into a shell: single-quoted unless it is one plain word. */
function typedBack(name: string): string {
  return /^[A-Za-z0-9._-]+$/.test(name) ? name : `'${name.replace(/'/g, `'\\''`)}'`;
}

export async function runAttach(ctx: CommandContext, asked: PaneRef | undefined, o: AttachOptions): Promise<number> {
  const stdin = ctx.io.stdin as tty.ReadStream;
  const stdout = ctx.io.stdout as tty.WriteStream;
  if (!stdin.isTTY || !stdout.isTTY) {
    throw new UsageError('pane attach draws a pane in a terminal, and its stdin and stdout are not one; from a script, read a pane with pane output --follow or pane screen, and type into it with pane send', 'attach');
  }
  // Inside a pane of this same server, that pane is the default target: shown in itself, it would draw itself forever.
  const own = ctx.io.env.PANE_ID;
  const home = ctx.io.env.PANE_SOCKET;
  const inside = own !== undefined && own !== '' && !(ctx.socketFromFlag && home !== undefined && home !== ctx.socketPath);
  const itself = (p: PaneRef | undefined): boolean => inside && p !== undefined && String(p) === own;
  const refuseItself = (): never => {
    throw new UsageError(`this terminal is pane ${own}: attached to itself, it would draw itself forever; give -t with another pane`, 'attach');
  };
  const c = await ctx.connect();
  // -t SESSION, or no -t: the attach follows that session's focus, as a tmux client shows its session's current pane;
  // -t N stays on pane N. A joined host's session (HOST:NAME) is shown at its focused pane, not followed.
  const follow = asked === undefined || (typeof asked === 'string' && !PANE_REF.test(asked) && !asked.includes(':'));
  const pane = await attachTarget(c, asked);
  if (itself(pane)) refuseItself();
  // A read-only guest ($PANE_GRANT of a read-only grant) or a connection without the right to write: keys are not sent, and the status row says so.
  const w = c.welcome;
  o = { ...o, readOnly: o.readOnly || (w !== undefined && (!w.capabilities.includes('write') || w.grant?.mode === 'ro')) };
  const { Terminal } = await import('@xterm/headless');

  let n = -1;
  let ended = false;
  let endWith: (end: { line: string; code: number }) => void = () => {};
  const done = new Promise<{ line: string; code: number }>((resolve) => (endWith = resolve));
  let about: Pane | undefined;
  let exit: ExitStatus | undefined;
  let closing: { line: string; code: number } | undefined;
  let note = '';
  /** The pane was closed, or the connection to its server: nothing more is asked of either. */
  let gone = false;
  /** The session whose focus this attach follows (its id and name), when it follows one. */
  let followed: { id: string; name: string } | undefined;

  // Events first, as `pane output --follow` does: an end between the two calls is not missed.
  const endedEarly = new Map<number, 'exited' | 'closed'>();
  let term: HeadlessTerminal | undefined;
  // A joined host's pane (HOST:N) ends on its host: its end comes as a host/pane event naming it so.
  const remote = remoteKey(pane);
  let remoteEndedEarly = false;
  c.onEvent((event, _rev, data) => {
    if (event === 'host/pane') {
      const h = data as { id?: string; event?: string };
      if (remote === undefined || h.id !== remote || (h.event !== 'pane/exited' && h.event !== 'pane/closed')) return;
      if (h.event === 'pane/closed') {
        closing = { line: `pane ${remote} was closed`, code: EXIT.failed };
        gone = true;
      }
      if (n === -1) remoteEndedEarly = true;
      else finish();
      return;
    }
    if (event === 'focus/changed' || event === 'session/closed' || event === 'session/renamed') {
      const f = data as { session?: string; focused?: number | null; context?: string; name?: string };
      if (!followed || f.session !== followed.id) return;
      // A window's own context moving its focus is that window's; the session's own focus is what a follower shows.
      if (event === 'focus/changed' && f.context === undefined && typeof f.focused === 'number') want(f.focused);
      else if (event === 'session/renamed' && typeof f.name === 'string') {
        followed.name = f.name;
        if (n !== -1) schedule(false);
      } else if (event === 'session/closed') {
        closing = { line: `session ${clip(shown(followed.name), 80)} was closed`, code: EXIT.failed };
        gone = true;
        finish();
      }
      return;
    }
    const d = data as { pane?: number | Pane; exit?: ExitStatus; tag?: Pane['tag'] };
    const which = typeof d.pane === 'number' ? d.pane : d.pane?.n;
    if (which === undefined) return;
    if (n === -1) {
      if (event === 'pane/exited' || event === 'pane/closed') endedEarly.set(which, event === 'pane/closed' ? 'closed' : 'exited');
      return;
    }
    if (which !== n) return;
    if (event === 'pane/changed' && typeof d.pane === 'object') {
      about = d.pane;
      if (term && (d.pane.cols !== term.cols || d.pane.rows !== term.rows)) {
        term.resize(d.pane.cols, d.pane.rows);
        schedule(true);
      } else schedule(false);
    } else if (event === 'pane/tag-changed' && d.tag && about) {
      about = { ...about, tag: d.tag };
      schedule(false);
    } else if (event === 'pane/exited') {
      exit = d.exit;
      finish();
    } else if (event === 'pane/closed') {
      // Following a session, its next focused pane is shown instead; the attach ends only with the session.
      if (followed) return want(null);
      closing = { line: `pane ${n} was closed`, code: EXIT.failed };
      gone = true;
      finish();
    }
  });
  const subscribed = await c.call('events/subscribe', { families: remote !== undefined ? ['pane', 'host'] : follow ? ['pane', 'focus', 'session'] : ['pane'] });
  let early: [number, number, Uint8Array][] | undefined = [];
  c.onOutput((p, offset, data) => {
    if (early) early.push([p, offset, data]);
    else take(p, offset, data);
  });
  let closedEarly = false;
  c.onClose((reason) => {
    if (ended) return;
    // The transport's own word for a daemon that went away without one of its own (a signal, a crash) says little: said plainly.
    const why = reason === 'peer closed' ? 'the pane server closed the connection: it was stopped, or it ended' : streamEnded(reason).replace(/^pane: /, '');
    closing = { line: why, code: EXIT.failed };
    gone = true;
    if (n === -1) closedEarly = true;
    else finish();
  });
  c.onError((e: PaneFault) => {
    // A key the server refused (a read-only guest, an agent's .access): said on the status row.
    note = clip(shown(e.message), 200);
    if (n !== -1) schedule(false);
  });

  const r = await c.call('pty/attach', { ...(pane === undefined ? {} : { pane }), mode: 'snapshot', history: o.history, flowControl: !o.readOnly });
  // n stays -1 (events and frames for it are held) until everything below is in place.
  const target = r.pane;
  if (itself(target)) {
    await c.call('pty/detach', { pane: target }).catch(() => undefined);
    refuseItself();
  }
  const snap = r.snapshot;
  if (!snap) throw new OpError(`pane ${target} has no terminal to attach to`);
  about = subscribed.panes.find((p) => p.n === target && p.host === c.host) ?? about;
  term = new Terminal({ cols: snap.cols, rows: snap.rows, scrollback: MODEL_SCROLLBACK, allowProposedApi: true });
  const model = term;
  let cursorHidden = false;
  // DECTCEM: the headless terminal keeps no flag for it that its API shows.
  for (const final of ['h', 'l'] as const) {
    model.parser.registerCsiHandler({ prefix: '?', final }, (params) => {
      if (params.some((p) => p === 25)) cursorHidden = final === 'l';
      return false;
    });
  }
  let next = snap.offset;
  let carry = new Utf8Carry();
  /** Keys arrive in reads that may end inside a character: the decoder keeps its first bytes for the next read. */
  const typed = new StringDecoder('utf8');
  const acks = new AckMeter((bytes) => void c.call('pty/ack', { pane: n, bytes }).catch(() => undefined));
  await new Promise<void>((resolve) => model.write(snap.serialized, resolve));
  // Queries the program makes (where is the cursor, what terminal is this) are answered as the window's terminal answers them.
  model.onData((d) => send(Buffer.from(d, 'utf8')));
  // Mouse reports in the X10 form are bytes, not text.
  model.onBinary((d) => send(Buffer.from(d, 'latin1')));
  // A program that takes the alternate screen (vim, less) while the view is scrolled back: there is no history there, so the view is live again and keys are the program's.
  model.buffer.onBufferChange((b) => {
    if (b.type === 'alternate' && paging) leaveHistory();
  });
  /**
   * The model's mouse service (xterm 6.0.0's private field): a click on the person's terminal is handed to it at the
   * pane's cell, and it reports the click to the program in the form the program asked for (X10, UTF-8, SGR...).
   * Absent (another version): the mouse is not asked of the person's terminal at all.
   */
  const mouse = (model as unknown as { _core?: { coreMouseService?: { triggerMouseEvent?: (e: MouseEvent) => boolean } } })._core?.coreMouseService;
  const mouseOk = typeof mouse?.triggerMouseEvent === 'function';

  function take(p: number, offset: number, data: Uint8Array): void {
    if (p !== n) return;
    const skip = Math.max(0, next - offset);
    if (ended || skip >= data.byteLength) return acks.parsed(data.byteLength);
    next = offset + data.byteLength;
    // Every write goes through the carry, so a character cut between two frames is not lost (decision 054).
    const fresh = data.subarray(skip);
    for (let i = 0; i < fresh.byteLength; i += XTERM_WRITE_MAX) {
      const last = i + XTERM_WRITE_MAX >= fresh.byteLength;
      model.write(carry.take(fresh.subarray(i, i + XTERM_WRITE_MAX)), last ? () => (acks.parsed(data.byteLength), schedule(false)) : undefined);
    }
  }

  /** Scrolled back into the history, or searching it: keys are the pager's until q, a key of the program's, or a scroll down to the live screen. */
  let paging = false;
  /** The search being typed on the status row: which way, and its text so far. */
  let prompt: { dir: -1 | 1; text: string } | undefined;
  /** The last search (n and N repeat it), where it last matched (drawn in reverse video), and what the last one said when it found nothing. */
  let search: { dir: -1 | 1; text: string } | undefined;
  let match: Match | undefined;
  let searchNote = '';
  /** A drag over the pane while its program does not take the mouse: the cells from where it was pressed to where it is, copied on release. */
  let selection: { anchor: Cell; head: Cell; dragging: boolean } | undefined;
  /** What the last copy said (how much went to the clipboard), until the next key or click. */
  let copied = '';
  /** The last press: where, when, and how many presses on that cell in a row (2 a word, 3 a row). */
  let lastPress: { at: Cell; time: number; count: number } | undefined;

  // Drawing: what changed since the last frame, row by row.
  let drawn: (string | undefined)[] = [];
  /** Each row's cells when it was last drawn, and where the rows were placed then. */
  let kept: ({ data: Uint32Array; combined: string } | undefined)[] = [];
  let placed = '';
  let view: { top: number; left: number } | undefined;
  let modes = '';
  /** The draw to come: its cancel, or null when none is set. */
  let timer: (() => void) | null = null;
  let lastDraw = -Infinity;
  /** The terminal's room for the pane at the last draw: where a click lands. */
  let lastRoom = { cols: 0, rows: 0 };
  let writing = false;
  let again = false;
  function schedule(full: boolean): void {
    if (full) {
      drawn = [];
      kept = [];
    }
    if (ended) return;
    if (writing) {
      again = true;
      return;
    }
    // The first change after a quiet spell is drawn at once (an echo); later ones wait out the frame, so a flood is drawn once a frame.
    if (timer) return;
    const wait = lastDraw + ATTACH_FRAME_MS - performance.now();
    // setImmediate, not setTimeout(0): Node makes a 0 ms timeout 1 ms, a millisecond on every echo.
    if (wait <= 0) {
      const i = setImmediate(draw);
      timer = () => clearImmediate(i);
    } else {
      const t = setTimeout(draw, wait);
      timer = () => clearTimeout(t);
    }
  }
  function draw(): void {
    timer = null;
    if (ended) return;
    lastDraw = performance.now();
    const room = { cols: Math.max(1, stdout.columns || 80), rows: Math.max(1, (stdout.rows || 24) - 1) };
    const buf = model.buffer.active;
    const size = { cols: model.cols, rows: model.rows };
    const cursor = { x: buf.cursorX, y: buf.cursorY };
    view = viewOf(size, room, cursor, view);
    /** Rows the view is scrolled back into the history (0: the live screen). */
    const back = buf.baseY - buf.viewportY;
    const cell = buf.getNullCell();
    const spare = buf.getNullCell();
    let out = '\x1b[?2026h\x1b[?25l';
    // Rows whose cells are as they were at the last frame, drawn where they were, are not drawn again (most of a screen, for an echo).
    const place = `${view.top},${view.left},${room.cols},${room.rows},${size.cols},${size.rows},${buf.type}`;
    if (place !== placed) {
      placed = place;
      kept = [];
    }
    for (let y = 0; y < room.rows; y++) {
      const row = view.top + y;
      const width = Math.max(0, Math.min(room.cols, size.cols - view.left));
      const line = row < size.rows ? buf.getLine(buf.viewportY + row) : undefined;
      const cells = rowCells(line);
      if (cells && drawn[y] !== undefined && sameCells(cells, kept[y], size.cols)) continue;
      kept[y] = cells ? { data: cells.data.slice(0, size.cols * 3), combined: cells.combined } : undefined;
      const drawnRow = line ? rowText(line, view.left, width, cell, spare) : { text: '', cells: 0 };
      // The rest of the row erased; a row that fills the width is not (EL at the last column would erase its last cell).
      const text = drawnRow.cells < room.cols ? `${drawnRow.text}\x1b[K` : drawnRow.text;
      if (drawn[y] === text) continue;
      drawn[y] = text;
      out += `\x1b[${y + 1};1H${text}`;
    }
    drawn.length = room.rows;
    /** The cells from one place to another (either order) in reverse video; those rows are drawn afresh at the next frame, the mark with them if it is still there. */
    const shownPart = view;
    const mark = (a: Cell, b: Cell): void => {
      const [s0, e0] = inOrder(a, b);
      for (let y = 0; y < room.rows; y++) {
        const row = buf.viewportY + shownPart.top + y;
        if (row < s0.row || row > e0.row || shownPart.top + y >= size.rows) continue;
        const line = buf.getLine(row);
        if (!line) continue;
        const from = Math.max(shownPart.left, row === s0.row ? s0.col : 0);
        const to = Math.min(shownPart.left + room.cols, row === e0.row ? e0.col + 1 : size.cols);
        if (to <= from) continue;
        out += `\x1b[${y + 1};${from - shownPart.left + 1}H\x1b[0;7m${cellsText(cellText(line, cell), from, to)}\x1b[0m`;
        drawn[y] = undefined;
        kept[y] = undefined;
      }
    };
    // The search's match, and a selection.
    if (match && paging && stillThere(match)) mark(match, { row: match.endRow, col: match.endCol });
    if (selection) mark(selection.anchor, selection.head);
    const status = statusRow(statusText(size, room, back, buf.baseY), room.cols);
    if (drawn[room.rows] !== status) {
      drawn[room.rows] = status;
      out += `\x1b[${room.rows + 1};1H${status}`;
    }
    // The modes that change what keys send, mirrored so the person's arrows and pastes arrive as the program asked.
    const m = model.modes;
    // The mouse: the program's form while it takes the mouse; else presses, drags and the wheel, for the attach's own scrolling and selection.
    const mouseWant = programMouse() ? m.mouseTrackingMode : o.mouseScroll ? 'drag' : 'none';
    const want = `${m.applicationCursorKeysMode ? '\x1b[?1h' : '\x1b[?1l'}${m.applicationKeypadMode ? '\x1b=' : '\x1b>'}${m.bracketedPasteMode ? '\x1b[?2004h' : '\x1b[?2004l'}${m.sendFocusMode ? '\x1b[?1004h' : '\x1b[?1004l'}${MOUSE_MODE[mouseWant]}`;
    lastRoom = room;
    if (want !== modes) out += modes = want;
    // Scrolled back, the cursor is as many rows lower, maybe below the pane's last row: then it is not drawn.
    const cy = cursor.y + back - view.top;
    const cx = cursor.x - view.left;
    if (cursor.y + back < size.rows && cy >= 0 && cy < room.rows && cx >= 0 && cx < room.cols) out += `\x1b[${cy + 1};${cx + 1}H${cursorHidden ? '' : '\x1b[?25h'}`;
    out += '\x1b[?2026l';
    writing = true;
    // A slow link (ssh from a phone) takes frames as it can; the model goes on parsing meanwhile, and the next frame is drawn from where it is then.
    stdout.write(out, () => {
      writing = false;
      if (again) {
        again = false;
        schedule(false);
      }
    });
  }
  function statusText(size: { cols: number; rows: number }, room: { cols: number; rows: number }, back: number, history: number): string {
    // A title a TUI pads with spaces to fill its own tab ("◇  Ready (home)          ") takes one space a run here.
    const name = about ? clip(shown((about.tag.name || programOf(about)).replace(/\s+/g, ' ').trim()), 40) : '';
    const where = remote ?? String(n);
    const cut = size.cols > room.cols || size.rows > room.rows ? ` (${Math.min(size.cols, room.cols)}×${Math.min(size.rows, room.rows)} of it shown: --fit sizes it to this terminal)` : '';
    const ro = o.readOnly ? ' · read-only' : '';
    // What a copy said comes first, while it is news: a narrow terminal cuts the row's end.
    if (copied) return ` pane ${where} · ${copied}${ro} · ${keyName(o.detachKey)} detaches `;
    if (prompt) return ` pane ${where} · search ${prompt.dir < 0 ? 'up' : 'down'}: ${shown(prompt.text)}▏ · Enter finds · Esc lets it be `;
    if (paging) {
      const said = searchNote ? ` · ${searchNote}` : '';
      return ` pane ${where} · ${back} of ${history} rows back${said} · ↑↓ PgUp PgDn g G · ? / n N search · q or typing returns${ro} · ${keyName(o.detachKey)} detaches `;
    }
    const of = followed ? ` in ${clip(shown(followed.name), 30)}` : '';
    return ` pane ${where}${of} · ${name} · ${size.cols}×${size.rows}${cut}${ro} · ${keyName(o.detachKey)} detaches${note ? ` · ${note}` : ''} `;
  }

  /** With --fit: the size the pane had before (given back on leaving), and the size this attach gave it. */
  let before = { cols: snap.cols, rows: snap.rows };
  let fittedTo: { cols: number; rows: number } | undefined;
  const fit = (): void => {
    if (!o.fit) return;
    const cols = Math.max(2, stdout.columns || 80);
    const rows = Math.max(1, (stdout.rows || 24) - 1);
    fittedTo = { cols, rows };
    void c.call('pty/resize', { pane: n, cols, rows }).catch((e: Error) => {
      note = clip(shown(e.message), 200);
      schedule(false);
    });
  };
  const onResize = (): void => {
    stdout.write('\x1b[H\x1b[2J');
    fit();
    schedule(true);
  };
  /** Whether the program takes the mouse: clicks and the wheel are its, in its form; else the wheel scrolls back here. */
  function programMouse(): boolean {
    return mouseOk && !o.readOnly && model.modes.mouseTrackingMode !== 'none';
  }
  /** Keys typed into the model, which sends them on (its onData) as a window's terminal does, and which then parses the echo that comes back at once rather than on its next timer: xterm's own shortcut for output that follows a key. */
  function typeKeys(text: string): void {
    if (text === '' || o.readOnly) return;
    // Typing while scrolled back returns to the live screen, as a terminal does.
    if (paging || model.buffer.active.viewportY !== model.buffer.active.baseY) leaveHistory();
    model.input(text, true);
  }
  /** Back to the live screen: keys are the program's again, the search's mark is gone. */
  function leaveHistory(): void {
    paging = false;
    prompt = undefined;
    match = undefined;
    searchNote = '';
    model.scrollToBottom();
    schedule(true);
  }
  /** The view moved through the model's history (xterm's own viewport: output that comes meanwhile leaves it where it is). */
  function scrollView(move: ScrollMove): void {
    if (move === 'live') return leaveHistory();
    const buf = model.buffer.active;
    const was = paging;
    paging = true;
    searchNote = '';
    if (move === 'top') model.scrollToTop();
    else if (move === 'bottom') model.scrollToBottom();
    else if (typeof move === 'object' && 'search' in move) prompt = { dir: move.search, text: '' };
    else if (typeof move === 'object' && 'again' in move) {
      if (search) find(search.dir * move.again > 0 ? 1 : -1);
      else searchNote = 'no search yet: ? searches up, / down';
    } else {
      const page = Math.max(1, Math.min(model.rows, lastRoom.rows || model.rows) - 1);
      model.scrollLines('rows' in move ? move.rows : move.pages * page);
    }
    // Scrolled down to the live screen (the wheel, a page, G): history is left, and keys are the program's again.
    if (!prompt && buf.viewportY === buf.baseY && (move === 'bottom' || (typeof move === 'object' && ('rows' in move || 'pages' in move)))) {
      // (The wheel turned down on the live screen moved nothing: nothing to draw.)
      if (was) leaveHistory();
      else paging = false;
      return;
    }
    schedule(true);
  }
  /** The last search, up (-1) or down (1) from the last match while it is in view (as vim searches from its cursor), else from the view's bottom (up) or top (down). Finding nothing keeps the last match. */
  function find(dir: -1 | 1): void {
    if (!search) return;
    const buf = model.buffer.active;
    const inView = match !== undefined && match.row >= buf.viewportY && match.row < buf.viewportY + model.rows && stillThere(match);
    const from = match && inView ? { row: match.row, col: match.col } : dir < 0 ? { row: buf.viewportY + model.rows - 1, col: Infinity } : { row: buf.viewportY, col: -1 };
    const m = findMatch(buf, buf.getNullCell(), from, dir, search.text);
    if (!m) {
      searchNote = `“${clip(shown(search.text), 40)}” not found ${dir < 0 ? 'above' : 'below'}`;
      return;
    }
    match = m;
    searchNote = '';
    // A match outside the view is brought to its middle (as near as the history's ends let it).
    if (m.row < buf.viewportY || m.row >= buf.viewportY + model.rows) model.scrollToLine(Math.max(0, Math.min(buf.baseY, m.row - Math.floor(model.rows / 2))));
  }
  /** Whether a match's text is still at its place: once the history is full, output drops its oldest rows and every place moves up. */
  function stillThere(m: Match): boolean {
    const buf = model.buffer.active;
    // (Read back as a copy is, its trailing blanks cut.)
    return textBetween(buf, buf.getNullCell(), m, { row: m.endRow, col: m.endCol }, SEARCH_MAX + 1).text === m.text.replace(/ +$/, '');
  }
  /**
   * Keys typed into the search on the status row, a key at a time: text, Backspace, Ctrl+U;
   * Enter finds, Esc or Ctrl+C lets it be; other keys (arrows) are not text. What follows
   * Enter in the same read is returned, for the pager.
   */
  function promptKeys(text: string): string {
    let rest = text;
    while (rest !== '' && prompt) {
      const key = firstKey(rest);
      rest = rest.slice(key.length);
      if (key === '\r' || key === '\n') {
        const p = prompt;
        prompt = undefined;
        if (p.text !== '') {
          search = p;
          find(p.dir);
        }
      } else if (key === '\x1b' || key === '\x03') prompt = undefined;
      else if (key === '\x7f' || key === '\b') prompt.text = [...prompt.text].slice(0, -1).join('');
      else if (key === '\x15') prompt.text = '';
      else if (key >= ' ' && !key.startsWith('\x1b') && prompt.text.length < SEARCH_MAX) prompt.text += key;
    }
    // The status row changed, and the rows a find moved or marked differ cell by cell: the rest of the screen is not sent again.
    schedule(false);
    return rest;
  }
  /** A read of keys while scrolled back: the pager's, a key at a time, until one that is the program's, which goes to it with the rest of the read. */
  function pagerKeys(text: string): void {
    let rest = text;
    while (rest !== '') {
      if (prompt) {
        rest = promptKeys(rest);
        continue;
      }
      const key = firstKey(rest);
      const move = paging ? scrollMoveOf(key) : undefined;
      if (!move) return typeKeys(rest);
      scrollView(move);
      rest = rest.slice(key.length);
    }
  }
  /** The buffer's cell under the person's terminal's column and row (1-based), held to the pane's rows and columns; undefined on the status row. */
  function cellAt(cx: number, cy: number): Cell | undefined {
    if (!view || cy < 1 || cy > lastRoom.rows || cx < 1) return undefined;
    const buf = model.buffer.active;
    const y = Math.min(cy - 1 + view.top, model.rows - 1);
    return { row: buf.viewportY + y, col: Math.min(cx - 1 + view.left, model.cols - 1) };
  }
  /** A press, drag or release of the left button where the program does not take the mouse: a selection, copied to the person's clipboard (OSC 52) on release; a click alone clears it. */
  function select(cb: number, cx: number, cy: number, final: string): void {
    if ((cb & 3) !== 0 && final === 'M') return; // the middle or right button: nothing here
    const at = cellAt(cx, cy);
    const motion = (cb & 32) !== 0;
    if (!motion && final === 'M') {
      copied = '';
      const now = performance.now();
      const again = at && lastPress && lastPress.at.row === at.row && lastPress.at.col === at.col && now - lastPress.time < MULTI_CLICK_MS;
      lastPress = at ? { at, time: now, count: again ? (lastPress!.count % 3) + 1 : 1 } : undefined;
      const line = at && model.buffer.active.getLine(at.row);
      if (at && line && lastPress!.count > 1) {
        // A double click takes the word under it, a triple its row, copied at once as terminals do.
        const cells = lastPress!.count === 2 ? wordAt(cellText(line, model.buffer.active.getNullCell()), at.col) : { from: 0, to: model.cols };
        selection = { anchor: { row: at.row, col: cells.from }, head: { row: at.row, col: cells.to - 1 }, dragging: false };
        copySelection(selection);
      } else selection = at ? { anchor: at, head: at, dragging: true } : undefined;
    } else if (motion && selection?.dragging && at) {
      selection.head = at;
      lastPress = undefined; // a drag is not the first click of a double one
    }
    else if (final === 'm' && selection?.dragging) {
      selection.dragging = false;
      if (selection.anchor.row === selection.head.row && selection.anchor.col === selection.head.col) selection = undefined;
      else copySelection(selection);
    } else return;
    schedule(false);
  }
  /** The selection's text to the person's own clipboard, as OSC 52 (what they chose with their own drag, never output by itself), and the status row says how much. */
  function copySelection(sel: { anchor: Cell; head: Cell }): void {
    const buf = model.buffer.active;
    const { text, cut } = textBetween(buf, buf.getNullCell(), sel.anchor, sel.head, COPY_MAX);
    const n = [...text].length;
    stdout.write(`\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`);
    copied = `copied ${n.toLocaleString('en')} character${n === 1 ? '' : 's'}${cut ? ` (cut to ${COPY_MAX.toLocaleString('en')})` : ''} to the clipboard (OSC 52)`;
  }
  /** The cursor keys' form the program asked for (DECCKM): the wheel over a screen with no history is these keys, as a terminal's alternate scroll mode sends them. */
  const arrow = (by: -1 | 1): string => `\x1b${model.modes.applicationCursorKeysMode ? 'O' : '['}${by < 0 ? 'A' : 'B'}`;
  const onKeys = (b: Buffer): void => {
    const at = b.indexOf(o.detachKey);
    const bytes = at === -1 ? b : b.subarray(0, at);
    if (bytes.byteLength > 0) {
      const buf = model.buffer.active;
      for (const piece of piecesOf(typed.write(bytes))) {
        // A key (not the mouse) lets the selection and what its copy said go.
        if (piece.kind !== 'mouse' && (selection || copied)) {
          selection = undefined;
          copied = '';
          schedule(false);
        }
        if (piece.kind === 'keys') {
          if (paging) pagerKeys(piece.text);
          else typeKeys(piece.text);
        } else if (piece.kind === 'page') {
          // Shift+PgUp/PgDn scroll the history; a screen with none (a TUI in its alternate screen) gets the key.
          if (buf.type === 'normal') scrollView({ pages: piece.by });
          else typeKeys(piece.by < 0 ? '\x1b[5;2~' : '\x1b[6;2~');
        } else if (programMouse()) {
          // Mouse reports come at the pane's cells (less the view's offset) through the model's mouse service.
          const e = view && mouseEventOf(piece.cb, piece.cx, piece.cy, piece.final, view, lastRoom);
          if (e) mouse!.triggerMouseEvent!(e);
        } else {
          // The program does not take the mouse: the wheel scrolls back (or is arrow keys on a screen with no history), and a drag selects and copies.
          const wheel = wheelOf(piece.cb);
          if (wheel === undefined) select(piece.cb, piece.cx, piece.cy, piece.final);
          else if (buf.type === 'normal') scrollView({ rows: wheel * WHEEL_ROWS });
          else typeKeys(arrow(wheel).repeat(WHEEL_ROWS));
        }
      }
    }
    if (at !== -1) {
      const name = followed ? clip(shown(followed.name), 80) : '';
      closing = followed
        ? { line: `detached from session ${name}${n === -1 ? '' : ` (pane ${n})`}; it runs on (pane attach -t ${typedBack(name)} comes back)`, code: EXIT.ok }
        : { line: `detached from pane ${n}; it runs on (pane attach -t ${n} comes back)`, code: EXIT.ok };
      finish();
    }
  };
  const onSignal = (): void => {
    closing = { line: `detached from pane ${n}`, code: EXIT.ok };
    finish();
  };
  /** The size --fit gave pane `p` goes back to what it was, unless something else (a window's layout) has sized it since. */
  async function giveSizeBack(p: number): Promise<void> {
    if (fittedTo && model.cols === fittedTo.cols && model.rows === fittedTo.rows && (before.cols !== fittedTo.cols || before.rows !== fittedTo.rows)) {
      await c.call('pty/resize', { pane: p, ...before }).catch(() => undefined);
    }
  }

  /** Keys for the pane shown; while the attach moves to another (following its session), held for that one. */
  let heldKeys: Buffer[] | undefined;
  function send(b: Buffer): void {
    if (o.readOnly || ended) return;
    if (n === -1) (heldKeys ??= []).push(b);
    else c.sendInput(n, b);
  }

  /** The pane the followed session focuses next (null: ask it, this one was closed), and whether a move is under way. */
  let wanted: number | null | undefined;
  let moving = false;
  function want(m: number | null): void {
    wanted = m;
    if (!moving && n !== -1) void move();
  }
  /** Moves to the panes asked for, one at a time, until the last asked is shown; a session with no pane left ends the attach. */
  async function move(): Promise<void> {
    moving = true;
    try {
      while (wanted !== undefined && !ended) {
        let m = wanted;
        wanted = undefined;
        if (m === null) {
          const s = await c.call('session/get', { session: followed!.id }).catch(() => undefined);
          m = s?.focused ?? null;
          if (m === null || m === n) {
            closing = { line: s ? `pane ${n} was closed, and session ${clip(shown(followed!.name), 80)} has no other pane` : `pane ${n} was closed, and so was its session`, code: EXIT.failed };
            gone = true;
            finish();
            return;
          }
        }
        if (m !== n) await switchTo(m);
      }
    } finally {
      moving = false;
    }
  }
  /**
   * Shows pane `m` in place of the one shown: the old one given its size back and let go, the new one's
   * snapshot drawn from scratch (its history, modes and cursor). Output for it meanwhile is held, as at the start.
   */
  async function switchTo(m: number): Promise<void> {
    const from = n;
    early = [];
    // What the model still has queued of the old pane is parsed (and acknowledged to it) before the model is cleared.
    await new Promise<void>((resolve) => model.write('', resolve));
    acks.flush();
    await giveSizeBack(from);
    n = -1;
    timer?.();
    timer = null;
    await c.call('pty/detach', { pane: from }).catch(() => undefined);
    acks.reset();
    let next0: typeof snap | undefined;
    let why = '';
    try {
      next0 = (await c.call('pty/attach', { pane: m, mode: 'snapshot', history: o.history, flowControl: !o.readOnly })).snapshot;
    } catch (e) {
      why = clip(shown((e as Error).message), 200);
    }
    if (ended) return;
    if (!next0) {
      n = from;
      closing = { line: `session ${clip(shown(followed!.name), 80)} moved to pane ${m}, which this attach cannot show: ${why || 'it has no terminal'}`, code: EXIT.failed };
      return finish();
    }
    model.reset();
    model.resize(next0.cols, next0.rows);
    await new Promise<void>((resolve) => model.write(next0.serialized, resolve));
    next = next0.offset;
    carry = new Utf8Carry();
    cursorHidden = false;
    paging = false;
    prompt = undefined;
    search = undefined;
    match = undefined;
    searchNote = '';
    selection = undefined;
    copied = '';
    note = '';
    exit = undefined;
    view = undefined;
    about = (await c.call('pane/get', { pane: m }).catch(() => undefined)) ?? about;
    before = { cols: next0.cols, rows: next0.rows };
    fittedTo = undefined;
    n = m;
    fit();
    const held = early ?? [];
    early = undefined;
    for (const [p, offset, data] of held) take(p, offset, data);
    const keys = heldKeys ?? [];
    heldKeys = undefined;
    for (const k of keys) send(k);
    const endedHere = endedEarly.get(m);
    endedEarly.clear();
    if (endedHere === 'closed') return want(null);
    if (endedHere === 'exited' || about?.state === 'exited') return finish();
    schedule(true);
  }

  function finish(): void {
    if (ended) return;
    ended = true;
    timer?.();
    acks.flush();
    void (async () => {
      let end = closing;
      if (!end) {
        // The program ended: how, as `pane output --follow` says it.
        const p = await c.call('pane/get', { pane: remote ?? n }).catch(() => undefined);
        const how = p?.exit ?? exit ?? null;
        const who = p ?? about;
        end = how && who ? { line: exitLine(programOf(who), how), code: EXIT.ok } : { line: `pane ${n} ended`, code: EXIT.ok };
      }
      if (!gone) await giveSizeBack(n);
      await c.call('pty/detach', { pane: n }).catch(() => undefined);
      endWith(end);
    })();
  }

  // The person's terminal: raw keys, its own alternate screen (what was on it comes back on leaving), no autowrap.
  stdin.setRawMode(true);
  stdin.resume();
  stdout.write('\x1b[?1049h\x1b[?7l\x1b[H\x1b[2J');
  stdin.on('data', onKeys);
  stdout.on('resize', onResize);
  for (const s of ['SIGHUP', 'SIGTERM'] as const) process.on(s, onSignal);
  n = target;
  if (follow && about) followed = { id: about.session, name: subscribed.sessions.find((x) => x.id === about!.session)?.name ?? about.session };
  fit();
  const held = early;
  early = undefined;
  for (const [p, offset, data] of held) take(p, offset, data);
  if (endedEarly.get(n) === 'closed') {
    closing = { line: `pane ${n} was closed`, code: EXIT.failed };
    gone = true;
  }
  if (closedEarly || endedEarly.has(n) || remoteEndedEarly || about?.state === 'exited') finish();
  else {
    schedule(true);
    // A focus move between the snapshot of the state and now was not heard as one: the session is asked where it is.
    if (followed) {
      const id = followed.id;
      void c.call('session/get', { session: id }).then(
        (s) => void (s.focused !== null && s.focused !== n && want(s.focused)),
        () => undefined,
      );
    }
  }
  let end: { line: string; code: number } | undefined;
  try {
    end = await done;
  } finally {
    stdin.off('data', onKeys);
    stdout.off('resize', onResize);
    for (const s of ['SIGHUP', 'SIGTERM'] as const) process.off(s, onSignal);
    stdout.write(RESTORE);
    stdin.setRawMode(false);
    stdin.pause();
    acks.reset();
    model.dispose();
  }
  // Said on the person's own screen, once pane's is gone.
  ctx.err(`pane: ${end.line}`);
  return end.code;
}
