// Transient notices: errors from requests (every failed gesture says why) and
// results of executed commands. Errors are alerts; the rest are polite status.
import { store, useApp } from '../store';

export function Notices() {
  const notices = useApp((s) => s.notices);
  return (
    <div className="notices">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.level}`} role={n.level === 'error' ? 'alert' : 'status'}>
          <span>{n.text}</span>
          <button type="button" aria-label="dismiss" onClick={() => store.getState().dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
