// Loads the user's settings.json (font, size, theme). A bad file is reported (file
// and field) and the previous settings stay in force; a deleted file means the defaults.
import { parseSettingsText, resolveSettings, type SettingsState } from '../../kits/protocol/settings';
import { readConfigFile } from './readConfig';

/** The settings after reading `file`, given the ones in force before. */
export function loadSettings(file: string, previous: SettingsState | undefined): SettingsState {
  const text = readConfigFile(file);
  if (typeof text !== 'string') {
    if ('missing' in text) return resolveSettings(undefined);
    return { ...(previous ?? resolveSettings(undefined)), errors: [{ file, field: '(file)', message: text.error }] };
  }
  const r = parseSettingsText(file, text);
  if (!r.ok) return { ...(previous ?? resolveSettings(undefined)), errors: r.errors };
  return resolveSettings(r.settings, [file]);
}
