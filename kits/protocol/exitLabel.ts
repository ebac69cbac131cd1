// How every view names a program's end: "exited 0", "killed (SIGKILL)". One
// place, so the tag, the pane's body, `pane ls` and /pane files say the same.
import type { ExitStatus, Pane } from './model';
import { shown } from './shown';

/** "exited 0", "killed (SIGKILL)", or "killed (signal 9)" where the server named no signal. */
export function exitLabel(exit: Pick<ExitStatus, 'code' | 'signal' | 'signalName'> | null): string {
  if (exit === null) return 'exited';
  if (exit.signal !== null) return `killed (${exit.signalName ?? `signal ${exit.signal}`})`;
  return `exited ${exit.code ?? '?'}`;
}

/** The status a shell gives a program's end: its code, 128+N for signal N, 1 when neither is known (`pane wait --exit`, `pane output -f --status`). */
export function shellStatus(exit: Pick<ExitStatus, 'code' | 'signal'>): number {
  return exit.signal !== null ? 128 + exit.signal : (exit.code ?? 1);
}

/**
 * Written before a dead pane's notice: leave the alternate screen (a killed vim's
 * screen would hide it) by 1047, not 1049, whose cursor restore puts the cursor at the
 * top-left when the program never saved one (its notice then overwrote its first lines), stop mouse and focus reports and bracketed paste (the
 * dead program asked for them; nothing reads them now), show the cursor, reset colours.
 */
const EXIT_RESET = '\x1b[?1047l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l\x1b[?25h\x1b[0m';

/** The program a pane runs, by its file's base name ("vim"), else its tag's name. */
export function programOf(p: Pick<Pane, 'launch' | 'tag'>): string {
  // An agent's program runs through `pane sandbox --settings JSON -- PROGRAM ARGS`: the program is the one after --, not node.
  const a = p.launch?.args ?? [];
  const inner = a[1] === 'sandbox' && a[2] === '--settings' && a[4] === '--' ? a[5] : undefined;
  return (inner ?? p.launch?.program ?? p.tag.name).split('/').pop() || 'the program';
}

/**
 * "[make exited 2 at 14:03:07]": which program, how it ended, when. The name is escaped
 * (shown): it can come from a tag a program titled, or a joined host's pane, and this
 * line is printed to a person's terminal (`pane screen`, `pane output --follow`'s stderr).
 */
export function exitLine(program: string, exit: ExitStatus): string {
  return `[${shown(program)} ${exitLabel(exit)} at ${new Date(exit.at).toLocaleTimeString('en-GB', { hour12: false })}]`;
}

/** The exit line of a pane whose program has ended, for views that print text (`pane screen`, the pane's body); null while it runs. */
export function paneExitLine(p: Pick<Pane, 'launch' | 'tag' | 'state' | 'exit'>): string | null {
  return p.state === 'exited' && p.exit !== null ? exitLine(programOf(p), p.exit) : null;
}

/** What a dead pane's terminal says in the window: the exit line, in bold (red unless it exited 0), and what Enter does. */
export function exitNotice(program: string, exit: ExitStatus): string {
  const tone = exit.signal === null && exit.code === 0 ? '\x1b[1m' : '\x1b[1;31m';
  return `${EXIT_RESET}\r\n${tone}${exitLine(program, exit)}\x1b[0m — Enter to run again, or close the pane\r\n`;
}

/** The answer to any key but Enter in a dead pane. */
export const DEAD_KEY_HINT = "\r\n[this pane's program has ended: Enter runs it again; close the pane to remove it]\r\n";
