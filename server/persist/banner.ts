// What a resurrected pane says before its program: a labelled line under the saved
// history, any notice (a directory or program gone, an agent started afresh), and
// "Enter to run: ARGV" for programs that are not restarted blindly. Kept apart from
// exited-pane "Enter to run again" (issue 10), which is about a program that ended.

import { localTime } from '../../kits/node/localTime';
import { shown } from '../../kits/protocol/shown';

const DIM = '\x1b[2m';
const BOLD = '\x1b[1m';
const YELLOW = '\x1b[33m';
const RESET = '\x1b[0m';
/** The modes an old program may have left on that a new one would not expect: all off. */
const OLD_MODES = '\x1b[?9l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1005l\x1b[?1006l\x1b[?1015l\x1b[?1016l\x1b[?1l\x1b>\x1b[?2004l\x1b[?1004l\x0f\x1b(B\x1b)B\x1b*B\x1b+B\x1b[20l';

/**
 * "── history saved 2026-11-23 18:04 · the program was restarted ──", or, for one that
 * waits behind "Enter to run", "· the program was not restarted" (it had said restarted
 * above a program that had not run).
 */
export function historyLabel(savedAt: number, restarted = true): string {
  return `── history saved ${localTime(savedAt, 'minute')} · the program was ${restarted ? '' : 'not '}restarted ──`;
}

/** Tab stops as a terminal starts with them (every 8 columns across `cols`), after clearing all: the old program may have set its own. */
function standardTabs(cols: number): string {
  let s = '\x1b[3g';
  for (let x = 0; x < cols; x += 8) s += `\x1b[1;${x + 1}H\x1bH`;
  return s;
}

export function bannerText(o: { history: number | null; notices: string[]; waitingFor: string | null; cols?: number }): string {
  // Leave an alternate screen the saved history may have ended in (47, not 1049: that would
  // also restore a cursor never saved, to the top-left), show a cursor the old program hid
  // (a saved screen keeps DECTCEM off: screenWorker.ts liveSerialized), and reset its attributes.
  // Its modes go too, for the new program sets its own: the scroll region (saved and put back
  // around the reset, which homes the cursor) and origin mode, the mouse and its report form,
  // application cursor keys and keypad, bracketed paste, focus reports and line drawing,
  // LNM, and (given the width) the tab stops, set again every 8 columns.
  let s = `\x1b[?47l\x1b[?25h${RESET}\x1b7\x1b[?6l\x1b[r${o.cols === undefined ? '' : standardTabs(o.cols)}\x1b8${OLD_MODES}`;
  if (o.history !== null) s += `\r\n${DIM}${historyLabel(o.history, o.waitingFor === null)}${RESET}\r\n`;
  // A notice names directories and programs a saved state or a snapshot file gave: escaped, never a sequence the terminal runs.
  for (const n of o.notices) s += `${YELLOW}pane: ${shown(n)}${RESET}\r\n`;
  if (o.waitingFor !== null) s += `${BOLD}Enter to run: ${shown(o.waitingFor)}${RESET}  ${DIM}(Ctrl-D to leave it)${RESET}\r\n`;
  return s;
}
