// Words an app file adds to its panes (AppFileSchema's `commands`): they join the
// pane's vocabulary when the app launches it, and change with the file (apps/changed).
// Running one (commandLine.ts) becomes an ordinary request of whoever ran it —
// pane/input for `input`, pane/launch or float/create for `run` — so an agent's
// .access, a guest's grant and the sandbox apply exactly as to their own keys.
import { bodyOf } from './bodies/registry';
import type { AppEntry, AppWord } from '../../kits/protocol/app';
import type { PaneCommand, WordAction } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';
import { hasControls } from '../../kits/protocol/shown';
import { setVocabulary } from './paneOps';
import { vocabularyFor } from './vocabulary';

/** The pane's own words for its kind and, after them, its app's (none that shadow one of its own). */
export function vocabularyWithApp(kind: Parameters<typeof vocabularyFor>[0], app: AppEntry | undefined): PaneCommand[] {
  const own = vocabularyFor(kind);
  const names = new Set(own.map((w) => w.name));
  const added = (app?.commands ?? []).filter((w) => !names.has(w.name)).map(toCommand);
  return [...own, ...added];
}

function toCommand(w: AppWord): PaneCommand {
  const action: WordAction = 'input' in w ? { input: w.input, ...(w.submit !== undefined ? { submit: w.submit } : {}) } : { run: w.run, ...(w.placement ? { placement: w.placement } : {}) };
  return { name: w.name, doc: w.doc, args: w.args, ...(w.inTag ? { inTag: true } : {}), action };
}

/** Config errors for an app whose word would shadow one of pane's own (the word is left out, said by file and field). */
export function shadowedWords(app: AppEntry): { file: string; field: string; message: string }[] {
  const own = new Set(vocabularyFor(app.kind).map((w) => w.name));
  return (app.commands ?? []).flatMap((w, i) => (own.has(w.name) ? [{ file: app.file, field: `commands.${i}.name`, message: `"${w.name}" is a word of pane's own for a ${app.kind} pane and cannot be redefined; the word is left out` }] : []));
}

/** After apps/changed: every live pane of an app gets the app's words as the file now says (its revision changes with them); its reader's words stay. */
export function refreshAppWords(server: PaneServer, apps: readonly AppEntry[]): void {
  const byId = new Map(apps.map((a) => [a.id, a]));
  for (const pane of server.panes.values()) {
    const id = pane.attrs.app;
    if (id === undefined || bodyOf(pane.kind).standIn) continue;
    setVocabulary(server, pane, [...vocabularyWithApp(pane.kind, byId.get(id)), ...(server.readerWords.get(pane.n) ?? [])]);
  }
}

/** Words a reader of /N/event may hold on one pane: a tag has room for few, and each is a JSON line in every pane event. */
export const MAX_READER_WORDS = 32;

/**
 * The words the reader of a pane's event file registers: they join its vocabulary
 * (the tag, the palette, /N/commands, pane exec, MCP) after its own and its app's,
 * and go when the reader lets go (`words` empty). A word that would shadow one the
 * pane has already is refused by name.
 */
export function setReaderWords(server: PaneServer, pane: { n: number; vocabulary: PaneCommand[] } & Parameters<typeof setVocabulary>[1], words: PaneCommand[]): string | undefined {
  const base = pane.vocabulary.filter((w) => !w.reader);
  const taken = new Set(base.map((w) => w.name));
  const clash = words.find((w) => taken.has(w.name));
  if (clash) return `"${clash.name}" is a word pane ${pane.n} has already; a reader adds words, it does not redefine them`;
  if (words.length > MAX_READER_WORDS) return `a reader may add at most ${MAX_READER_WORDS} words to a pane (MAX_READER_WORDS)`;
  if (words.length === 0) server.readerWords.delete(pane.n);
  else server.readerWords.set(pane.n, words);
  setVocabulary(server, pane, [...base, ...words]);
  return undefined;
}

/** `{NAME}` in `text` replaced by each argument's value. */
function fill(text: string, args: Record<string, string | number>): string {
  return text.replace(/\{([A-Za-z][A-Za-z0-9_-]*)\}/g, (all, name: string) => (name in args ? String(args[name]) : all));
}

/**
 * The request an app word stands for, or why it cannot run. `input` text gets the
 * arguments spliced in and no control character from them (a value is data, never a
 * keystroke); `run` takes a value only as a whole argv element, never one that
 * starts with `-` (it would be read as an option).
 */
export function appWordRequest(pane: { n: number; cwd: string; session: string }, word: PaneCommand, args: Record<string, string | number>): { method: 'pane/input'; params: { pane: number; data: string; submit: boolean } } | { method: 'pane/launch' | 'float/create'; params: Record<string, unknown> } | string {
  const action = word.action!;
  for (const [k, v] of Object.entries(args)) {
    if (hasControls(String(v))) return `argument ${k} holds a control character; a word's arguments are text, never keys`;
  }
  if ('input' in action) return { method: 'pane/input', params: { pane: pane.n, data: fill(action.input, args), submit: action.submit ?? true } };
  const argv: string[] = [];
  for (const a of action.run.args) {
    const m = /^\{([A-Za-z][A-Za-z0-9_-]*)\}$/.exec(a);
    if (!m) {
      argv.push(a);
      continue;
    }
    const v = args[m[1]!];
    if (v === undefined) continue; // an optional argument left out: no element
    const s = String(v);
    if (s.startsWith('-')) return `argument ${m[1]} is "${s}", which starts with "-" and would be read as an option; it is refused`;
    argv.push(s);
  }
  const launch = { program: action.run.program, args: argv, cwd: pane.cwd };
  return action.placement === 'float'
    ? { method: 'float/create', params: { session: pane.session, launch, name: word.name } }
    : { method: 'pane/launch', params: { pane: pane.n, direction: 'vertical', launch, name: word.name } };
}
