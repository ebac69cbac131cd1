// Messages between agents: eight types, a priority, a target (agent, pane,
// quadrant or all) and one bounded log. Delivery is per reader, so a broadcast
// reaches each agent once, at its next turn.
import type { Message, MessageType, Priority, Target } from '../../kits/protocol/awareness';
import { clip } from '../../kits/protocol/shown';

/** Who an agent is, as far as targets go. */
export interface Addressee {
  name: string;
  pane: number | null;
  quadrant: string | null;
}

export interface NewMessage {
  from: string;
  target: Target;
  type: MessageType;
  priority: Priority;
  text: string;
}

const PRIORITY_RANK: Record<Priority, number> = { urgent: 0, high: 1, normal: 2, low: 3 };

export function targets(m: Message, who: Addressee): boolean {
  if (m.from === who.name) return false;
  switch (m.target.kind) {
    case 'all':
      return true;
    case 'agent':
      return m.target.name === who.name;
    case 'pane':
      return who.pane !== null && m.target.pane === who.pane;
    case 'quadrant':
      return who.quadrant !== null && m.target.quadrant === who.quadrant;
  }
}

/** The protocol's limit, kept here too: the engine is also fed by hooks and by itself (handoffs). */
export const MAX_MESSAGE_CHARS = 8000;

export function post(log: Message[], m: NewMessage, now: number, id: string, max: number): Message {
  const text = clip(m.text, MAX_MESSAGE_CHARS);
  const msg: Message = { id, ...m, text, at: now, deliveredTo: [] };
  log.push(msg);
  if (log.length > max) log.splice(0, log.length - max);
  return msg;
}

/** Messages for `who` not yet handed to it, most urgent first, then oldest first. */
export function pendingFor(log: readonly Message[], who: Addressee): Message[] {
  return log
    .filter((m) => targets(m, who) && !m.deliveredTo.includes(who.name))
    .sort((x, y) => PRIORITY_RANK[x.priority] - PRIORITY_RANK[y.priority] || x.at - y.at);
}

/** Marks messages as handed to `name` (they stay in the log for others and for history). */
export function markDelivered(msgs: readonly Message[], name: string): void {
  for (const m of msgs) if (!m.deliveredTo.includes(name)) m.deliveredTo.push(name);
}

/** Did these two agents exchange anything since `since`? Coordination is what turns a warning into "prevented". */
export function exchanged(log: readonly Message[], a: Addressee, b: Addressee, since: number): boolean {
  for (let i = log.length - 1; i >= 0; i--) {
    const m = log[i]!;
    if (m.at < since) break;
    if ((m.from === a.name && targets(m, b) && m.target.kind !== 'all') || (m.from === b.name && targets(m, a) && m.target.kind !== 'all')) return true;
  }
  return false;
}

/** One line for hook context and the CLI: "[high question] bob → ada: which token format?" */
export function formatMessage(m: Message, label: (name: string) => string): string {
  const to = m.target.kind === 'agent' ? label(m.target.name) : m.target.kind === 'all' ? 'everyone' : m.target.kind === 'pane' ? `pane ${m.target.pane}` : `the ${m.target.quadrant} quadrant`;
  const pri = m.priority === 'normal' ? '' : `${m.priority} `;
  return `[${pri}${m.type}] ${label(m.from)} → ${to}: ${m.text}`;
}
