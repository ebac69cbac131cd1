// The whole window: the workspace, the notices strip (between the panes and the
// status line, never over a pane), the status line, and whichever overlay is open.
import { useApp } from '../store';
import { ConfirmClose } from './ConfirmClose';
import { Launcher } from './Launcher';
import { NoticeHistory } from './NoticeHistory';
import { Notices } from './Notices';
import { Palette } from './Palette';
import { Sessions } from './Sessions';
import { StatusLine } from './StatusLine';
import { Switcher } from './Switcher';
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
      {overlay === 'confirm-close' ? <ConfirmClose /> : null}
    </div>
  );
}
