// What an empty session (or a window with no server yet) says instead of a blank screen.
import { useApp } from '../store';
import { bindingFor } from '../keys/bindingFor';

export function EmptyHint() {
  const conn = useApp((s) => s.conn);
  const keymap = useApp((s) => s.keymap);
  if (conn.state !== 'open') {
    return (
      <div className="empty-hint" role="status">
        {conn.state === 'connecting' ? 'connecting to the pane server…' : conn.state === 'ended' ? `disconnected from the pane server: ${conn.detail ?? 'closed'}` : `no connection to the pane server (${conn.detail ?? 'closed'}); retrying…`}
      </div>
    );
  }
  return (
    <div className="empty-hint" role="status">
      <p>No panes here.</p>
      <p>
        <kbd>{bindingFor(keymap, 'pane.new') ?? 'palette → New pane'}</kbd> opens a shell · <kbd>{bindingFor(keymap, 'launcher.open') ?? '—'}</kbd> the
        launcher · <kbd>{bindingFor(keymap, 'palette.open') ?? '—'}</kbd> the palette
      </p>
    </div>
  );
}
