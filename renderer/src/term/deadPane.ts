// A pane whose program ended, in this window: its terminal says how and when (written
// into this window's xterm, not into the pane's stream, so `pane output` stays the
// program's own bytes), Enter reruns it, and any other key gets a hint — never silence.
import { standsIn } from '../bodies/traits';
import { DEAD_KEY_HINT, exitNotice, programOf } from '../../../kits/protocol/exitLabel';
import { client } from '../net/client';
import { store } from '../store';
import type { TermView } from './termView';

/** The exit (its time) each pane's terminal has already told, so it is told once per terminal. */
const told = new WeakMap<TermView, number>();
/** Terminals whose last words are the hint already: one hint until something else is written. */
const hinted = new WeakSet<TermView>();
/** Terminals whose attach finished: a notice written before the snapshot would land above it. */
const attached = new WeakSet<TermView>();

/** Attaches (or re-attaches) a view, then tells its exit if its pane has ended. */
export async function attachTelling(v: TermView): Promise<void> {
  attached.delete(v);
  told.delete(v);
  hinted.delete(v);
  await v.attach();
  attached.add(v);
  tellExit(v);
}

/** Writes the notice into a view whose pane has exited, once per exit (and again into a rebuilt terminal). */
export function tellExit(v: TermView): void {
  const p = store.getState().panes[v.pane];
  if (!p || p.state !== 'exited' || p.exit === null || !attached.has(v)) return;
  if (told.get(v) === p.exit.at) return;
  told.set(v, p.exit.at);
  hinted.delete(v);
  // A stand-in whose remote pane is gone from its host: nothing to run again there.
  const gone = standsIn(p.kind) ? p.attrs['remote.gone'] : undefined;
  v.term.write(gone ? `\x1b[0m\r\n\x1b[1;31m[${gone}]\x1b[0m — close this pane (the stand-in)\r\n` : exitNotice(programOf(p), p.exit));
}

/** Keys typed into a dead pane: true when handled here (Enter reruns, else a hint). */
export function deadKey(v: TermView, data: Uint8Array): boolean {
  const p = store.getState().panes[v.pane];
  if (!p || p.state !== 'exited') return false;
  if (data.length === 1 && (data[0] === 13 || data[0] === 10)) {
    hinted.delete(v);
    void client.act('pane/restart', { pane: v.pane });
    return true;
  }
  if (!hinted.has(v)) {
    v.term.write(DEAD_KEY_HINT);
    hinted.add(v);
  }
  return true;
}
