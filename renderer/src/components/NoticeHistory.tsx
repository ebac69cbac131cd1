// The notices history (its key, or the strip's "history" button): every notice this
// window showed, updated or withdrawn, newest first. Enter (or a click) on one about
// a pane focuses that pane; Escape closes.
import { useLayoutEffect, useRef, useState } from 'react';
import { focusPane } from '../attention';
import { store, useApp } from '../store';

const WHAT: Record<string, string> = { shown: '', updated: 'updated', withdrawn: 'withdrawn' };

export function NoticeHistory() {
  const history = useApp((s) => s.history);
  const list = [...history].reverse();
  const [sel, setSel] = useState(0);
  const ref = useRef<HTMLUListElement>(null);
  useLayoutEffect(() => ref.current?.focus(), []); // in the commit that shows it: no key slips to the terminal behind
  const close = () => store.getState().setOverlay(null);
  const go = (i: number) => {
    const e = list[i];
    close();
    if (e?.pane !== undefined && store.getState().panes[e.pane]) focusPane(e.pane);
  };
  return (
    <div className="overlay-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="history" role="dialog" aria-modal="true" aria-label="notices history">
        <h2 className="ov-title">Notices — newest first</h2>
        <ul
          ref={ref}
          tabIndex={0}
          role="listbox"
          aria-label="notices"
          aria-activedescendant={list.length > 0 ? `hist-${sel}` : undefined}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setSel((i) => Math.min(list.length - 1, i + 1));
            else if (e.key === 'ArrowUp') setSel((i) => Math.max(0, i - 1));
            else if (e.key === 'Enter') go(sel);
            else if (e.key === 'Escape') close();
            else return;
            e.preventDefault();
          }}
        >
          {list.map((h, i) => (
            <li key={i} id={`hist-${i}`} role="option" aria-selected={i === sel} className={`${i === sel ? 'selected' : ''} hist-${h.level} hist-${h.what}`} onMouseDown={() => go(i)}>
              <span className="hist-at">{new Date(h.at).toLocaleTimeString()}</span>
              <span className="hist-what">{WHAT[h.what]}</span>
              <span className="hist-text">{h.text}</span>
            </li>
          ))}
          {list.length === 0 ? (
            <li className="picker-empty" role="option" aria-selected={false} aria-disabled="true">
              no notices yet
            </li>
          ) : null}
        </ul>
      </div>
    </div>
  );
}
