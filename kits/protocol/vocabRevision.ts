// A pane's vocabulary at one moment, as a short string: what a tag click or a call
// names when it runs a word, so the server runs the word the caller saw or refuses
// it — never a word whose meaning changed in between (a host withdrew it, an app
// redefined it, a reader took it back). A hash of the words' meanings, not a
// counter: both ends compute it from the vocabulary they hold, and nothing new is
// kept. Zod-free: the renderer and the CLI's start-up path use it.

interface Word {
  name: string;
  doc: string;
  args: readonly { name: string; type: string; values?: readonly string[] | undefined; optional?: boolean | undefined }[];
  remote?: boolean | undefined;
  /** An app word's action: what it does is part of its meaning. */
  action?: unknown;
}

/** JSON with every object's keys in order: the same action hashes alike whichever end built it. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));
}

/** FNV-1a (32 bits) of every word's name, doc, arguments and where it runs, in order; 8 hex digits. */
export function vocabularyRevision(words: readonly Word[]): string {
  const text = words
    .map((w) => [w.name, w.doc, w.remote ? 'r' : '', w.action === undefined ? '' : canonical(w.action), ...w.args.map((a) => `${a.name}:${a.type}:${a.optional ? '?' : ''}:${(a.values ?? []).join(',')}`)].join('\u0001'))
    .join('\u0002');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
