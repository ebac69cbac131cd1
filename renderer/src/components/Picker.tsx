// The shared fuzzy list behind the palette and the launcher: type to filter, arrows
// to move, Enter to run, Escape to close. A modal dialog with a listbox for screen readers.
// Items that take arguments show their usage and run only once the arguments check.
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { rank, type FuzzyHit } from '../ui/fuzzy';
import { store } from '../store';
import { takeCaughtKeys } from './caughtKeys';

export interface PickerProps<T> {
  id: string;
  title: string;
  placeholder: string;
  items: T[];
  fields: (item: T) => string[];
  keyOf: (item: T) => string;
  render: (item: T, hit: FuzzyHit) => ReactNode;
  onPick: (item: T, query: string) => void;
  /** Enter with free text (e.g. a name to create); return true if taken, else the selection is picked. */
  onFreeText?: (query: string) => boolean;
  empty?: ReactNode;
  /** Names and keywords to rank by first (exact, then prefix); default: the first field. */
  keys?: (item: T) => string[];
  /** A query that is an item plus arguments ("split v 50"): that item alone, its usage, and what is wrong with the arguments. */
  withArgs?: (query: string) => { item: T; usage: string; error: string | null } | null;
  /** For an item that cannot run without arguments: the text to type instead ("resize "); null runs it. */
  argsFirst?: (item: T) => string | null;
}

/** The text with matched characters marked. */
export function Highlight({ text, hit }: { text: string; hit: FuzzyHit }) {
  const set = new Set(hit.indices);
  return (
    <>
      {[...text].map((ch, i) => (set.has(i) ? <mark key={i}>{ch}</mark> : <span key={i}>{ch}</span>))}
    </>
  );
}

export function Picker<T>(p: PickerProps<T>) {
  const [query, setQuery] = useState('');
  const [enterPending, setEnterPending] = useState(false);
  const [index, setIndex] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const typed = useMemo(() => p.withArgs?.(query) ?? null, [query, p.withArgs]);
  const ranked = useMemo(
    () => (typed ? [{ item: typed.item, hit: { score: 0, indices: [], tier: 'exact' as const } }] : rank(query, p.items, p.fields, p.keys)),
    [typed, query, p.items, p.fields, p.keys],
  );
  const sel = Math.min(index, Math.max(0, ranked.length - 1));

  useEffect(() => {
    listRef.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [sel]);

  const close = () => store.getState().setOverlay(null);
  const pick = (i: number) => {
    const r = ranked[i];
    if (!r) {
      if (p.onFreeText?.(query)) close();
      return;
    }
    if (typed) {
      if (typed.error === null) {
        close();
        p.onPick(r.item, query.trim());
      }
      return; // the error under the item says what to fix
    }
    const first = p.argsFirst?.(r.item) ?? null;
    if (first !== null) {
      setQuery(first);
      setIndex(0);
      return;
    }
    close();
    p.onPick(r.item, query);
  };
  // Keys typed while this picker's chunk loaded become its query; Enter among them runs the choice.
  useLayoutEffect(() => {
    const early = takeCaughtKeys();
    if (early.text) setQuery(early.text);
    if (early.enter) setEnterPending(true);
  }, []);
  useEffect(() => {
    if (!enterPending) return;
    setEnterPending(false);
    pick(sel);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enterPending]);

  return (
    <div className="overlay-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="picker" role="dialog" aria-modal="true" aria-label={p.title} data-picker={p.id}>
        <input
          className="picker-input"
          autoFocus
          value={query}
          placeholder={p.placeholder}
          aria-label={p.title}
          role="combobox"
          aria-expanded="true"
          aria-controls={`${p.id}-list`}
          aria-activedescendant={ranked[sel] ? `${p.id}-opt-${sel}` : undefined}
          onChange={(e) => {
            setQuery(e.target.value);
            setIndex(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setIndex((sel + 1) % Math.max(1, ranked.length));
            else if (e.key === 'ArrowUp') setIndex((sel - 1 + ranked.length) % Math.max(1, ranked.length));
            else if (e.key === 'Enter') {
              if (!typed && p.onFreeText?.(query)) close();
              else pick(sel);
            }
            else if (e.key === 'Escape') close();
            else return;
            e.preventDefault();
          }}
        />
        <ul className="picker-list" role="listbox" id={`${p.id}-list`} ref={listRef}>
          {ranked.map((r, i) => (
            <li
              key={p.keyOf(r.item)}
              id={`${p.id}-opt-${i}`}
              role="option"
              aria-selected={i === sel}
              className={i === sel ? 'selected' : ''}
              onMouseMove={() => i !== sel && setIndex(i)}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(i);
              }}
            >
              {p.render(r.item, r.hit)}
            </li>
          ))}
          {typed ? (
            <li className={`picker-args${typed.error ? ' invalid' : ''}`} role="status" aria-live="polite">
              <code>{typed.usage}</code> — {typed.error ?? `Enter runs “${query.trim()}”`}
            </li>
          ) : null}
          {ranked.length === 0 ? <li className="picker-empty">{p.empty ?? 'nothing matches'}</li> : null}
        </ul>
      </div>
    </div>
  );
}
