// The engine's messages: one bounded log (messages.ts does the routing), with
// what each reader still has to be handed and the hand-over itself, reported once
// per call so the engine only wires it to time, events and persistence.
import type { Message } from '../../kits/protocol/awareness';
import type { AwarenessEvent } from './engineTypes';
import { exchanged, markDelivered, pendingFor, post, type Addressee, type NewMessage } from './messages';

export interface BoardHost {
  now(): number;
  newId(): string;
  maxMessages: number;
  /** Who a name is for targeting: its agent record, or a stranger with no pane or quadrant yet. */
  who(name: string): Addressee;
  emit(e: AwarenessEvent): void;
  /** The log changed (it is saved with the registry). */
  changed(): void;
}

export class MessageBoard {
  constructor(
    public readonly log: Message[],
    private readonly h: BoardHost,
  ) {}

  post(m: NewMessage): Message {
    const msg = post(this.log, m, this.h.now(), this.h.newId(), this.h.maxMessages);
    this.h.emit({ kind: 'message', message: msg });
    this.h.changed();
    return msg;
  }

  /** Messages waiting for an agent (known or not yet seen). */
  pending(name: string): Message[] {
    return pendingFor(this.log, this.h.who(name));
  }

  /** Hands the pending messages over and marks them delivered. */
  deliver(name: string): Message[] {
    return this.handOver(name, this.pending(name));
  }

  /** The agent saw these messages elsewhere (it read their mail copies): they are handed over. */
  acknowledge(name: string, ids: readonly string[]): Message[] {
    const want = new Set(ids);
    return this.handOver(
      name,
      this.pending(name).filter((m) => want.has(m.id)),
    );
  }

  private handOver(name: string, out: Message[]): Message[] {
    if (out.length) {
      markDelivered(out, name);
      this.h.emit({ kind: 'delivered', agent: name, messages: out });
      this.h.changed();
    }
    return out;
  }

  /** Did these two exchange a message since `since` (coordination)? */
  exchangedSince(a: Addressee, b: Addressee, since: number): boolean {
    return exchanged(this.log, a, b, since);
  }

  /** Messages an agent sent or was sent by name, oldest first (for its handoff). */
  involving(name: string): Message[] {
    return this.log.filter((m) => m.from === name || (m.target.kind === 'agent' && m.target.name === name));
  }
}
