// The keymap parser: chord spelling, event → chord, file validation with errors
// that name the field, and merging over the defaults.
import { describe, expect, it } from 'vitest';
import { chordFromEvent, parseChord } from './chord';
import { DEFAULT_BINDINGS, DEFAULT_PREFIX_BINDINGS, parseKeymapText, resolveKeymap } from './keymap';

const ev = (key: string, code: string, mods: Partial<Record<'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey', boolean>> = {}) => ({
  key, code, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...mods,
});

describe('parseChord', () => {
  it('spells every chord one canonical way whatever the order and case of its parts', () => {
    expect(parseChord('shift+ctrl+e')).toEqual({ ok: true, chord: 'Ctrl+Shift+E' });
    expect(parseChord('Control+Option+Shift+ArrowLeft')).toEqual({ ok: true, chord: 'Ctrl+Alt+Shift+Left' });
    expect(parseChord('Ctrl+Shift+Backslash')).toEqual({ ok: true, chord: 'Ctrl+Shift+\\' });
  });

  it('reads shifted symbols as Shift plus their base key, tmux style', () => {
    expect(parseChord('%')).toEqual({ ok: true, chord: 'Shift+5' });
    expect(parseChord('"')).toEqual({ ok: true, chord: "Shift+'" });
    expect(parseChord('Ctrl++')).toEqual({ ok: true, chord: 'Ctrl+Shift+=' });
  });

  it('names the unknown modifier or key', () => {
    expect(parseChord('Ctrl+Shfit+E')).toEqual({ ok: false, error: expect.stringContaining('unknown modifier "Shfit"') });
    expect(parseChord('Ctrl+Banana')).toEqual({ ok: false, error: expect.stringContaining('unknown key "Banana"') });
    expect(parseChord('Ctrl+Shift')).toMatchObject({ ok: false });
    expect(parseChord('')).toMatchObject({ ok: false });
  });

  it('parses every default chord', () => {
    for (const c of [...Object.keys(DEFAULT_BINDINGS), ...Object.keys(DEFAULT_PREFIX_BINDINGS)]) expect(parseChord(c).ok, c).toBe(true);
  });
});

describe('chordFromEvent', () => {
  it('matches what parseChord makes of the same keys', () => {
    expect(chordFromEvent(ev('E', 'KeyE', { ctrlKey: true, shiftKey: true }))).toBe('Ctrl+Shift+E');
    expect(chordFromEvent(ev('%', 'Digit5', { shiftKey: true }))).toBe((parseChord('%') as { chord: string }).chord);
    expect(chordFromEvent(ev('}', 'BracketRight', { ctrlKey: true, shiftKey: true }))).toBe('Ctrl+Shift+]');
    expect(chordFromEvent(ev('ArrowLeft', 'ArrowLeft', { altKey: true, shiftKey: true }))).toBe('Alt+Shift+Left');
    expect(chordFromEvent(ev(' ', 'Space', { ctrlKey: true, shiftKey: true }))).toBe('Ctrl+Shift+Space');
  });

  it('ignores a bare modifier press', () => {
    expect(chordFromEvent(ev('Control', 'ControlLeft', { ctrlKey: true }))).toBeNull();
    expect(chordFromEvent(ev('Shift', 'ShiftLeft', { shiftKey: true }))).toBeNull();
  });
});

describe('default keymap', () => {
  it('steals no plain Ctrl+letter, Alt+letter or unmodified key that shells, readline or vim use', () => {
    for (const chord of Object.keys(DEFAULT_BINDINGS)) {
      const c = (parseChord(chord) as { chord: string }).chord;
      // Ctrl+0 is the one exception: it has no control code (terminals send "0" or nothing),
      // and it is every browser's and terminal emulator's zoom reset.
      if (c !== 'Ctrl+0') expect(c, chord).not.toMatch(/^(Ctrl|Alt)\+[A-Z0-9]$/);
      expect(c, chord).toMatch(/\+/);
      // Copy/paste chords of terminal emulators and the browser's own reserved chords.
      expect(['Ctrl+Shift+V', 'Ctrl+Shift+W', 'Ctrl+Shift+Q', 'Ctrl+Shift+T', 'Ctrl+Shift+N']).not.toContain(c);
    }
  });
});

describe('parseKeymapText', () => {
  it('accepts a file that rebinds, unbinds and changes the prefix, and merges it over the defaults', () => {
    const r = parseKeymapText('keymap.json', JSON.stringify({ prefix: 'Ctrl+B', bindings: { 'ctrl+shift+e': 'pane.split.vertical', 'Ctrl+Shift+X': null } }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const k = resolveKeymap(r.keymap, ['keymap.json']);
    expect(k.prefix).toBe('Ctrl+B');
    expect(k.bindings).toContainEqual({ chord: 'Ctrl+Shift+E', action: 'pane.split.vertical' });
    expect(k.bindings.find((b) => b.chord === 'Ctrl+Shift+X')).toBeUndefined();
    expect(k.bindings).toContainEqual({ chord: 'Ctrl+Shift+P', action: 'palette.open' });
  });

  it('names the file and the field of a bad chord', () => {
    const r = parseKeymapText('/home/u/.config/pane/keymap.json', JSON.stringify({ bindings: { 'Ctrl+Shfit+E': 'pane.new' } }));
    expect(r).toEqual({
      ok: false,
      errors: [{ file: '/home/u/.config/pane/keymap.json', field: 'bindings["Ctrl+Shfit+E"]', message: expect.stringContaining('Shfit') }],
    });
  });

  it('names the field of an unknown action and of an unknown top-level key', () => {
    const r = parseKeymapText('k.json', JSON.stringify({ bindings: { 'Ctrl+Shift+E': 'pane.explode' }, colour: 'red' }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const fields = r.errors.map((e) => e.field);
    expect(fields).toContain('bindings["Ctrl+Shift+E"]');
    expect(r.errors.some((e) => e.message.includes('colour'))).toBe(true);
  });

  it('reports broken JSON as such', () => {
    expect(parseKeymapText('k.json', '{ "bindings": ')).toMatchObject({ ok: false, errors: [{ file: 'k.json', field: '(json)' }] });
  });

  it('accepts exec actions for pane command words', () => {
    expect(parseKeymapText('k.json', JSON.stringify({ bindings: { 'Ctrl+Shift+F5': 'exec restart' } })).ok).toBe(true);
  });

  it('drops the defaults when replaceDefaults is set', () => {
    const r = parseKeymapText('k.json', JSON.stringify({ replaceDefaults: true, bindings: { 'Alt+Shift+N': 'pane.new' } }));
    if (!r.ok) throw new Error('rejected');
    const k = resolveKeymap(r.keymap);
    expect(k.bindings).toEqual([{ chord: 'Alt+Shift+N', action: 'pane.new' }]);
    expect(k.prefix).toBeNull();
  });
});
