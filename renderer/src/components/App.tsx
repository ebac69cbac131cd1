// The whole window: the workspace, the notices strip (between the panes and the
// status line, never over a pane), the status line, and whichever overlay is open.
// Overlays load on first use (their own chunks): the first frame needs none of them.
import { useApp } from '../store';
import { ConfirmClose, Dock, Launcher, NoticeHistory, Palette, Sessions, Switcher } from './Deferred';
import { Notices } from './Notices';
import { StatusLine } from './StatusLine';
import { Workspace } from './Workspace';

export function App() {
  const overlay = useApp((s) => s.overlay?.kind ?? null);
  return (
    <div className="app">
      <Workspace />
      <Notices />
      <StatusLine />
      {overlay === 'palette' ? <Palette /> : null}
      {overlay === 'launcher' ? <Launcher /> : null}
      {overlay === 'switcher' ? <Switcher /> : null}
      {overlay === 'history' ? <NoticeHistory /> : null}
      {overlay === 'sessions' ? <Sessions /> : null}
      {overlay === 'dock' ? <Dock /> : null}
      {overlay === 'confirm-close' ? <ConfirmClose /> : null}
    </div>
  );
}
