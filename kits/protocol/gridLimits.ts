// pty/grid's bound (pty.ts), zod-free: the CLI's start-up path reads it.

/** Rows one pty/grid answer holds at most: a tall screen is ~100; 1000 plain rows stay far inside a frame. */
export const MAX_GRID_ROWS = 1000;
/**
 * Panes whose last pty/grid answer one client is remembered for (to answer the next
 * with a delta): a viewer shows a few panes, a dashboard tens; past it the oldest is
 * forgotten and its next call answers whole (`desynced`).
 */
export const MAX_GRID_BASES = 64;
