// Key chords as text ("Ctrl+Shift+E", "%", "Alt+Shift+Left"): parsing to one
// canonical spelling, and turning a keyboard event into that same spelling, so the
// keymap file, the server that validates it and the renderer that matches keys agree.

/** Canonical modifier order; a chord is written `Ctrl+Alt+Shift+Meta+Key`. */
export const MODIFIERS = ['Ctrl', 'Alt', 'Shift', 'Meta'] as const;
export type Modifier = (typeof MODIFIERS)[number];

const MODIFIER_ALIASES: Record<string, Modifier> = {
  ctrl: 'Ctrl', control: 'Ctrl', ctl: 'Ctrl',
  alt: 'Alt', option: 'Alt', opt: 'Alt',
  shift: 'Shift',
  meta: 'Meta', cmd: 'Meta', command: 'Meta', super: 'Meta', win: 'Meta',
};

const NAMED_KEYS = [
  'Enter', 'Space', 'Tab', 'Escape', 'Backspace', 'Delete', 'Insert', 'Home', 'End',
  'PageUp', 'PageDown', 'Left', 'Right', 'Up', 'Down',
] as const;

const KEY_ALIASES: Record<string, string> = {
  esc: 'Escape', return: 'Enter', del: 'Delete', ins: 'Insert', pgup: 'PageUp', pgdn: 'PageDown',
  arrowleft: 'Left', arrowright: 'Right', arrowup: 'Up', arrowdown: 'Down',
  backslash: '\\', bracketleft: '[', bracketright: ']', minus: '-', equal: '=', comma: ',',
  period: '.', slash: '/', semicolon: ';', quote: "'", backquote: '`', plus: 'Shift+=',
};

/** Unshifted punctuation keys (US layout), the names chords use for them. */
const PUNCTUATION = new Set(['[', ']', '\\', '/', ';', "'", ',', '.', '-', '=', '`']);

/** Shifted symbols (US layout) written as Shift + their base key, so "%" means Shift+5. */
const SHIFTED: Record<string, string> = {
  '!': '1', '@': '2', '#': '3', $: '4', '%': '5', '^': '6', '&': '7', '*': '8', '(': '9', ')': '0',
  _: '-', '+': '=', '{': '[', '}': ']', '|': '\\', ':': ';', '"': "'", '<': ',', '>': '.', '?': '/', '~': '`',
};

export type ChordParse = { ok: true; chord: string } | { ok: false; error: string };

function canonicalKey(raw: string): { key: string; shift: boolean } | string {
  if (raw.length === 1) {
    if (/[a-z]/i.test(raw)) return { key: raw.toUpperCase(), shift: false };
    if (/[0-9]/.test(raw) || PUNCTUATION.has(raw)) return { key: raw, shift: false };
    const base = SHIFTED[raw];
    if (base !== undefined) return { key: base, shift: true };
    return `"${raw}" is not a key a chord can name`;
  }
  const lower = raw.toLowerCase();
  const alias = KEY_ALIASES[lower];
  if (alias !== undefined) return alias.startsWith('Shift+') ? { key: alias.slice(6), shift: true } : { key: alias, shift: false };
  const named = NAMED_KEYS.find((k) => k.toLowerCase() === lower);
  if (named) return { key: named, shift: false };
  if (/^f([1-9]|1[0-9]|2[0-4])$/i.test(raw)) return { key: raw.toUpperCase(), shift: false };
  return `unknown key "${raw}" (use a letter, digit, punctuation, F1..F24 or one of ${NAMED_KEYS.join(', ')})`;
}

/** Parses a chord written by a person into its canonical spelling, or says what is wrong. */
export function parseChord(text: string): ChordParse {
  const s = text.trim();
  if (s === '') return { ok: false, error: 'empty chord' };
  // "+" is both the separator and a key: a trailing "++" (or a lone "+") names the key.
  let parts: string[];
  if (s === '+') parts = ['+'];
  else if (s.endsWith('++')) parts = [...s.slice(0, -2).split('+'), '+'];
  else parts = s.split('+');
  const keyPart = parts.pop() as string;
  const mods = new Set<Modifier>();
  for (const p of parts) {
    const m = MODIFIER_ALIASES[p.trim().toLowerCase()];
    if (!m) return { ok: false, error: `unknown modifier "${p}" (use ${MODIFIERS.join(', ')})` };
    if (mods.has(m)) return { ok: false, error: `modifier ${m} appears twice` };
    mods.add(m);
  }
  if (keyPart.trim() === '') return { ok: false, error: 'a chord ends with a key, e.g. Ctrl+Shift+E' };
  if (MODIFIER_ALIASES[keyPart.trim().toLowerCase()]) return { ok: false, error: `"${text}" has modifiers but no key` };
  const k = canonicalKey(keyPart.trim());
  if (typeof k === 'string') return { ok: false, error: k };
  if (k.shift) mods.add('Shift');
  return { ok: true, chord: [...MODIFIERS.filter((m) => mods.has(m)), k.key].join('+') };
}

/** The fields of a DOM KeyboardEvent a chord needs (kits/ has no DOM types). */
export interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

const CODE_KEYS: Record<string, string> = {
  Backslash: '\\', BracketLeft: '[', BracketRight: ']', Slash: '/', Semicolon: ';', Quote: "'",
  Comma: ',', Period: '.', Minus: '-', Equal: '=', Backquote: '`', IntlBackslash: '\\',
  ArrowLeft: 'Left', ArrowRight: 'Right', ArrowUp: 'Up', ArrowDown: 'Down',
  Enter: 'Enter', NumpadEnter: 'Enter', Space: 'Space', Tab: 'Tab', Escape: 'Escape', Backspace: 'Backspace',
  Delete: 'Delete', Insert: 'Insert', Home: 'Home', End: 'End', PageUp: 'PageUp', PageDown: 'PageDown',
};

/**
 * The canonical chord of a key event, or null for a bare modifier press.
 * Letters come from `key` (so non-QWERTY letters match what is printed on the key);
 * digits and punctuation come from `code`, because with Shift held `key` is the
 * shifted symbol and would differ between layouts.
 */
export function chordFromEvent(e: KeyLike): string | null {
  if (['Control', 'Shift', 'Alt', 'Meta', 'AltGraph', 'CapsLock', 'OS'].includes(e.key)) return null;
  let key: string | undefined;
  if (e.key.length === 1 && /[a-z]/i.test(e.key)) key = e.key.toUpperCase();
  else if (/^Key[A-Z]$/.test(e.code)) key = e.code.slice(3);
  else if (/^Digit[0-9]$/.test(e.code)) key = e.code.slice(5);
  else if (/^F([1-9]|1[0-9]|2[0-4])$/.test(e.code)) key = e.code;
  else key = CODE_KEYS[e.code];
  if (key === undefined) {
    // Unknown physical key: fall back to the character it produced, if a chord can name it.
    const k = e.key.length === 1 ? canonicalKey(e.key) : undefined;
    if (!k || typeof k === 'string') return null;
    key = k.key;
  }
  const mods: Modifier[] = [];
  if (e.ctrlKey) mods.push('Ctrl');
  if (e.altKey) mods.push('Alt');
  if (e.shiftKey) mods.push('Shift');
  if (e.metaKey) mods.push('Meta');
  return [...mods, key].join('+');
}
