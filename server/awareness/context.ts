// The context an agent is handed at its turn (a hook's additionalContext): the
// other agents by name and quadrant with their topics, the claims it must respect,
// the convergence it is part of, and the messages waiting for it.
import type { AgentAwareness, Claim, Message, Prediction } from '../../kits/protocol/awareness';
import { ago } from './handoff';
import { formatMessage } from './messages';

export interface ContextInput {
  me: string;
  /** Live agents, the reader included. */
  agents: readonly AgentAwareness[];
  claims: readonly Claim[];
  predictions: readonly Prediction[];
  pending: readonly Message[];
  now: number;
  label(name: string): string;
}

/** Caps that keep the context a glance, not a page: an agent's context window is its working memory. */
const MAX_AGENTS = 8;
const MAX_CLAIMS = 10;
const MAX_MESSAGES = 10;

const claimLine = (c: Claim, label: (n: string) => string) =>
  `${c.path}${c.kind === 'dir' ? ' (directory)' : c.kind === 'glob' ? ' (glob)' : ''} — ${label(c.holder)}, ${c.scope}${c.reason ? `: ${c.reason}` : ''}${c.contestedBy ? ` [contested by ${label(c.contestedBy)}]` : ''}`;

/** The context text, or '' when there is nothing another agent would change its plan for. */
export function buildContext(c: ContextInput): string {
  const others = c.agents
    .filter((a) => a.name !== c.me)
    .sort((x, y) => y.lastActive - x.lastActive)
    .slice(0, MAX_AGENTS);
  const theirs = c.claims.filter((x) => x.holder !== c.me);
  const mine = c.claims.filter((x) => x.holder === c.me);
  const preds = c.predictions.filter((p) => p.a === c.me || p.b === c.me).sort((x, y) => y.confidence - x.confidence);
  if (others.length === 0 && theirs.length === 0 && preds.length === 0 && c.pending.length === 0) return '';
  const out = [`pane awareness — you are ${c.label(c.me)}.`];
  if (others.length) {
    out.push('Other agents:');
    for (const a of others) {
      const deep = a.trajectory.deepening.length ? `; deepening ${a.trajectory.deepening.slice(0, 3).join(', ')}` : '';
      out.push(`- ${c.label(a.name)}, active ${ago(c.now - a.lastActive)}: ${a.keyTopics.slice(0, 5).join(', ') || 'no topics yet'}${deep}`);
    }
  }
  if (theirs.length) {
    out.push('Claimed by others (coordinate before editing these):');
    for (const x of theirs.slice(0, MAX_CLAIMS)) out.push(`- ${claimLine(x, c.label)}`);
    if (theirs.length > MAX_CLAIMS) out.push(`- … and ${theirs.length - MAX_CLAIMS} more (pane claims)`);
  }
  if (mine.length) out.push(`Your claims: ${mine.map((x) => x.path).join(', ')}`);
  if (preds.length) {
    out.push('Convergence:');
    for (const p of preds) out.push(`- ${p.recommendation}`);
  }
  if (c.pending.length) {
    out.push('Messages for you:');
    for (const m of c.pending.slice(0, MAX_MESSAGES)) out.push(`- ${formatMessage(m, c.label)}`);
    if (c.pending.length > MAX_MESSAGES) out.push(`- … and ${c.pending.length - MAX_MESSAGES} more`);
  }
  return out.join('\n');
}

/** The warning for a write into another agent's claim, naming holder, quadrant and reason. */
export function claimWarning(file: string, held: readonly Claim[], label: (n: string) => string): string {
  const first = held[0];
  if (!first) return '';
  const who = held.map((c) => `${label(c.holder)} (${c.scope}${c.reason ? `: ${c.reason}` : ''})`).join('; ');
  return `${file} is claimed by ${who}. Claims are advisory: message ${first.holder} (pane awareness message) or contest the claim (pane claim --contest) before editing it.`;
}
