// Text that came from someone else (an agent, a host, a program's title) as it is
// shown: in a CLI table, a log line, a finger. Control characters are escaped so
// that such text can never move the cursor, set the clipboard (OSC 52), retitle a
// terminal, or start a new line of a log that reads as the server's own — as GNU
// ls's --quoting-style=escape and `less` do for names. Zod-free: the CLI's start-up
// path reads it.

/**
 * C0 controls and DEL, C1 controls (0x9b is an 8-bit CSI), and the invisible
 * format characters that reorder or hide text (bidi overrides and isolates, line
 * and paragraph separators, the BOM/zero-width no-break space).
 */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_TAB = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

function escapeOne(ch: string): string {
  const c = ch.charCodeAt(0);
  if (c === 0x0a) return '\\n';
  if (c === 0x0d) return '\\r';
  if (c === 0x09) return '\\t';
  if (c === 0x1b) return '\\e';
  return c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
}

/** One line of someone else's text, shown: every control character as a visible escape (`\e`, `\n`, `\x9b`, `\u202e`). */
export function shown(s: string): string {
  return s.replace(CONTROLS, escapeOne);
}

/** The same, keeping tabs (a plan's or a log's columns); still one line. */
export function shownKeepingTabs(s: string): string {
  return s.replace(CONTROLS_BUT_TAB, escapeOne);
}

/** Whether `s` holds anything shown() would escape. */
export function hasControls(s: string): boolean {
  CONTROLS.lastIndex = 0;
  return CONTROLS.test(s);
}

/** `s` in at most `n` characters: cut to n-1 and ended with `…` when longer (a name, a subject, a reason on one line). */
export function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
