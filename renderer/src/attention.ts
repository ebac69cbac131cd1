// Things that want the person's attention, from server state only: a pane's bell
// (the attr `bell`, a timestamp the server's screen model sets on BEL) and an agent
// waiting for the human (attr `state` or `agent.state` = "waiting"). Marks the tag
// and, where the host offers one (Electron), raises a native notification.
import type { Pane } from '../../kits/protocol/model';
import { selectSession, store, type AppStore } from './store';

const WAITING = 'waiting';

function waiting(p: Pane | undefined): boolean {
  return p !== undefined && (p.attrs.state === WAITING || p.attrs['agent.state'] === WAITING);
}

function onChange(st: AppStore, prev: AppStore): void {
  if (st.panes === prev.panes) return;
  const focused = selectSession(st)?.focused ?? null;
  for (const [key, p] of Object.entries(st.panes)) {
    const n = Number(key);
    const before = prev.panes[n];
    if (!before) continue; // a pane seen for the first time (snapshot, new pane) has not rung now
    const name = p.tag.name || `pane ${n}`;
    const where = p.attrs.quadrant ? ` (${p.attrs.quadrant})` : '';
    if (p.attrs.bell !== undefined && p.attrs.bell !== before.attrs.bell) {
      const seen = n === focused && document.hasFocus();
      if (!seen) {
        st.ring(n);
        window.paneHost?.notify('pane', `${name}${where} rang the bell`);
      }
    }
    if (waiting(p) && !waiting(before)) {
      if (n !== focused) st.ring(n);
      window.paneHost?.notify('pane', `${name}${where} is waiting for you`);
    }
  }
}

export function installAttention(): void {
  store.subscribe(onChange);
}
