// What only this window knows: which overlay is open, notices (and their history),
// the prefix mode, bells not yet seen, screen-reader mode, focus history, font zoom
// and measured cell size.
// None of it is server state; losing it on reload loses nothing that matters.
import type { StateSlice } from './types';

export type Overlay =
  | { kind: 'palette' }
  | { kind: 'launcher' }
  | { kind: 'find'; pane: number }
  | { kind: 'copy'; pane: number }
  | { kind: 'history' }
  | { kind: 'sessions' }
  | { kind: 'dock' }
  /** Closing would end `program` in `pane`: y/n. */
  | { kind: 'confirm-close'; pane: number; program: string }
  | { kind: 'switcher'; order: number[]; index: number; /** commit on modifier release */ held: boolean };

export interface Notice {
  id: number;
  level: 'error' | 'warn' | 'info';
  text: string;
  /** The pane the notice is about: clicking the notice focuses it. */
  pane?: number;
  /** A standing notice (an agent waiting, two agents converging): replaced in place by key, never timed out. */
  key?: string;
  /** Times it was updated in place. */
  updates?: number;
}

/** A line of the notices history (newest last). */
export interface HistoryEntry {
  at: number;
  level: Notice['level'];
  text: string;
  pane?: number;
  key?: string;
  /** What happened: shown, updated in place, withdrawn. */
  what: 'shown' | 'updated' | 'withdrawn';
}

/** `ended`: closed for good (a grant that no longer lets this window in); `closed` is retried. */
/** link: the connection's measured round trip (the hello's) and whether it is slow enough to attach screens first (net/link.ts). */
export type ConnState = {
  state: 'connecting' | 'open' | 'closed' | 'ended';
  detail?: string;
  link?: { rttMs: number; slow: boolean };
  /** Open, but the server has not answered the link watch's question (nor sent anything) for this many ms (net/link.ts). */
  silentMs?: number;
  /** Closed, and the screens shown are no longer live: the server said it was stopped, or it has not answered for a while. The workspace dims them. */
  stale?: boolean;
};
/** What a grant's guest window was told at hello: which grant, its mode, when it ends. */
export interface Viewer {
  id: string;
  mode: 'ro' | 'rw';
  expiresAt: number;
}

export interface UiSlice {
  overlay: Overlay | null;
  notices: Notice[];
  history: HistoryEntry[];
  /** Font zoom steps from the settings' size (Ctrl+= / Ctrl+- / Ctrl+0). */
  fontZoom: number;
  prefixArmed: boolean;
  /** Sessions whose typing this window copies to each terminal pane on screen (input.sync; term/syncInput.ts). */
  synced: Record<string, true>;
  bells: Record<number, true>;
  screenReader: boolean;
  /** Most recently focused first; the switcher's order. */
  mru: number[];
  /** Pixel size of one terminal cell, measured as xterm lays it out (ui/measureCell.ts). */
  cell: { w: number; h: number };
  /** The cell was measured with the page's fonts loaded: only then is the viewport reported. */
  cellMeasured: boolean;
  conn: ConnState;
  /** Set when this window is an attach grant's guest (its welcome said so): ro never types, no guest resizes. */
  viewer: Viewer | null;
  setViewer(v: Viewer | null): void;
  /** Who this window acts as (its welcome's user): a pane owned by anyone else says whose it is in its tag. */
  me: string | null;
  setMe(user: string): void;
  setOverlay(o: Overlay | null): void;
  notify(level: Notice['level'], text: string, pane?: number): void;
  dismiss(id: number): void;
  /** Shows or updates in place the standing notice `key`. */
  standing(key: string, level: Notice['level'], text: string, pane?: number): void;
  /** Takes a standing notice down (noting why in the history). */
  withdraw(key: string, why?: string): void;
  setFontZoom(steps: number): void;
  setPrefix(armed: boolean): void;
  setSynced(session: string, on: boolean): void;
  ring(pane: number): void;
  clearBell(pane: number): void;
  setScreenReader(on: boolean): void;
  touchFocus(pane: number): void;
  setCell(cell: { w: number; h: number }, measured?: boolean): void;
  setConn(c: ConnState): void;
}

let nextNotice = 1;
/** Notices disappear on their own after this long; errors and warnings stay twice as long. */
const NOTICE_MS = 6000;
/** Transient notices on screen at once; older ones stay in the history. */
const TRANSIENT_MAX = 3;
/** History lines kept: a working day of agent news, bounded. */
const HISTORY_MAX = 300;

function logged(h: HistoryEntry[], e: HistoryEntry): HistoryEntry[] {
  const next = [...h, e];
  return next.length > HISTORY_MAX ? next.slice(next.length - HISTORY_MAX) : next;
}

export const createUiSlice: StateSlice<UiSlice> = (set, get) => ({
  overlay: null,
  notices: [],
  history: [],
  fontZoom: 0,
  prefixArmed: false,
  synced: {},
  bells: {},
  screenReader: false,
  mru: [],
  cell: { w: 8, h: 17 },
  cellMeasured: false,
  conn: { state: 'connecting' },
  viewer: null,
  me: null,
  setOverlay: (overlay) => set({ overlay }),
  notify(level, text, pane) {
    const id = nextNotice++;
    // Same text twice in a row is one notice (e.g. a repeated failing chord).
    const all = get().notices.filter((n) => n.text !== text);
    const standing = all.filter((n) => n.key !== undefined);
    const transient = all.filter((n) => n.key === undefined).slice(-(TRANSIENT_MAX - 1));
    const p = pane !== undefined ? { pane } : {};
    set({ notices: [...standing, ...transient, { id, level, text, ...p }], history: logged(get().history, { at: Date.now(), level, text, ...p, what: 'shown' }) });
    setTimeout(() => get().dismiss(id), level === 'info' ? NOTICE_MS : NOTICE_MS * 2);
  },
  dismiss: (id) => set({ notices: get().notices.filter((n) => n.id !== id) }),
  standing(key, level, text, pane) {
    const had = get().notices.find((n) => n.key === key);
    if (had && had.text === text && had.level === level && had.pane === pane) return;
    const p = pane !== undefined ? { pane } : {};
    const n: Notice = { id: had?.id ?? nextNotice++, level, text, key, updates: had ? (had.updates ?? 0) + 1 : 0, ...p };
    // Updated in place: the notice keeps its spot, so nothing stacks or jumps.
    const notices = had ? get().notices.map((x) => (x.key === key ? n : x)) : [n, ...get().notices];
    set({ notices, history: logged(get().history, { at: Date.now(), level, text, key, ...p, what: had ? 'updated' : 'shown' }) });
  },
  withdraw(key, why) {
    const had = get().notices.find((n) => n.key === key);
    if (!had) return;
    const p = had.pane !== undefined ? { pane: had.pane } : {};
    set({ notices: get().notices.filter((n) => n.key !== key), history: logged(get().history, { at: Date.now(), level: had.level, text: why ?? had.text, key, ...p, what: 'withdrawn' }) });
  },
  setFontZoom: (fontZoom) => set({ fontZoom }),
  setPrefix: (prefixArmed) => set({ prefixArmed }),
  setSynced(session, on) {
    const synced = { ...get().synced };
    if (on) synced[session] = true;
    else delete synced[session];
    set({ synced });
  },
  ring(pane) {
    if (!get().bells[pane]) set({ bells: { ...get().bells, [pane]: true } });
  },
  clearBell(pane) {
    if (!get().bells[pane]) return;
    const bells = { ...get().bells };
    delete bells[pane];
    set({ bells });
  },
  setScreenReader: (screenReader) => set({ screenReader }),
  touchFocus(pane) {
    const mru = get().mru;
    if (mru[0] !== pane) set({ mru: [pane, ...mru.filter((p) => p !== pane)].slice(0, 200) });
  },
  setCell(cell, measured = true) {
    const was = get();
    // Same size again (a font re-check that found nothing new): no re-render, no report.
    if (was.cell.w === cell.w && was.cell.h === cell.h && was.cellMeasured === measured) return;
    set({ cell, cellMeasured: measured });
  },
  setConn: (conn) => set({ conn }),
  setViewer: (viewer) => set({ viewer }),
  setMe: (me) => set({ me }),
});
