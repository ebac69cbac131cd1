// Transient notices: errors from requests (every failed gesture says why), results
// of executed commands, and agents that want the person (attention.ts). Errors and
// warnings are alerts; the rest are polite status. A notice about a pane is a
// button: clicking it focuses that pane.
import { focusPane } from '../attention';
import { store, useApp } from '../store';

export function Notices() {
  const notices = useApp((s) => s.notices);
  return (
    <div className="notices">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.level}`} role={n.level === 'info' ? 'status' : 'alert'} data-pane={n.pane}>
          {n.pane !== undefined ? (
            <button
              type="button"
              className="notice-go"
              title="focus the pane"
              onClick={() => {
                focusPane(n.pane!);
                store.getState().dismiss(n.id);
              }}
            >
              {n.text}
            </button>
          ) : (
            <span>{n.text}</span>
          )}
          <button type="button" aria-label="dismiss" onClick={() => store.getState().dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
