// Handoff: one agent's state as context for another, in three tiers so the
// reader takes as much as its budget allows — who and what (one line), where it is
// heading and what it holds, then the detail.
import type { AgentAwareness, Claim, Message, Prediction } from '../../kits/protocol/awareness';
import { clip } from '../../kits/protocol/shown';
import { formatMessage } from './messages';
import { recentFiles } from './trajectory';

export interface HandoffInput {
  agent: AgentAwareness;
  to: string;
  claims: readonly Claim[];
  predictions: readonly Prediction[];
  /** Messages the agent sent or received, oldest first. */
  messages: readonly Message[];
  now: number;
  label(name: string): string;
}

export interface Handoff {
  from: string;
  to: string;
  /** Tier 1: one line. */
  summary: string;
  /** Tier 2: trajectory, claims, files, last prompt. */
  trajectory: string[];
  /** Tier 3: turn-by-turn topics, open predictions, recent messages. */
  detail: string[];
  /** All tiers as one text, as sent in the handoff message. */
  text: string;
}

/** "3 min ago", "2 h ago": for people and for agents that reason about freshness. */
export function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}

const list = (xs: readonly string[]) => (xs.length ? xs.join(', ') : '—');

/** How many files tier 2 names: enough to pick up the work, short enough to read. */
const FILES_SHOWN = 10;
const MESSAGES_SHOWN = 5;
/** Each message quoted at most this long; handoffs are left out, or each would quote the last, growing without end. */
const MESSAGE_CHARS = 300;

export function buildHandoff(h: HandoffInput): Handoff {
  const a = h.agent;
  const t = a.trajectory;
  const summary = `${h.label(a.name)} — on ${list(a.keyTopics.slice(0, 5))}; ${a.promptCount} prompt${a.promptCount === 1 ? '' : 's'}, last active ${ago(h.now - a.lastActive)}${a.cwd ? `, in ${a.cwd}` : ''}.`;
  const held = h.claims.filter((c) => c.holder === a.name);
  const files = recentFiles(a.window).slice(0, FILES_SHOWN);
  const trajectory = [
    `deepening: ${list(t.deepening)}`,
    `emerging: ${list(t.emerging)}`,
    `stable: ${list(t.stable)}`,
    `fading: ${list(t.fading)}`,
    `claims: ${held.length ? held.map((c) => `${c.path} (${c.scope}${c.reason ? `: ${c.reason}` : ''})`).join('; ') : 'none'}`,
    `files touched: ${list(files)}`,
    ...(a.lastPrompt ? [`last prompt: ${a.lastPrompt}`] : []),
  ];
  const mine = h.predictions.filter((p) => p.a === a.name || p.b === a.name);
  const detail = [
    ...a.window.map((s, i) => `turn ${a.promptCount - a.window.length + i + 1}: ${list(s.topics)}${s.files.length ? ` [${s.files.length} file${s.files.length === 1 ? '' : 's'}]` : ''}`),
    ...mine.map((p) => `open prediction (${p.type}, ${Math.round(p.confidence * 100)}%): ${p.recommendation}`),
    ...h.messages
      .filter((m) => m.type !== 'handoff')
      .slice(-MESSAGES_SHOWN)
      .map((m) => formatMessage({ ...m, text: clip(m.text, MESSAGE_CHARS + 1) }, h.label)),
  ];
  const text = [`Handoff from ${h.label(a.name)} to ${h.label(h.to)}`, summary, '', ...trajectory, '', ...detail].join('\n');
  return { from: a.name, to: h.to, summary, trajectory, detail, text };
}
