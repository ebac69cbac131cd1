// A pane whose program ended: what its body says (how, when, what Enter does),
// the rerun on Enter, and the hint for any other key — so a dead pane never
// swallows keys in silence (issue 10). lifecycle.ts calls in here on exit and input.
import os from 'node:os';
import path from 'node:path';
import { exitLabel } from '../../kits/protocol/exitLabel';
import type { ExitStatus, Pane } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';

/**
 * Written into a pane's stream when its program ends and the pane stays: leave the
 * alternate screen (a killed vim's screen would hide the message), stop mouse and
 * focus reports and bracketed paste (the dead program asked for them; nothing
 * reads them now), show the cursor, reset colours.
 */
const EXIT_RESET = '\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l\x1b[?25h\x1b[0m';
/** Enter, as a terminal sends it: the key that reruns a dead pane's program. */
const ENTER = new Set(['\r', '\n', '\r\n']);

/** SIGKILL for 9, from the server's own OS. */
export function signalName(signal: number): string | undefined {
  return Object.entries(os.constants.signals).find(([, v]) => v === signal)?.[0];
}

/** What a dead pane's body says: which program, how it ended, when, and what Enter does. */
export function epitaph(pane: Pane, exit: ExitStatus): string {
  const program = path.basename(pane.launch?.program ?? 'the program');
  const at = new Date(exit.at).toLocaleTimeString('en-GB', { hour12: false });
  const how = exitLabel(exit);
  const tone = exit.signal === null && exit.code === 0 ? '\x1b[1m' : '\x1b[1;31m';
  return `${EXIT_RESET}\r\n${tone}[${program} ${how} at ${at}]\x1b[0m — Enter to run again, or close the pane\r\n`;
}

/** Runs the pane's program again, same argv and cwd, in the same pane and stream. */
export function restartPane(server: PaneServer, pane: Pane): void {
  server.terminal(pane).restart();
  server.publish('pane/restarted', { pane });
}

/** Stream offset of the last hint per pane: one hint until something else is written. */
const hinted = new WeakMap<Pane, number>();

/** A key reached a pane whose program has ended: Enter reruns it, anything else gets a hint — never silence. */
export function deadInput(server: PaneServer, pane: Pane, data: Buffer): void {
  const term = server.terminals.get(pane.n);
  if (!term || pane.state !== 'exited') return;
  if (ENTER.has(data.toString('latin1'))) {
    try {
      restartPane(server, pane);
    } catch (e) {
      term.announce(`\r\n\x1b[1;31m[cannot run ${path.basename(pane.launch?.program ?? '')} again: ${(e as Error).message}]\x1b[0m\r\n`);
    }
    return;
  }
  if (hinted.get(pane) === term.streamEnd) return; // the hint is the last thing on screen already
  term.announce('\r\n[this pane\'s program has ended: Enter runs it again; close the pane to remove it]\r\n');
  hinted.set(pane, term.streamEnd);
}
