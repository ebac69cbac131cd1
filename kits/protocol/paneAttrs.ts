// Pane attributes the server sets for its own bookkeeping and the window reads.
// Zod-free: the renderer's first chunk reads it.

/** Set on a tile that pane/hide took out of the tiling: showing it puts it back there, and the window does not announce it as a float hidden from the person. */
export const HIDDEN_TILE_ATTR = 'hidden.tile';
