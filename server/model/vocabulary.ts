// The command vocabulary of each kind of pane: the words shown in the tag,
// listed by the palette and /pane/<n>/commands, and accepted by ctl and pane/exec.
// Each word maps onto one protocol request, so every view executes it the same way.
import type { BodyKind, PaneCommand } from '../../kits/protocol/model';

const dir: PaneCommand['args'][number] = { name: 'direction', type: 'enum', values: ['left', 'right', 'up', 'down'] };

const common: PaneCommand[] = [
  { name: 'close', doc: 'Close the pane and end its process', args: [], inTag: true },
  { name: 'zoom', doc: 'Toggle zoom: the pane fills the session view', args: [], inTag: true },
  { name: 'split', doc: 'Split the pane (h: side by side, v: stacked) at a ratio', inTag: true, args: [
    { name: 'direction', type: 'enum', values: ['h', 'v'], optional: true },
    { name: 'ratio', type: 'int', optional: true, doc: 'percent kept by this pane, 10..90' },
  ] },
  { name: 'focus', doc: 'Focus this pane, or move focus in a direction', args: [
    { name: 'direction', type: 'enum', values: ['left', 'right', 'up', 'down', 'next', 'prev'], optional: true },
  ] },
  { name: 'resize', doc: 'Move the pane’s edge by N cells', args: [dir, { name: 'cells', type: 'int', optional: true }] },
  { name: 'swap', doc: 'Swap with the neighbour in a direction (default next)', args: [
    { name: 'direction', type: 'enum', values: ['left', 'right', 'up', 'down', 'next', 'prev'], optional: true },
  ] },
  { name: 'name', doc: 'Set the tag name', args: [{ name: 'name', type: 'text' }] },
  { name: 'float', doc: 'Move the pane to the floating layer', args: [], inTag: true },
  { name: 'tile', doc: 'Put a floating pane back into the tiled layout', args: [] },
  { name: 'raise', doc: 'Raise a floating pane above the others', args: [] },
  { name: 'lower', doc: 'Lower a floating pane below the others', args: [] },
  { name: 'move', doc: 'Move a floating pane to cell x y', args: [{ name: 'x', type: 'int' }, { name: 'y', type: 'int' }] },
  { name: 'size', doc: 'Resize a floating pane to w×h cells', args: [{ name: 'w', type: 'int' }, { name: 'h', type: 'int' }] },
];

const terminal: PaneCommand[] = [
  { name: 'restart', doc: 'Relaunch the pane’s program', args: [], inTag: true },
  { name: 'interrupt', doc: 'Send Ctrl-C to the foreground program', args: [] },
  { name: 'send', doc: 'Type text followed by Enter', args: [{ name: 'text', type: 'text' }] },
];

// An agent pane speaks the terminal words plus the words of a unix user (issue 5):
// each opens a view of the agent (server/handlers/agents.ts, agent/open).
const agent: PaneCommand[] = [
  { name: 'finger', doc: 'Show what the agent is on: state, panes, prompt, mail, .plan', args: [], inTag: true },
  { name: 'mail', doc: 'Write the agent a mail (it gets it at its next turn)', args: [], inTag: true },
  { name: 'write', doc: 'Talk to the agent live in a conversation pane beside it', args: [], inTag: true },
  { name: 'plan', doc: 'Edit the agent’s .plan', args: [], inTag: true },
  { name: 'access', doc: 'Show what the agent may touch (its .access)', args: [], inTag: true },
  { name: 'focus', doc: 'Focus the agent’s pane', args: [], inTag: true },
  { name: 'interrupt', doc: 'Send Ctrl-C to the agent', args: [], inTag: true },
  ...terminal.filter((c) => c.name !== 'interrupt'),
];

/** The vocabulary a new pane of `kind` starts with (apps may add words later). */
export function vocabularyFor(kind: BodyKind): PaneCommand[] {
  switch (kind) {
    case 'terminal':
      return [...common, ...terminal];
    case 'agent':
      return [...common.filter((c) => c.name !== 'focus'), ...agent];
    case 'text':
    case 'widgets':
      return [...common];
  }
}

/** The words shown in a tag, in order. */
export function tagWords(vocab: PaneCommand[]): string[] {
  return vocab.filter((c) => c.inTag).map((c) => c.name);
}
