// Keys typed while a picker's chunk was still loading land in Deferred.tsx's KeyCatcher
// (an invisible input); the picker that mounts in its place starts with them. Its own
// module so the lazily loaded Picker and the eagerly loaded Deferred share it without a
// cycle. Native listeners: React renders the picker early and reveals it up to ~300 ms
// later (Suspense throttling), so the keys are taken when it mounts, not when it renders.
import { store } from '../store';

/**
 * Keys caught longer ago than this belong to something else (copy mode opened while
 * loading, which does not take them): a picker or find bar opened later starts empty.
 */
const CAUGHT_FRESH_MS = 3_000;

const caught = { text: '', enter: false, at: 0 };

/** The KeyCatcher's ref: a new catch starts empty; typing, Enter and Escape are recorded as they come. */
export function catchKeys(el: HTMLInputElement | null): void {
  if (!el) return;
  Object.assign(caught, { text: '', enter: false, at: performance.now() });
  el.addEventListener('input', () => Object.assign(caught, { text: el.value, at: performance.now() }));
  el.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') Object.assign(caught, { enter: true, at: performance.now() });
    else if (e.key === 'Escape') store.getState().setOverlay(null);
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
  Object.assign(caught, { text: '', enter: false, at: 0 });
  return c;
}
