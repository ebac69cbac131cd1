// A pane whose program ended: the signal's name for its exit status and the rerun
// (Enter at its rerun prompt comes through model/input.ts). What the pane's body says is
// written by each window into its own terminal (renderer/src/term/deadPane.ts),
// not into the stream, so `pane output` stays exactly the program's bytes.
import os from 'node:os';
import type { Pane } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';

/** SIGKILL for 9, from the server's own OS. */
export function signalName(signal: number): string | undefined {
  return Object.entries(os.constants.signals).find(([, v]) => v === signal)?.[0];
}

/** Runs the pane's program again, same argv and cwd, in the same pane and stream. */
export function restartPane(server: PaneServer, pane: Pane): void {
  server.terminal(pane).restart();
  server.publish('pane/restarted', { pane });
}
