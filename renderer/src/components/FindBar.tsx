// Find in a pane's scrollback (Ctrl+Shift+F): xterm's search addon, incremental
// as you type; Enter finds the next match, Shift+Enter the previous, Escape closes.
import { useState } from 'react';
import { store } from '../store';
import { termFor } from '../term/terminals';

const DECORATIONS = {
  matchBackground: '#3e4451',
  activeMatchBackground: '#e5c07b',
  matchOverviewRuler: '#888888',
  activeMatchColorOverviewRuler: '#e5c07b',
};

export function FindBar({ pane }: { pane: number }) {
  const [q, setQ] = useState('');
  const [found, setFound] = useState<boolean | null>(null);
  const search = (query: string, back = false, incremental = false) => {
    const s = termFor(pane).search;
    if (query === '') {
      s.clearDecorations();
      return setFound(null);
    }
    const opts = { decorations: DECORATIONS, incremental };
    setFound(back ? s.findPrevious(query, opts) : s.findNext(query, opts));
  };
  const close = () => {
    termFor(pane).search.clearDecorations();
    store.getState().setOverlay(null);
  };
  return (
    <div className="findbar" role="search" aria-label={`find in pane ${pane}`}>
      <input
        autoFocus
        value={q}
        placeholder="find in scrollback"
        aria-label="find"
        onChange={(e) => {
          setQ(e.target.value);
          search(e.target.value, false, true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            search(q, e.shiftKey);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            close();
          }
        }}
      />
      <span className="find-state" role="status">{found === false ? 'no match' : ''}</span>
      <button type="button" onClick={() => search(q, true)} aria-label="previous match">↑</button>
      <button type="button" onClick={() => search(q)} aria-label="next match">↓</button>
      <button type="button" onClick={close} aria-label="close find">×</button>
    </div>
  );
}
