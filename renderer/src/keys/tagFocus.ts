// The tag-toolbar key: moves the keyboard from the focused pane's terminal to its tag
// toolbar (first command word shown, else the overflow button, else the tag text),
// and back to the terminal when pressed again (Escape in the toolbar does the same).
import { selectSession, store } from '../store';
import { termFor } from '../term/terminals';

/** The focused pane's tag toolbar element, if drawn. */
function tagOf(pane: number): HTMLElement | null {
  return document.querySelector<HTMLElement>(`section[data-pane="${pane}"] [role="toolbar"]`);
}

/** The toolbar's controls the keyboard can reach, in order (folded words are in the … menu instead). */
export function toolbarItems(tag: HTMLElement): HTMLElement[] {
  return [...tag.querySelectorAll<HTMLElement>('button:not([data-folded]), .tag-user')];
}

export function toggleTagFocus(): void {
  const st = store.getState();
  const pane = selectSession(st)?.focused ?? null;
  if (pane === null) return st.notify('info', 'no pane is focused');
  const tag = tagOf(pane);
  if (!tag) return;
  if (tag.contains(document.activeElement)) return termFor(pane).focus();
  const first = toolbarItems(tag)[0];
  first?.focus();
}
