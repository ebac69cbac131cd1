// After any layout change: recompute each pane's size from the tree and tell
// its PTY, so headless sessions (no window to measure) still get sane sizes.
import type { Session } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';
import { paneSize } from './lifecycle';

export function relayout(server: PaneServer, s: Session): void {
  for (const p of server.panesOf(s)) {
    const { cols, rows } = paneSize(server, s, p.n);
    if (p.cols === cols && p.rows === rows) continue;
    p.cols = cols;
    p.rows = rows;
    server.terminals.get(p.n)?.resize(cols, rows);
  }
  server.layoutChanged(s);
}
