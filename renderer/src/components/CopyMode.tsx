// Copy mode (as tmux's vi copy mode): the keyboard moves a cursor through the pane's
// scrollback — h j k l / arrows, PgUp PgDn and Ctrl+B/F, Ctrl+U/D half pages, g G,
// 0 ^ $, H M L, w b e and W B E — / and ? search (n N repeat), v (or Space) starts a
// selection and V one of whole lines, y or Enter copies it to the clipboard and leaves,
// q, Esc or Ctrl+C leaves. No key typed in copy mode reaches the pane's program: a
// Ctrl+D or Ctrl+C from tmux habit had ended or interrupted it. Bound chords still work.
// The cursor is an xterm decoration and the selection xterm's own, so both scroll
// with the text; output that arrives meanwhile does not move them.
import { useEffect, useRef, useState } from 'react';
import type { IDecoration, IMarker, Terminal } from '@xterm/xterm';
import { chordFromEvent } from '../../../kits/protocol/chord';
import { store } from '../store';
import { CopyCursor, type Lines } from '../term/copyCursor';
import { plumbClick, termFor } from '../term/terminals';
import { type CaughtPress, takeCaughtPresses } from './caughtKeys';

function linesOf(term: Terminal): Lines {
  const b = () => term.buffer.active;
  return {
    get length() {
      return b().length;
    },
    get cols() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
    text: (y) => b().getLine(y)?.translateToString(true) ?? '',
  };
}

type Search = { dir: 1 | -1; query: string } | null;

/**
 * The keys pressed after copy mode was asked for and before its chunk was in (the first
 * second of a window), run in order as if typed now, so "prefix [ k k v $ y" right after
 * start-up does what it says. A / or ? starts a search whose query is the keys after it:
 * run at an Enter among them, else left in the search input to finish. A key that
 * leaves copy mode (q, y, Ctrl+C) ends the replay; the rest were typed for copy mode too.
 */
export function replayEarly(presses: CaughtPress[], onKey: (e: KeyboardEvent) => void, search: (s: Search & object, enter: boolean) => void): void {
  const plain = (k: CaughtPress) => !k.ctrlKey && !k.altKey && !k.metaKey;
  for (let i = 0; i < presses.length; i++) {
    if (store.getState().overlay?.kind !== 'copy') return;
    const k = presses[i]!;
    if (plain(k) && (k.key === '/' || k.key === '?')) {
      const dir = k.key === '/' ? 1 : -1;
      let query = '';
      let j = i + 1;
      for (; j < presses.length && presses[j]!.key !== 'Enter'; j++) {
        const r = presses[j]!;
        if (r.key === 'Backspace') query = [...query].slice(0, -1).join('');
        else if (plain(r) && [...r.key].length === 1) query += r.key;
      }
      if (j === presses.length) return search({ dir, query }, false);
      search({ dir, query }, true);
      i = j;
      continue;
    }
    onKey(new KeyboardEvent('keydown', { ...k, cancelable: true }));
  }
}

/** Terminal rows the bar can cover at the edge it sits on (20 px over rows of 15 or more px). */
const BAR_ROWS = 2;

export function CopyMode({ pane }: { pane: number }) {
  const [, redraw] = useState(0);
  const [typing, setTyping] = useState<Search>(null);
  const last = useRef<Search>(null);
  const [note, setNote] = useState('');
  const model = useRef<CopyCursor | null>(null);
  const input = useRef<HTMLInputElement>(null);
  /** The effect's search, for the search input (which lives outside the effect). */
  const findRef = useRef<((s: Search) => void) | null>(null);

  useEffect(() => {
    const term = termFor(pane).term;
    const b = term.buffer.active;
    const cur = new CopyCursor(linesOf(term), { x: b.cursorX, y: b.baseY + b.cursorY });
    model.current = cur;
    let deco: IDecoration | undefined;
    let marker: IMarker | undefined;

    const show = () => {
      const buf = term.buffer.active;
      const { x, y } = cur.cursor;
      if (y < buf.viewportY) term.scrollToLine(y);
      else if (y >= buf.viewportY + term.rows) term.scrollToLine(y - term.rows + 1);
      deco?.dispose();
      marker?.dispose();
      marker = term.registerMarker(y - (buf.baseY + buf.cursorY));
      deco = marker ? term.registerDecoration({ marker, x, width: 1, backgroundColor: '#e5c07b', foregroundColor: '#16181d', layer: 'top' }) : undefined;
      const sel = cur.selection();
      if (sel) term.select(sel.column, sel.row, sel.length);
      redraw((n) => n + 1);
    };

    const leave = () => store.getState().setOverlay(null);
    const copy = () => {
      const text = term.getSelection();
      if (text === '') return setNote('nothing selected (v starts a selection)');
      navigator.clipboard
        ?.writeText(text)
        .then(() => store.getState().notify('info', `copied ${text.length} character${text.length === 1 ? '' : 's'}`))
        .catch(() => store.getState().notify('error', 'could not copy: clipboard refused'));
      leave();
    };
    const find = (s: Search) => {
      if (!s) return;
      const m = cur.search(s.query, s.dir);
      if (!m) return setNote(`no match for ${s.query}`);
      setNote('');
      // Outside visual mode the match is what y copies, as with tmux's search.
      if (!cur.anchor) term.select(m.x, m.y, [...s.query].length);
      show();
      if (!cur.anchor) term.select(m.x, m.y, [...s.query].length);
    };
    findRef.current = (s) => {
      last.current = s;
      find(s);
    };

    const keys: Record<string, () => void> = {
      h: () => cur.move(-1, 0), ArrowLeft: () => cur.move(-1, 0),
      l: () => cur.move(1, 0), ArrowRight: () => cur.move(1, 0),
      k: () => cur.move(0, -1), ArrowUp: () => cur.move(0, -1),
      j: () => cur.move(0, 1), ArrowDown: () => cur.move(0, 1),
      PageUp: () => cur.page(-1), PageDown: () => cur.page(1),
      g: () => cur.top(), G: () => cur.bottom(), Home: () => cur.top(), End: () => cur.bottom(),
      '0': () => cur.lineStart(), '^': () => cur.lineFirst(), $: () => cur.lineEnd(),
      w: () => cur.word(1), b: () => cur.word(-1), e: () => cur.wordEnd(),
      W: () => cur.word(1, true), B: () => cur.word(-1, true), E: () => cur.wordEnd(true),
      H: () => cur.toLine(term.buffer.active.viewportY),
      M: () => cur.toLine(term.buffer.active.viewportY + Math.floor((term.rows - 1) / 2)),
      L: () => cur.toLine(term.buffer.active.viewportY + term.rows - 1),
      v: () => visual(false), ' ': () => visual(false), V: () => visual(true),
    };
    const half = () => Math.max(1, Math.floor(term.rows / 2));
    /** tmux's vi copy mode's Ctrl keys. */
    const ctrlKeys: Record<string, () => void> = {
      'Ctrl+U': () => cur.move(0, -half()), 'Ctrl+D': () => cur.move(0, half()),
      'Ctrl+B': () => cur.page(-1), 'Ctrl+F': () => cur.page(1),
    };
    const visual = (lines: boolean) => {
      cur.toggleVisual(lines);
      if (!cur.anchor) term.clearSelection();
    };
    const onKey = (e: KeyboardEvent) => {
      if ((e.target !== null && e.target === input.current) || e.isComposing) return;
      // The key router ran it (a bound chord, or the key after the prefix).
      if (e.defaultPrevented) return;
      if (e.ctrlKey || e.altKey || e.metaKey) {
        const chord = chordFromEvent(e);
        const { keymap } = store.getState();
        // Bound chords (the copy-mode key itself, focus keys...) are the key router's.
        if (!chord || chord === keymap.prefix || keymap.bindings.some((b) => b.chord === chord)) return;
        // Any other stays here: it never reaches the program under the copy mode.
        e.preventDefault();
        e.stopPropagation();
        if (chord === 'Ctrl+C') return leave();
        const f = ctrlKeys[chord];
        if (f) {
          f();
          show();
        }
        return;
      }
      e.preventDefault();
      e.stopPropagation();
      if (e.key === 'q') return leave();
      if (e.key === 'Escape') {
        if (cur.anchor) return (cur.anchor = null), term.clearSelection(), show();
        return leave();
      }
      if (e.key === 'y' || e.key === 'Enter') return copy();
      if (e.key === 'o') {
        // Plumb: the selection, or the line under the cursor clicked at the cursor (a compiler error, a URL, a commit).
        const sel = term.getSelection().trim();
        const line = term.buffer.active.getLine(cur.cursor.y)?.translateToString(true) ?? '';
        if (sel !== '') void plumbClick(pane, sel, undefined);
        else if (cur.cursor.x < line.length) void plumbClick(pane, line, cur.cursor.x);
        return leave();
      }
      if (e.key === '/' || e.key === '?') return setTyping({ dir: e.key === '/' ? 1 : -1, query: '' });
      if (e.key === 'n' || e.key === 'N') {
        const s = last.current;
        return find(s && e.key === 'N' ? { ...s, dir: s.dir === 1 ? -1 : 1 } : s);
      }
      const f = keys[e.key];
      if (f) {
        f();
        show();
      }
    };
    window.addEventListener('keydown', onKey, true);
    show();
    replayEarly(takeCaughtPresses(), onKey, (s, enter) => (enter ? findRef.current?.(s) : setTyping(s)));
    return () => {
      window.removeEventListener('keydown', onKey, true);
      deco?.dispose();
      marker?.dispose();
      term.clearSelection();
      term.scrollToBottom();
      findRef.current = null;
    };
  }, [pane]);

  useEffect(() => {
    if (typing) input.current?.focus();
  }, [typing !== null]); // eslint-disable-line react-hooks/exhaustive-deps

  const cur = model.current;
  const buf = termFor(pane).term.buffer.active;
  const where = cur ? `${cur.cursor.y + 1}/${buf.length}` : '';
  // The bar sits over the pane's last rows; where the cursor is among them (as it is
  // on entry, at the prompt), it moves to the top, so it never hides the cursor.
  const edge = cur && cur.cursor.y - buf.viewportY >= termFor(pane).term.rows - BAR_ROWS ? 'top' : 'bottom';
  return (
    <div className="copybar" data-edge={edge} role="status" aria-label={`copy mode in pane ${pane}`}>
      <span className="cb-mode">{cur?.anchor ? (cur.lineWise ? 'COPY · LINES' : 'COPY · VISUAL') : 'COPY'}</span>
      {typing ? (
        <label className="cb-search">
          {typing.dir === 1 ? '/' : '?'}
          <input
            ref={input}
            aria-label={typing.dir === 1 ? 'search forward' : 'search backward'}
            value={typing.query}
            onChange={(e) => setTyping({ ...typing, query: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                e.stopPropagation();
                const s = typing;
                setTyping(null);
                findRef.current?.(s);
              } else if (e.key === 'Escape') {
                e.preventDefault();
                e.stopPropagation();
                setTyping(null);
              }
            }}
          />
        </label>
      ) : (
        <span className="cb-where">line {where}</span>
      )}
      <span className="cb-note">{note}</span>
      <span className="cb-keys">hjkl w b e move · / ? search · v V select · y copy · q quit</span>
    </div>
  );
}
