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

/** `s` with every character shown() would escape taken out (a screen cell's text, where an escape would not fit). */
export function withoutControls(s: string): string {
  return s.replace(CONTROLS, '');
}

/** Whether `s` holds anything shown() would escape. */
export function hasControls(s: string): boolean {
  CONTROLS.lastIndex = 0;
  return CONTROLS.test(s);
}

// Ellipses. Each counts characters (code points), so a cut never splits an emoji or
// other astral character into a lone surrogate, which a terminal draws as U+FFFD and
// JSON carries as an unpaired escape.

/** `s` in at most `n` characters, keeping its start: cut and ended with `…` when longer (a name, a subject, a reason on one line). */
export function clip(s: string, n: number): string {
  if (s.length <= n) return s;
  const cps = [...s];
  return cps.length <= n ? s : `${cps.slice(0, n - 1).join('')}…`;
}

/** `s` in at most `n` characters, keeping its end: `…` then the tail (a directory, whose last parts say most). */
export function clipTail(s: string, n: number): string {
  if (s.length <= n) return s;
  const cps = [...s];
  return cps.length <= n ? s : `…${cps.slice(cps.length - n + 1).join('')}`;
}

/** `s` in at most `n` characters, giving up its middle (a name whose start and end both tell it apart). */
export function clipMiddle(s: string, n: number): string {
  if (s.length <= n) return s;
  const cps = [...s];
  if (cps.length <= n) return s;
  const head = Math.ceil((n - 1) / 2);
  return `${cps.slice(0, head).join('')}…${cps.slice(cps.length - (n - 1 - head)).join('')}`;
}

/** A path under `home` written with `~` (`~/src/pane`); any other path as it is. A home of `/` is left alone. */
export function tildePath(path: string, home: string | undefined): string {
  if (!home || home === '/' || !(path === home || path.startsWith(home + '/'))) return path;
  return '~' + path.slice(home.length);
}
