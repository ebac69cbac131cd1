// The shared fuzzy list behind the palette and the launcher: type to filter, arrows
// to move, Enter to run, Escape to close. A modal dialog with a listbox for screen readers.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { rank, type FuzzyHit } from '../ui/fuzzy';
import { store } from '../store';

export interface PickerProps<T> {
  id: string;
  title: string;
  placeholder: string;
  items: T[];
  fields: (item: T) => string[];
  keyOf: (item: T) => string;
  render: (item: T, hit: FuzzyHit) => ReactNode;
  onPick: (item: T, query: string) => void;
  /** Enter with a query no item matches (e.g. a command with arguments); return true if taken. */
  onFreeText?: (query: string) => boolean;
  empty?: ReactNode;
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
  const [index, setIndex] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const ranked = useMemo(() => rank(query, p.items, p.fields), [query, p.items, p.fields]);
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
    close();
    p.onPick(r.item, query);
  };

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
              if (p.onFreeText && p.onFreeText(query)) close();
              else pick(sel);
            } else if (e.key === 'Escape') close();
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
          {ranked.length === 0 ? <li className="picker-empty">{p.empty ?? 'nothing matches'}</li> : null}
        </ul>
      </div>
    </div>
  );
}
