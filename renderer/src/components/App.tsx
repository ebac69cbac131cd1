// The whole window: the workspace, the status line, and whichever overlay is open.
import { useApp } from '../store';
import { ConfirmClose } from './ConfirmClose';
import { Launcher } from './Launcher';
import { Notices } from './Notices';
import { Palette } from './Palette';
import { StatusLine } from './StatusLine';
import { Switcher } from './Switcher';
import { Workspace } from './Workspace';

export function App() {
  const overlay = useApp((s) => s.overlay?.kind ?? null);
  return (
    <div className="app">
      <Workspace />
      <StatusLine />
      {overlay === 'palette' ? <Palette /> : null}
      {overlay === 'launcher' ? <Launcher /> : null}
      {overlay === 'switcher' ? <Switcher /> : null}
      {overlay === 'confirm-close' ? <ConfirmClose /> : null}
      <Notices />
    </div>
  );
}
