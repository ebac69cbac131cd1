// The free text at the end of a tag, editable as in acme. Enter saves it
// (pane/tag); a middle-click on a word, or Ctrl+Enter at the caret, executes that
// word: a pane command if it names one, else (server-side) a shell command.
import { vocabularyRevision } from '../../../kits/protocol/vocabRevision';
import { useEffect, useRef } from 'react';
import { closePane } from '../closePane';
import { client } from '../net/client';
import { store } from '../store';
import { termFor } from '../term/terminals';

/** The whitespace-delimited word around `offset` in `text`. */
export function wordAt(text: string, offset: number): string {
  let s = Math.min(offset, text.length);
  let e = s;
  while (s > 0 && !/\s/.test(text[s - 1] ?? '')) s--;
  while (e < text.length && !/\s/.test(text[e] ?? '')) e++;
  return text.slice(s, e);
}

export async function execWord(pane: number, line: string, origin: string): Promise<void> {
  const l = line.trim();
  if (l === '') return;
  if (l === 'close') return closePane(pane); // from the window, a busy pane asks first
  // The vocabulary this window shows: a word whose meaning changed since is refused by the server, never run otherwise.
  const words = store.getState().panes[pane]?.vocabulary;
  const r = await client.act('pane/exec', { pane, line: l, origin, fallback: origin === 'tag' || origin === 'tag-user' ? 'shell' : 'error', ...(words ? { vocabulary: vocabularyRevision(words) } : {}) }); // only the tag's free text (the person's own words) may run as a shell line
  if (r?.output) store.getState().notify('info', r.output.slice(0, 500));
}

export function UserText({ pane, text }: { pane: number; text: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  const editing = useRef(false);

  // The server's text wins whenever the user is not mid-edit.
  useEffect(() => {
    const el = ref.current;
    if (el && !editing.current && el.textContent !== text) el.textContent = text;
  }, [text]);

  const commit = () => {
    const t = (ref.current?.textContent ?? '').replace(/\n/g, ' ');
    if (t !== text) void client.act('pane/tag', { pane, user: t });
  };

  const selectedOrCaretWord = (): string => {
    const sel = window.getSelection();
    const el = ref.current;
    if (!sel || !el || !el.contains(sel.anchorNode)) return '';
    const s = sel.toString();
    if (s.trim() !== '') return s;
    return wordAt(el.textContent ?? '', sel.anchorOffset);
  };

  return (
    <span
      ref={ref}
      className="tag-user"
      role="textbox"
      aria-label="tag text (Enter saves; middle-click or Ctrl+Enter runs a word)"
      contentEditable="plaintext-only"
      suppressContentEditableWarning
      spellCheck={false}
      onFocus={() => (editing.current = true)}
      onBlur={() => {
        editing.current = false;
        commit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          if (e.ctrlKey) return void execWord(pane, selectedOrCaretWord(), 'tag');
          commit();
          termFor(pane).focus();
        } else if (e.key === 'Escape') {
          e.preventDefault();
          if (ref.current) ref.current.textContent = text;
          termFor(pane).focus();
        }
      }}
      onMouseDown={(e) => {
        if (e.button !== 1) return;
        // Middle button executes (acme), and must not paste the X primary selection.
        e.preventDefault();
        const el = ref.current;
        const sel = window.getSelection()?.toString() ?? '';
        if (sel.trim() !== '' && el?.contains(window.getSelection()?.anchorNode ?? null)) return void execWord(pane, sel, 'tag');
        const range = document.caretRangeFromPoint?.(e.clientX, e.clientY);
        const full = el?.textContent ?? '';
        if (range && el?.contains(range.startContainer)) void execWord(pane, wordAt(full, range.startOffset), 'tag');
      }}
    />
  );
}
