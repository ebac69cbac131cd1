// Loads the user's settings.json (font, size, theme). A bad file is reported (file
// and field) and the previous settings stay in force; a deleted file means the defaults.
import fs from 'node:fs';
import { parseSettingsText, resolveSettings, type SettingsState } from '../../kits/protocol/settings';

/** The settings after reading `file`, given the ones in force before. */
export function loadSettings(file: string, previous: SettingsState | undefined): SettingsState {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return resolveSettings(undefined);
    const errors = [{ file, field: '(file)', message: `cannot read: ${(e as Error).message}` }];
    return { ...(previous ?? resolveSettings(undefined)), errors };
  }
  const r = parseSettingsText(file, text);
  if (!r.ok) return { ...(previous ?? resolveSettings(undefined)), errors: r.errors };
  return resolveSettings(r.settings, [file]);
}
