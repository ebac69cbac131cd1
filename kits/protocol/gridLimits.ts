// pty/grid's bound (pty.ts), zod-free: the CLI's start-up path reads it.

/** Rows one pty/grid answer holds at most: a tall screen is ~100; 1000 plain rows stay far inside a frame. */
export const MAX_GRID_ROWS = 1000;
