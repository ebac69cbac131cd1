// The agent part of a pane's tag, drawn only from the attrs the server keeps on
// agent panes (docs/agents.md "For the renderer"): state badge with since-when,
// topics, unread mail, and the awareness convergence warning. Discreet by design:
// one short line of text; the details live in tooltips and accessible labels.
import type { Pane } from '../../../kits/protocol/model';
import { clip } from '../../../kits/protocol/shown';
import { AGENT_STATES, STATE_WORDS, type AgentState } from '../../../kits/protocol/agentState';

/** Topics are cut to this many characters in the tag; the tooltip holds them all. */
const TOPICS_CHARS = 32;

const isState = (s: string | undefined): s is AgentState => (AGENT_STATES as readonly (string | undefined)[]).includes(s);

/** "since 14:02:07 (3 min ago)" from the epoch-ms attr; empty when absent or junk. */
export function sinceText(since: string | undefined, now = Date.now()): string {
  const t = Number(since);
  if (!since || !Number.isFinite(t) || t <= 0) return '';
  const mins = Math.max(0, Math.round((now - t) / 60_000));
  const ago = mins === 0 ? 'just now' : mins < 60 ? `${mins} min ago` : `${Math.round(mins / 60)} h ago`;
  return `since ${new Date(t).toLocaleTimeString()} (${ago})`;
}

/** The warning as the tag shows it, from `awareness.converge` ("bob (bottom-right): auth, jwt; ..."). */
export function convergeText(converge: string): string {
  return `⚠ converges with ${converge}`;
}

/** The agent's topics: awareness's own list first (richer), else the agent service's. */
export function agentTopics(attrs: Record<string, string>): string {
  const t = attrs['awareness.topics'] || attrs['agent.topics'] || '';
  return t.split(/\s*,\s*/).filter(Boolean).join(', ');
}

/** Whole topics while they fit in `max` characters, then "+N" for the rest. */
export function shortTopics(topics: string, max = TOPICS_CHARS): string {
  const all = topics.split(', ').filter(Boolean);
  const shown: string[] = [];
  for (const t of all) {
    if (shown.length > 0 && [...shown, t].join(', ').length > max) break;
    shown.push(clip(t, max));
  }
  const rest = all.length - shown.length;
  return shown.join(', ') + (rest > 0 ? ` +${rest}` : '');
}

export function AgentTag({ pane }: { pane: Pane }) {
  const a = pane.attrs;
  if (!a.agent) return null;
  const state = a['agent.state'];
  const label = isState(state) ? STATE_WORDS[state] : state;
  // reported: the CLI's hooks said so; observed: pane saw it (screen, OSC 9/99/777, BEL).
  const source = a['agent.state-source'];
  const since = sinceText(a['agent.since']);
  const topics = agentTopics(a);
  const unread = Number(a['agent.unread'] ?? 0) || 0;
  const messages = Number(a['awareness.messages'] ?? 0) || 0;
  const converge = a['awareness.converge'];
  return (
    <>
      {state ? (
        <span
          className={`agent-state agent-state-${isState(state) ? state : 'unknown'}`}
          // A note, not a live region: many agents changing state would chatter; the
          // notices announce what needs the person (waiting, convergence).
          role="note"
          aria-label={`agent ${a.agent} ${label}${source ? ` (${source})` : ''}${since ? ` ${since}` : ''}`}
          title={`${label}${source ? ` (${source})` : ''}${since ? ` ${since}` : ''}${a['agent.source'] ? ` · from ${a['agent.source']}` : ''}`}
          data-state={state}
          data-source={source}
        >
          {label}
        </span>
      ) : null}
      {unread > 0 ? (
        <span className="agent-unread" role="note" aria-label={`${unread} unread mail`} title={`${unread} unread mail`}>
          ✉ {unread}
        </span>
      ) : null}
      {messages > 0 ? (
        <span className="agent-messages" role="note" aria-label={`${messages} pending messages`} title={`${messages} pending awareness messages`}>
          ✦ {messages}
        </span>
      ) : null}
      {topics ? (
        <span className="agent-topics" role="note" aria-label={`topics: ${topics}`} title={`topics: ${topics}`}>
          {shortTopics(topics)}
        </span>
      ) : null}
      {converge ? (
        <span className="agent-converge" role="note" aria-label={convergeText(converge).replace('⚠', 'warning:')} title={convergeText(converge)}>
          {convergeText(converge)}
        </span>
      ) : null}
    </>
  );
}
