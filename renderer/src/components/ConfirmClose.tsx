// "vim is running in pane 3 — close it? y/n": asked before a window close would end
// a program other than an idle shell. y closes; n, Escape or Enter keep the pane
// (Enter keeps it, so a second slip does not lose the work the first one spared).
import { closePaneNow } from '../closePane';
import { store, useApp } from '../store';

export function ConfirmClose() {
  const ov = useApp((s) => (s.overlay?.kind === 'confirm-close' ? s.overlay : null));
  if (!ov) return null;
  const keep = () => store.getState().setOverlay(null);
  // The dialog stays until the pane is gone: closing it first would hand the keyboard back
  // to the dying terminal, whose focus report would then reach a pane that no longer exists.
  const close = () => void closePaneNow(ov.pane).finally(keep);
  const question = `${ov.program} is running in pane ${ov.pane} — close it?`;
  return (
    <div className="overlay-backdrop" onMouseDown={(e) => e.target === e.currentTarget && keep()}>
      <div
        className="confirm"
        role="alertdialog"
        aria-modal="true"
        aria-label={question}
        data-confirm="close"
        onKeyDown={(e) => {
          const k = e.key.toLowerCase();
          if (k === 'y') close();
          else if (k === 'n' || k === 'escape') keep();
          else return;
          e.preventDefault();
          e.stopPropagation();
        }}
      >
        <p className="confirm-text">
          <strong>{ov.program}</strong> is running in pane {ov.pane} — close it? <kbd>y</kbd>/<kbd>n</kbd>
        </p>
        <div className="confirm-buttons">
          <button type="button" autoFocus onClick={keep}>
            Keep (n)
          </button>
          <button type="button" className="danger" onClick={close}>
            Close {ov.program} (y)
          </button>
        </div>
      </div>
    </div>
  );
}
