// One line at the bottom: the session, the prefix mode, a keymap error if the
// user's file is broken (the previous keymap stays), the connection, key hints.
import { bindingFor } from '../keys/bindingFor';
import { selectSession, useApp } from '../store';

export function StatusLine() {
  const session = useApp(selectSession);
  const count = useApp((s) => Object.values(s.panes).filter((p) => p.session === s.sessionId).length);
  const prefix = useApp((s) => s.prefixArmed);
  const keymap = useApp((s) => s.keymap);
  const conn = useApp((s) => s.conn);
  const sr = useApp((s) => s.screenReader);
  const err = keymap.errors[0];
  return (
    <footer className="statusline" aria-label="status">
      <span className="sl-session">{session ? `${session.name} · ${count} pane${count === 1 ? '' : 's'}` : 'no session'}</span>
      {prefix ? <span className="sl-prefix" role="status">PREFIX</span> : null}
      {sr ? <span className="sl-sr">screen reader</span> : null}
      {err ? (
        <span className="sl-error" role="alert">
          keymap error: {err.file}: {err.field}: {err.message} — previous keymap kept
        </span>
      ) : null}
      <span className="sl-fill" />
      <span className="sl-hints">
        {bindingFor(keymap, 'palette.open') ?? ''} palette · {bindingFor(keymap, 'launcher.open') ?? ''} launcher
      </span>
      <span className={`sl-conn sl-${conn.state}`} role="status">
        {conn.state === 'open' ? 'connected' : conn.state === 'connecting' ? 'connecting…' : 'reconnecting…'}
      </span>
    </footer>
  );
}
