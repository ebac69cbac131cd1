// The largest terminal the server runs, in cells. A terminal owns this bound (its
// screen model pays for every cell); the model clamps viewports and floating panes
// to the same numbers (server/model/sizeLimits.ts), so no pane asks for more.

/**
 * Columns and rows at most. Each cell of a terminal costs the screen model
 * (xterm headless in the worker) about 12 bytes and every snapshot serializes
 * them, so 65535² would be ~50 GB for one pane; 1000×1000 is ~12 MB, and more
 * than an 8K display shows at any readable font (7680 px / 8 px ≈ 960 columns).
 */
export const MAX_COLS = 1000;
export const MAX_ROWS = 1000;
