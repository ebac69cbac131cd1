// pty/grid's bound (pty.ts), zod-free: the CLI's start-up path reads it.

/** Rows one pty/grid answer holds at most: a tall screen is ~100; 1000 plain rows stay far inside a frame. */
export const MAX_GRID_ROWS = 1000;
/**
 * Panes whose last pty/grid answer one client is remembered for (to answer the next
 * with a delta): a viewer shows a few panes, a dashboard tens; past it the oldest is
 * forgotten and its next call answers whole (`desynced`).
 */
export const MAX_GRID_BASES = 64;

/**
 * Scrollback lines an attach snapshot carries at most (pty/attach's history; its
 * default). Serializing costs ~25-50 us a line on the one worker all panes share, so
 * a full 10,000-line history would hold a window opening on many panes for seconds;
 * 2,000 lines redraw the screen with ample history at ~0.1 s. pty/screen still gives
 * all, and older output stays readable by offset (pty/read) and by row (pty/grid).
 */
export const ATTACH_HISTORY_MAX = 2_000;
