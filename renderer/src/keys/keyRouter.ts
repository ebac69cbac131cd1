// The one place keys are matched: a capture-phase listener on the window sees
// every keydown before xterm's textarea does, runs bound chords (and the prefix
// mode), and lets everything else through to the terminal untouched.
import { chordFromEvent } from '../../../kits/protocol/chord';
import type { Action } from '../../../kits/protocol/keymap';
import { commitSwitcher, runAction, setHeldModifiers } from '../actions';
import { store } from '../store';

/** A prefix waits this long for its key, then lapses (tmux's repeat-time is similar). */
const PREFIX_TIMEOUT_MS = 2000;
let prefixTimer: ReturnType<typeof setTimeout> | null = null;

function lookup(table: { chord: string; action: Action }[], chord: string): Action | undefined {
  return table.find((b) => b.chord === chord)?.action;
}

/** A switcher opened by a chord with modifiers commits when they are let go (Alt+Tab); any other opening waits for Enter. */
function holding(action: Action, e: KeyboardEvent): void {
  setHeldModifiers((action === 'switcher.next' || action === 'switcher.prev') && (e.ctrlKey || e.altKey || e.metaKey));
}

function swallow(e: KeyboardEvent): void {
  e.preventDefault();
  e.stopPropagation();
}

function onKeyDown(e: KeyboardEvent): void {
  if (e.isComposing) return;
  const chord = chordFromEvent(e);
  if (!chord) return;
  const st = store.getState();
  const { keymap } = st;

  if (st.prefixArmed) {
    swallow(e);
    st.setPrefix(false);
    if (prefixTimer) clearTimeout(prefixTimer);
    const action = lookup(keymap.prefixBindings, chord);
    if (action) holding(action, e), void runAction(action);
    else if (chord !== 'Escape') st.notify('info', `prefix: ${chord} is not bound`);
    return;
  }

  const ov = st.overlay;
  if (ov?.kind === 'switcher') {
    if (chord === 'Enter') return swallow(e), commitSwitcher();
    if (chord === 'Escape') return swallow(e), st.setOverlay(null);
    if (chord === 'Down' || chord === 'Right' || chord === 'Tab') return swallow(e), void runAction('switcher.next');
    if (chord === 'Up' || chord === 'Left' || chord === 'Shift+Tab') return swallow(e), void runAction('switcher.prev');
  }

  if (keymap.prefix !== null && chord === keymap.prefix) {
    swallow(e);
    st.setPrefix(true);
    if (prefixTimer) clearTimeout(prefixTimer);
    prefixTimer = setTimeout(() => store.getState().setPrefix(false), PREFIX_TIMEOUT_MS);
    return;
  }

  const action = lookup(keymap.bindings, chord);
  // The switcher has no box of its own to type into: a key it does not take would have gone to the
  // focused pane's program under it (a digit read off its list, typed into the shell).
  if (!action && ov?.kind === 'switcher') return swallow(e);
  if (!action) return;
  swallow(e);
  holding(action, e);
  void runAction(action);
}

function onKeyUp(e: KeyboardEvent): void {
  // Alt+Tab-like: the switcher opened by a chord commits when its modifiers are let go.
  const ov = store.getState().overlay;
  if (ov?.kind === 'switcher' && ov.held && !e.ctrlKey && !e.altKey && !e.metaKey) commitSwitcher();
}

export function installKeyRouter(): () => void {
  window.addEventListener('keydown', onKeyDown, true);
  window.addEventListener('keyup', onKeyUp, true);
  return () => {
    window.removeEventListener('keydown', onKeyDown, true);
    window.removeEventListener('keyup', onKeyUp, true);
  };
}
