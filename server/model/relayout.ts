// Geometry applied, once per layout change: the session's placements are computed
// (kits/layout), each PTY whose body changed is resized exactly once, and each
// pane's `quadrant` attr follows its place — with or without a window open.
import { placements } from '../../kits/layout/geometry';
import type { Session } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';
import { fitPane, setAttrs } from './paneOps';

/**
 * The quadrant attr of a hidden pane (a float put away, a tile hidden as one): it sits
 * nowhere on screen, and `pane ls`, the switcher and "ada (top-left)" had named the
 * corner its put-away float would take (a hidden tile read bottom-right).
 */
export const HIDDEN_QUADRANT = 'hidden';

/** Recomputes placements and applies them to PTYs and quadrant attrs; publishes only the attrs that changed. */
export function applyGeometry(server: PaneServer, s: Session): void {
  s.placements = placements(s);
  const hidden = new Set(s.floating.filter((f) => !f.visible).map((f) => f.pane));
  for (const pl of s.placements) {
    const p = server.panes.get(pl.pane);
    if (!p) continue;
    fitPane(server, p, pl.cols, pl.rows);
    setAttrs(server, p, { quadrant: hidden.has(pl.pane) ? HIDDEN_QUADRANT : pl.quadrant });
  }
}
