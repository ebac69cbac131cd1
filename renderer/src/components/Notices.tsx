// The notices strip: one line between the panes and the status line, so no notice
// ever covers a pane's body (an agent's pending question stays readable). Standing
// notices (an agent waits, two agents converge) come first and are updated in place;
// transient ones (errors, results) follow and time out. A notice about a pane is a
// button that focuses it; the full list is the history (its key is shown here).
// The line is always there, so a notice coming or going never resizes a pane.
import { shown } from '../../../kits/protocol/shown';
import { focusPane } from '../attention';
import { bindingFor } from '../keys/bindingFor';
import { store, useApp } from '../store';

export function Notices() {
  const notices = useApp((s) => s.notices);
  const historyKey = useApp((s) => bindingFor(s.keymap, 'notices.history'));
  const count = useApp((s) => s.history.length);
  return (
    <div className="notice-strip" role="region" aria-label="notices">
      {notices.map((n) => (
        <div
          key={n.key ?? n.id}
          className={`notice notice-${n.level}${n.key ? ' standing' : ''}`}
          role={n.level === 'info' ? 'status' : 'alert'}
          data-pane={n.pane}
          data-key={n.key}
          title={n.text + (n.updates ? ` (updated ${n.updates}×)` : '')}
        >
          {n.pane !== undefined ? (
            <button
              type="button"
              className="notice-go"
              onClick={() => {
                focusPane(n.pane!);
                if (!n.key) store.getState().dismiss(n.id);
              }}
            >
              {shown(n.text)}
            </button>
          ) : (
            <span className="notice-text">{shown(n.text)}</span>
          )}
          <button
            type="button"
            className="notice-x"
            aria-label="dismiss"
            onClick={() => (n.key ? store.getState().withdraw(n.key, `dismissed: ${n.text}`) : store.getState().dismiss(n.id))}
          >
            ×
          </button>
        </div>
      ))}
      <span className="notice-fill" />
      {count > 0 ? (
        <button type="button" className="notice-history" onClick={() => store.getState().setOverlay({ kind: 'history' })} title="notices history">
          history{historyKey ? ` ${historyKey}` : ''}
        </button>
      ) : null}
    </div>
  );
}
