// settings.json's predictive echo field: off unless asked for, and a bad value named by field.
import { describe, expect, it } from 'vitest';
import { parseSettingsText, resolveSettings } from './settings';

describe('settings.json predictiveEcho', () => {
  it('is off when the file does not say', () => {
    expect(resolveSettings(undefined).settings.predictiveEcho).toBe('off');
    expect(resolveSettings({ fontSize: 14 }).settings.predictiveEcho).toBe('off');
  });

  it('takes auto and always, and names the field for any other value', () => {
    for (const mode of ['off', 'auto', 'always'] as const) {
      const r = parseSettingsText('settings.json', JSON.stringify({ predictiveEcho: mode }));
      expect(r.ok && resolveSettings(r.settings).settings.predictiveEcho).toBe(mode);
    }
    const bad = parseSettingsText('settings.json', JSON.stringify({ predictiveEcho: 'sometimes' }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]).toMatchObject({ file: 'settings.json', field: 'predictiveEcho' });
  });
});
