// Pane operations: outside a pane's birth and death (lifecycle.ts) and what the
// model follows of its program (paneTracker.ts), every change to a pane's fields
// is one of these. Each writes the field and publishes its event itself (fitPane
// leaves that to the layout change it is part of; readForeground is a live read),
// so a handler, an agent or the awareness engine says what it wants and never how
// the model keeps it (test/sessionWrites.test.ts holds that nothing else writes them).
import { faults } from '../../kits/protocol/error';
import type { LaunchSpec, Pane, PaneCommand, Tag } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';
import { tagWords } from './vocabulary';

export { MAX_CLIENT_ATTRS } from '../../kits/protocol/limits';

/**
 * The one attrs merge: `set` goes over the pane's attrs (a null removes its key);
 * when nothing changes nothing is published, else `pane/attrs-changed` once.
 * With `max`, a merge that would leave more keys than that is refused (a client's
 * pane/attrs). Returns whether anything changed.
 */
export function setAttrs(server: PaneServer, pane: Pane, set: Readonly<Record<string, string | null>>, max?: number): boolean {
  const next = { ...pane.attrs };
  let changed = false;
  for (const [k, v] of Object.entries(set)) {
    if (v === null ? !Object.hasOwn(next, k) : next[k] === v) continue;
    if (v === null) delete next[k];
    else next[k] = v;
    changed = true;
  }
  if (!changed) return false;
  if (max !== undefined && Object.keys(next).length > max) throw faults.failed(`pane ${pane.n} would have more than ${max} attrs (MAX_CLIENT_ATTRS); remove some first`);
  pane.attrs = next;
  server.publish('pane/attrs-changed', { pane: pane.n, attrs: next });
  return true;
}

/** Removals, for setAttrs, of each of the pane's attrs whose key `drop` picks. */
export function attrsRemoval(pane: Pane, drop: (key: string) => boolean): Record<string, null> {
  return Object.fromEntries(Object.keys(pane.attrs).filter(drop).map((k) => [k, null]));
}

/** Changes the pane's tag (name, the user's text, its words); publishes `pane/tag-changed` when it changed. */
export function setTag(server: PaneServer, pane: Pane, change: Partial<Tag>): boolean {
  const next: Tag = { ...pane.tag, ...change };
  if (next.name === pane.tag.name && next.user === pane.tag.user && sameWords(next.commands, pane.tag.commands)) return false;
  pane.tag = next;
  server.publish('pane/tag-changed', { pane: pane.n, tag: next });
  return true;
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((w, i) => w === b[i]);
}

/**
 * A pane's vocabulary changed (a stand-in borrowing its remote pane's words): the
 * words and the tag's words with them, the tag keeping `tile` for `float` while the
 * pane floats. Publishes pane/tag-changed and pane/changed; false when nothing changed.
 */
export function setVocabulary(server: PaneServer, pane: Pane, vocabulary: PaneCommand[]): boolean {
  if (JSON.stringify(vocabulary) === JSON.stringify(pane.vocabulary)) return false;
  pane.vocabulary = vocabulary;
  const floating = pane.tag.commands.includes('tile');
  setTag(server, pane, { commands: tagWords(vocabulary).map((w) => (floating && w === 'float' ? 'tile' : w)) });
  server.paneChanged(pane);
  return true;
}

/** The tag offers `tile` on a floating pane and `float` on a tiled one. */
export function syncFloatWord(server: PaneServer, pane: Pane, floating: boolean): void {
  const from = floating ? 'float' : 'tile';
  const to = floating ? 'tile' : 'float';
  if (!pane.tag.commands.includes(from)) return;
  setTag(server, pane, { commands: pane.tag.commands.map((w) => (w === from ? to : w)) });
}

/**
 * Sets the pane's size and its PTY's, publishing nothing: the layout's geometry
 * (relayout.ts) does this for every placed pane and then says `layout/changed`.
 * Returns whether the size changed.
 */
export function fitPane(server: PaneServer, pane: Pane, cols: number, rows: number): boolean {
  if (pane.cols === cols && pane.rows === rows) return false;
  pane.cols = cols;
  pane.rows = rows;
  server.terminals.get(pane.n)?.resize(cols, rows);
  return true;
}

/** A client sized the pane's PTY itself (pty/resize): as fitPane, then `pane/changed`. */
export function resizePane(server: PaneServer, pane: Pane, cols: number, rows: number): void {
  if (fitPane(server, pane, cols, rows)) server.paneChanged(pane);
}

/** The process group in the foreground of a pane's terminal changes as jobs start: read it live (no event: a read). */
export function readForeground(server: PaneServer, pane: Pane): void {
  const t = server.terminals.get(pane.n);
  if (t?.running) pane.pgid = t.foregroundPgid() ?? pane.pgid;
}

/**
 * A pane brought back from a saved state (server/persist/resurrect.ts) takes its
 * saved launch (what a rerun runs, which may differ from what started it now)
 * and its tag's name and text; publishes `pane/changed`.
 */
export function restorePane(server: PaneServer, pane: Pane, saved: { launch: LaunchSpec | null; name: string; user: string }): void {
  if (saved.launch) pane.launch = { ...saved.launch, cwd: saved.launch.cwd ?? pane.cwd };
  pane.tag = { ...pane.tag, name: saved.name, user: saved.user };
  server.paneChanged(pane);
}
