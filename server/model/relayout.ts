// Geometry applied, once per layout change: the session's placements are computed
// (kits/layout), each PTY whose body changed is resized exactly once, and each
// pane's `quadrant` attr follows its place — with or without a window open.
import { placements } from '../../kits/layout/geometry';
import type { Session } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';

/** Recomputes placements and applies them to PTYs and quadrant attrs; publishes nothing itself. */
export function applyGeometry(server: PaneServer, s: Session): void {
  s.placements = placements(s);
  for (const pl of s.placements) {
    const p = server.panes.get(pl.pane);
    if (!p) continue;
    if (p.cols !== pl.cols || p.rows !== pl.rows) {
      p.cols = pl.cols;
      p.rows = pl.rows;
      server.terminals.get(p.n)?.resize(pl.cols, pl.rows);
    }
    if (p.attrs.quadrant !== pl.quadrant) {
      p.attrs = { ...p.attrs, quadrant: pl.quadrant };
      server.publish('pane/attrs-changed', { pane: p.n, attrs: p.attrs });
    }
  }
}
