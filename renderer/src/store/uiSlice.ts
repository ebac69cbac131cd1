// What only this window knows: which overlay is open, notices, the prefix mode,
// bells not yet seen, screen-reader mode, focus history and measured cell size.
// None of it is server state; losing it on reload loses nothing that matters.
import type { StateSlice } from './types';

export type Overlay =
  | { kind: 'palette' }
  | { kind: 'launcher' }
  | { kind: 'find'; pane: number }
  | { kind: 'switcher'; order: number[]; index: number; /** commit on modifier release */ held: boolean };

export interface Notice {
  id: number;
  level: 'error' | 'warn' | 'info';
  text: string;
  /** The pane the notice is about: clicking the notice focuses it. */
  pane?: number;
}

export type ConnState = { state: 'connecting' | 'open' | 'closed'; detail?: string };

export interface UiSlice {
  overlay: Overlay | null;
  notices: Notice[];
  prefixArmed: boolean;
  bells: Record<number, true>;
  screenReader: boolean;
  /** Most recently focused first; the switcher's order. */
  mru: number[];
  /** Pixel size of one terminal cell, measured as xterm lays it out (ui/measureCell.ts). */
  cell: { w: number; h: number };
  /** The cell was measured with the page's fonts loaded: only then is the viewport reported. */
  cellMeasured: boolean;
  conn: ConnState;
  setOverlay(o: Overlay | null): void;
  notify(level: Notice['level'], text: string, pane?: number): void;
  dismiss(id: number): void;
  setPrefix(armed: boolean): void;
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

export const createUiSlice: StateSlice<UiSlice> = (set, get) => ({
  overlay: null,
  notices: [],
  prefixArmed: false,
  bells: {},
  screenReader: false,
  mru: [],
  cell: { w: 8, h: 17 },
  cellMeasured: false,
  conn: { state: 'connecting' },
  setOverlay: (overlay) => set({ overlay }),
  notify(level, text, pane) {
    const id = nextNotice++;
    // Same text twice in a row is one notice (e.g. a repeated failing chord).
    const rest = get().notices.filter((n) => n.text !== text).slice(-4);
    set({ notices: [...rest, { id, level, text, ...(pane !== undefined ? { pane } : {}) }] });
    setTimeout(() => get().dismiss(id), level === 'info' ? NOTICE_MS : NOTICE_MS * 2);
  },
  dismiss: (id) => set({ notices: get().notices.filter((n) => n.id !== id) }),
  setPrefix: (prefixArmed) => set({ prefixArmed }),
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
});
