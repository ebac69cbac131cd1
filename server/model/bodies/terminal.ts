// The terminal body: a program on a PTY. Its body file is the screen's text;
// typing goes through /pane/<n>/input, never the body.
import type { PaneCommand } from '../../../kits/protocol/model';
import type { BodyProvider } from './provider';

/** The words a pane running a program adds to the common ones. */
export const TERMINAL_WORDS: readonly PaneCommand[] = [
  { name: 'restart', doc: 'Relaunch the pane’s program', args: [], inTag: true },
  { name: 'interrupt', doc: 'Send Ctrl-C to the foreground program', args: [] },
  { name: 'send', doc: 'Type text followed by Enter', args: [{ name: 'text', type: 'text' }] },
];

export const terminalBody: BodyProvider<'terminal'> = {
  kind: 'terminal',
  runsProgram: true,
  agent: false,
  standIn: false,
  shellKind: 'terminal',
  vocabulary: (common) => [...common, ...TERMINAL_WORDS],
  read: (io, pane, offset) => io.screen(pane, offset),
  write: async (io, pane) => io.refuse(`its body is the terminal screen; write to /${pane.n}/input to type into it`),
};
