// A pane whose program ended: the signal's name for its exit status, the rerun,
// and Enter from a raw-input client rerunning it. What the pane's body says is
// written by each window into its own terminal (renderer/src/term/deadPane.ts),
// not into the stream, so `pane output` stays exactly the program's bytes.
import os from 'node:os';
import type { Pane } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';

/** Enter, as a terminal sends it: the key that reruns a dead pane's program. */
const ENTER = new Set(['\r', '\n', '\r\n']);

/** SIGKILL for 9, from the server's own OS. */
export function signalName(signal: number): string | undefined {
  return Object.entries(os.constants.signals).find(([, v]) => v === signal)?.[0];
}

/** Runs the pane's program again, same argv and cwd, in the same pane and stream. */
export function restartPane(server: PaneServer, pane: Pane): void {
  server.terminal(pane).restart();
  server.publish('pane/restarted', { pane });
}

/**
 * Input reached a pane whose program has ended: Enter reruns it. The window
 * answers every other key itself with a hint; for other clients there is no
 * program to give it to (pane/input says so as an error).
 */
export function deadInput(server: PaneServer, pane: Pane, data: Buffer): void {
  if (pane.state !== 'exited' || !ENTER.has(data.toString('latin1'))) return;
  try {
    restartPane(server, pane);
  } catch {
    // the program cannot start again (removed since?): the pane stays exited and says so in its tag
  }
}
