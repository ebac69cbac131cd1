// Find in a pane's scrollback (Ctrl+Shift+F): xterm's search addon, incremental
// as you type; Enter finds the next match, Shift+Enter the previous, Escape closes.
// Shows where the active match is among all ("3 of 17", from onDidChangeResults).
import { SearchAddon } from '@xterm/addon-search';
import type { Terminal } from '@xterm/xterm';
import { useEffect, useState } from 'react';
import { store } from '../store';
import { termFor } from '../term/terminals';
import { takeCaughtKeys } from './caughtKeys';

/** Each terminal's search addon, loaded the first time it is searched (it comes with this chunk, not the first frame's). */
const addons = new WeakMap<Terminal, SearchAddon>();

function searchOf(pane: number): SearchAddon {
  const term = termFor(pane).term;
  let a = addons.get(term);
  if (!a) {
    a = new SearchAddon();
    term.loadAddon(a);
    addons.set(term, a);
  }
  return a;
}

const DECORATIONS = {
  matchBackground: '#3e4451',
  activeMatchBackground: '#e5c07b',
  matchOverviewRuler: '#888888',
  activeMatchColorOverviewRuler: '#e5c07b',
};

/** "3 of 17"; the addon stops counting at 1000 and says -1 for the index past its highlight limit. */
export function countText(r: { index: number; count: number }): string {
  if (r.count === 0) return 'no match';
  const of = r.count >= 1000 ? '1000+' : String(r.count);
  return r.index < 0 ? `${of} matches` : `${r.index + 1} of ${of}`;
}

export function FindBar({ pane }: { pane: number }) {
  // What was typed while this chunk loaded (Ctrl+Shift+F and the query at once, right after start-up) is the query.
  const [first] = useState(() => takeCaughtKeys());
  const [q, setQ] = useState(first.text);
  const [found, setFound] = useState<boolean | null>(null);
  const [results, setResults] = useState<{ index: number; count: number } | null>(null);
  useEffect(() => {
    const sub = searchOf(pane).onDidChangeResults((r) => setResults(r ? { index: r.resultIndex, count: r.resultCount } : null));
    return () => sub.dispose();
  }, [pane]);
  useEffect(() => {
    if (first.text !== '') search(first.text, false, true);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const search = (query: string, back = false, incremental = false) => {
    const s = searchOf(pane);
    if (query === '') {
      s.clearDecorations();
      setResults(null);
      return setFound(null);
    }
    const opts = { decorations: DECORATIONS, incremental };
    setFound(back ? s.findPrevious(query, opts) : s.findNext(query, opts));
  };
  const close = () => {
    searchOf(pane).clearDecorations();
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
      <span className={`find-state${found === false ? ' none' : ''}`} role="status" aria-label="matches">
        {found === false ? 'no match' : results && q !== '' ? countText(results) : ''}
      </span>
      <button type="button" onClick={() => search(q, true)} aria-label="previous match">↑</button>
      <button type="button" onClick={() => search(q)} aria-label="next match">↓</button>
      <button type="button" onClick={close} aria-label="close find">×</button>
    </div>
  );
}
