// The agent body: a terminal running an agent's program, whose vocabulary is
// the terminal's plus the words of a unix user (issue 5): each opens a view of
// the agent (server/handlers/agents.ts, agent/open).
import type { PaneCommand } from '../../../kits/protocol/model';
import type { BodyProvider } from './provider';
import { TERMINAL_WORDS, terminalBody } from './terminal';

const AGENT_WORDS: readonly PaneCommand[] = [
  { name: 'finger', doc: 'Show what the agent is on: state, panes, prompt, mail, .plan', args: [], inTag: true },
  { name: 'mail', doc: 'Write the agent a mail (it gets it at its next turn)', args: [], inTag: true },
  { name: 'write', doc: 'Talk to the agent live in a conversation pane beside it', args: [], inTag: true },
  { name: 'plan', doc: 'Edit the agent’s .plan', args: [], inTag: true },
  { name: 'access', doc: 'Show what the agent may touch (its .access)', args: [], inTag: true },
  { name: 'focus', doc: 'Focus the agent’s pane', args: [], inTag: true },
  { name: 'interrupt', doc: 'Send Ctrl-C to the agent', args: [], inTag: true },
  { name: 'review', doc: 'Review what the agent changed in its worktree: file by file, accept (commit) or reject (restore)', args: [] },
  ...TERMINAL_WORDS.filter((c) => c.name !== 'interrupt'),
];

const VIEWS = new Set(['finger', 'mail', 'write', 'plan', 'access']);

export const agentBody: BodyProvider<'agent'> = {
  ...terminalBody,
  meaning: (pane, word) => {
    // Each opens a view of the agent (server/handlers/agents.ts, agent/open).
    if (VIEWS.has(word)) return { method: 'agent/open', params: { pane: pane.n, view: word as 'finger' } };
    if (word === 'review') {
      // The shipped diff-review widget (apps/diff-review.json), its bindings filled from review.pane.
      if (pane.attrs['agent.worktree'] === undefined) return `pane ${pane.n} has no worktree of its own to review (an agent launched with --worktree has one)`;
      return { method: 'float/create', params: { kind: 'widgets', name: `review ${pane.tag.name}`, signature: 'com.pane.diff-review', attrs: { app: 'diff-review', 'review.pane': String(pane.n) } } };
    }
    return terminalBody.meaning?.(pane, word, {});
  },
  kind: 'agent',
  agent: true,
  // Its shell is an ordinary terminal: no agent runs in it.
  shellKind: 'terminal',
  // The agent's own `focus` (focus the agent's pane) replaces the common one.
  vocabulary: (common) => [...common.filter((c) => c.name !== 'focus'), ...AGENT_WORDS],
};
