// Geometry applied, once per layout change: the session's placements are computed
// (kits/layout), each PTY whose body changed is resized exactly once, and each
// pane's `quadrant` attr follows its place — with or without a window open.
import { placements } from '../../kits/layout/geometry';
import type { Session } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';
import { fitPane, setAttrs } from './paneOps';

/** Recomputes placements and applies them to PTYs and quadrant attrs; publishes only the attrs that changed. */
export function applyGeometry(server: PaneServer, s: Session): void {
  s.placements = placements(s);
  for (const pl of s.placements) {
    const p = server.panes.get(pl.pane);
    if (!p) continue;
    fitPane(server, p, pl.cols, pl.rows);
    setAttrs(server, p, { quadrant: pl.quadrant });
  }
}
