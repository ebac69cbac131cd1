// Keys typed while a picker's chunk was still loading land in Deferred.tsx's KeyCatcher
// (an invisible input); the picker that mounts in its place starts with them. Its own
// module so the lazily loaded Picker and the eagerly loaded Deferred share it without a
// cycle. Native listeners: React renders the picker early and reveals it up to ~300 ms
// later (Suspense throttling), so the keys are taken when it mounts, not when it renders.
import { store } from '../store';

/**
 * Keys caught longer ago than this belong to something else (an overlay opened while
 * loading and closed since): a picker, find bar or copy mode opened later starts empty.
 */
const CAUGHT_FRESH_MS = 3_000;

/**
 * Key presses kept for an overlay that takes keys, not text (copy mode): more than a
 * person types in the second or two a chunk takes; a stuck key's repeats stop here.
 */
const CAUGHT_PRESSES_MAX = 64;

/** A key press as copy mode reads one. */
export type CaughtPress = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'altKey' | 'metaKey' | 'shiftKey'>;

const caught = { text: '', enter: false, at: 0, presses: [] as CaughtPress[] };

/** The KeyCatcher's ref: a new catch starts empty; typing, Enter and Escape are recorded as they come. */
export function catchKeys(el: HTMLInputElement | null): void {
  if (!el) return;
  Object.assign(caught, { text: '', enter: false, at: performance.now(), presses: [] });
  el.addEventListener('input', () => Object.assign(caught, { text: el.value, at: performance.now() }));
  el.addEventListener('keydown', (e) => {
    // A chord the key router ran (the prefix, a binding) is not a key typed for the overlay.
    if (e.defaultPrevented || e.isComposing) return;
    if (caught.presses.length < CAUGHT_PRESSES_MAX && !/^(Shift|Control|Alt|Meta)$/.test(e.key)) {
      const { key, code, ctrlKey, altKey, metaKey, shiftKey } = e;
      caught.presses.push({ key, code, ctrlKey, altKey, metaKey, shiftKey });
    }
    if (e.key === 'Enter') Object.assign(caught, { enter: true, at: performance.now() });
    // Escape gives up on whatever was opening (copy mode included: with no selection yet, Escape leaves it).
    else if (e.key === 'Escape') store.getState().setOverlay(null);
    else caught.at = performance.now();
  });
}

/**
 * The keys a picker (palette, launcher, switcher) or the find bar was given before its chunk was in,
 * taken once as it mounts: it starts with them as its query and runs the choice if
 * Enter was pressed, so "Ctrl+Shift+P, type, Enter" right after start-up does what it says.
 */
export function takeCaughtKeys(): { text: string; enter: boolean } {
  const fresh = performance.now() - caught.at <= CAUGHT_FRESH_MS;
  const c = fresh ? { text: caught.text, enter: caught.enter } : { text: '', enter: false };
  Object.assign(caught, { text: '', enter: false, at: 0, presses: [] });
  return c;
}

/** The key presses copy mode was given before its chunk was in, taken once as it mounts, in order. */
export function takeCaughtPresses(): CaughtPress[] {
  const fresh = performance.now() - caught.at <= CAUGHT_FRESH_MS;
  const presses = fresh ? caught.presses : [];
  Object.assign(caught, { text: '', enter: false, at: 0, presses: [] });
  return presses;
}
