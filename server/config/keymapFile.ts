// Loads the user's keymap.json. A bad file is reported (file and field) and the
// previous keymap stays in force; a deleted file means the defaults again.
import { parseKeymapText, resolveKeymap, type KeymapState } from '../../kits/protocol/keymap';
import { readConfigFile } from './readConfig';

/** The keymap after reading `file`, given the one in force before. */
export function loadKeymap(file: string, previous: KeymapState | undefined): KeymapState {
  const text = readConfigFile(file);
  if (typeof text !== 'string') {
    if ('missing' in text) return resolveKeymap(undefined);
    return { ...(previous ?? resolveKeymap(undefined)), errors: [{ file, field: '(file)', message: text.error }] };
  }
  const r = parseKeymapText(file, text);
  if (!r.ok) return { ...(previous ?? resolveKeymap(undefined)), errors: r.errors };
  return resolveKeymap(r.keymap, [file]);
}
