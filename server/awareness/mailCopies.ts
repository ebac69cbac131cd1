// Awareness messages in the mailboxes: a message is copied, as mail, into the
// Maildir of every agent account it targets (an agent, the agent in a pane, a
// quadrant's agents, or all), so it can be read like any mail and stays on disk.
// The hook context still hands it over at the agent's next turn; when it does,
// the copy is filed as read, and reading the copy (`pane mail`) counts as
// handed over — one message is never "new" twice.
import path from 'node:path';
import type { Message } from '../../kits/protocol/awareness';
import type { AgentService } from '../agents/service';
import { deliver, markSeenByRef, unreadCount } from '../agents/mailbox';
import { PathRefused } from '../../kits/node/safeFile';
import type { Awareness } from './engine';
import { targets, type Addressee } from './messages';
import { clip } from '../../kits/protocol/shown';

const firstLine = (s: string) => {
  const line = s.trim().split('\n', 1)[0] ?? '';
  return clip(line, 72);
};

/** "[high question] which token format?": the subject of a copy. */
export function copySubject(m: Message): string {
  return `[${m.priority === 'normal' ? '' : `${m.priority} `}${m.type}] ${firstLine(m.text)}`;
}

function copyBody(m: Message, aw: Awareness): string {
  const reply = m.type === 'question' || m.type === 'request' || m.type === 'handoff' ? `\nAnswer with: pane awareness message --type ${m.type === 'question' ? 'answer' : 'ack'} ${m.from} 'TEXT'` : '';
  return `${m.text.trimEnd()}\n\n-- \n${m.type} from ${aw.label(m.from)}, ${new Date(m.at).toISOString()} (message ${m.id})${reply}\n`;
}

/** The accounts a message targets, as awareness knows them (or from their panes, when it does not yet). */
export function addressees(m: Message, aw: Awareness, agents: AgentService): string[] {
  return agents.store.list().filter((name) => {
    const a = aw.agent(name);
    const pane = a?.pane ?? agents.panesOf(name)[0]?.pane ?? null;
    const who: Addressee = { name, pane, quadrant: a?.quadrant ?? null };
    return targets(m, who);
  });
}

/** Copies a new message into its addressees' Maildirs; a disk error is a warning, never a lost message. */
export function copyToMailboxes(m: Message, aw: Awareness, agents: AgentService, warn: (s: string) => void): string[] {
  const to = addressees(m, aw, agents);
  for (const name of to) {
    const dir = path.join(agents.store.home(name), 'Maildir');
    try {
      const id = deliver(dir, { from: m.from, to: name, subject: copySubject(m), body: copyBody(m, aw), ref: m.id }, m.at);
      agents.accountFilesChanged(name);
      agents.server.publish('agent/mailed', { to: name, from: m.from, subject: copySubject(m), id, unread: unreadCount(dir) });
    } catch (e) {
      if (e instanceof PathRefused) agents.refused(name, e, 'awareness/message');
      warn(`pane: awareness message ${m.id} not copied to ${name}'s mailbox (${dir}): ${(e as Error).message}`);
    }
  }
  return to;
}

/** The messages were handed over as context: their copies are read. */
export function fileCopiesAsRead(name: string, ids: readonly string[], agents: AgentService): void {
  if (!agents.store.exists(name) || ids.length === 0) return;
  if (markSeenByRef(path.join(agents.store.home(name), 'Maildir'), new Set(ids)) > 0) agents.changed(name);
}
