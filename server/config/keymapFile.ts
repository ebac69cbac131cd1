// Loads the user's keymap.json. A bad file is reported (file and field) and the
// previous keymap stays in force; a deleted file means the defaults again.
import fs from 'node:fs';
import { parseKeymapText, resolveKeymap, type KeymapState } from '../../kits/protocol/keymap';

/** The keymap after reading `file`, given the one in force before. */
export function loadKeymap(file: string, previous: KeymapState | undefined): KeymapState {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return resolveKeymap(undefined);
    const errors = [{ file, field: '(file)', message: `cannot read: ${(e as Error).message}` }];
    return { ...(previous ?? resolveKeymap(undefined)), errors };
  }
  const r = parseKeymapText(file, text);
  if (!r.ok) return { ...(previous ?? resolveKeymap(undefined)), errors: r.errors };
  return resolveKeymap(r.keymap, [file]);
}
