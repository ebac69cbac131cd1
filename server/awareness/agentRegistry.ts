// The engine's agents: who is followed, where each one is, and whether it is
// stale or idle. Records are created on first sight, placed as panes move, and
// dropped a day after they go stale; the engine wires time and events in.
import { faults } from '../../kits/protocol/error';
import type { AgentState } from '../../kits/protocol/agent';
import type { AgentAwareness, AgentView } from '../../kits/protocol/awareness';
import { newAgent, place, type Whereabouts } from './agentRecord';

export interface RegistryHost {
  now(): number;
  staleAfterMs: number;
  idleAfterMs: number;
  /** The server knows more: e.g. the agent's pane has exited. */
  externalStale?: ((name: string) => boolean) | undefined;
  /** The agent's state as the agents service (and finger) shows it, where it knows it. */
  externalState?: ((name: string) => AgentState | undefined) | undefined;
  /** The agents' status machine, where it has one: waiting or idle means free for work. */
  externalIdle?: ((name: string) => boolean | undefined) | undefined;
  /** An agent appeared, came back or moved. */
  shown(a: AgentAwareness): void;
  /** The registry's part of the state changed. */
  changed(): void;
}

/** A bound on agents (each costs a profile in every pass); far beyond any desk. */
export const MAX_AGENTS = 1000;
/** Ended or stale agents are dropped from the registry after a day: history enough for a late handoff. */
const RETAIN_MS = 24 * 3600_000;

const byName = (x: AgentAwareness, y: AgentAwareness) => (x.name < y.name ? -1 : 1);

/** A record as a mirror compares it: without the times this server stamps on each poll (remoteAwareness.ts mirrorRecord). */
const mirrorKey = (a: AgentAwareness): string => JSON.stringify({ ...a, createdAt: 0, lastActive: 0, window: a.window.map((s) => ({ ...s, at: 0 })) });

/** A remote's record reported again with nothing new: the same words, topics and trajectory, and not ended here. */
function sameMirror(known: AgentAwareness, r: AgentAwareness): boolean {
  return known.endedAt === null && r.endedAt === null && mirrorKey(known) === mirrorKey(r);
}

export class AgentRegistry {
  private readonly agents: Map<string, AgentAwareness>;

  constructor(
    saved: readonly AgentAwareness[],
    private readonly h: RegistryHost,
  ) {
    this.agents = new Map(saved.map((a) => [a.name, a]));
  }

  /** Every record, in the order they were added (as saved). */
  records(): AgentAwareness[] {
    return [...this.agents.values()];
  }

  get(name: string): AgentAwareness | undefined {
    return this.agents.get(name);
  }

  has(name: string): boolean {
    return this.agents.has(name);
  }

  /** "ada (top-left)": how every line names an agent. */
  label = (name: string): string => {
    const q = this.agents.get(name)?.quadrant;
    return q ? `${name} (${q})` : name;
  };

  isStale(name: string): boolean {
    const a = this.agents.get(name);
    // Not an agent (a person's claim): only its TTL ends it.
    if (!a) return false;
    return a.endedAt !== null || this.h.now() - a.lastActive >= this.h.staleAfterMs || (this.h.externalStale?.(name) ?? false);
  }

  isIdle(a: AgentAwareness): boolean {
    if (this.isStale(a.name)) return false;
    return this.h.externalIdle?.(a.name) ?? this.h.now() - a.lastActive >= this.h.idleAfterMs;
  }

  /** Agents not stale, by name. */
  live(): AgentAwareness[] {
    return this.records()
      .filter((a) => !this.isStale(a.name))
      .sort(byName);
  }

  all(): AgentAwareness[] {
    return this.records().sort(byName);
  }

  /** An agent as the protocol shows it: with its label and whether it is stale or idle. */
  view(a: AgentAwareness): AgentView {
    const state = this.h.externalState?.(a.name);
    return { ...a, label: this.label(a.name), stale: this.isStale(a.name), idle: this.isIdle(a), ...(state ? { state } : {}) };
  }

  /** The agent's record, created on first sight (the registry full: stale ones make room). */
  ensure(name: string, w: Whereabouts = {}): AgentAwareness {
    let a = this.agents.get(name);
    if (!a) {
      if (this.agents.size >= MAX_AGENTS) this.prune(0);
      if (this.agents.size >= MAX_AGENTS) throw faults.failed(`awareness already follows ${MAX_AGENTS} agents; ${name} is not added`);
      a = newAgent(name, this.h.now(), w);
      this.agents.set(name, a);
    } else place(a, w);
    return a;
  }

  /** The agent is here (a session started, a pane moved): no prompt, no topics. */
  see(name: string, w: Whereabouts = {}): AgentAwareness {
    const known = this.agents.get(name);
    const a = this.ensure(name, w);
    const returned = known !== undefined && known.endedAt !== null;
    a.lastActive = this.h.now();
    a.endedAt = null;
    if (!known || returned) this.h.shown(a);
    this.h.changed();
    return a;
  }

  /** Where an agent is (pane, quadrant, cwd) changed, without activity. */
  locate(name: string, w: Whereabouts): void {
    const a = this.agents.get(name);
    if (a && place(a, w)) {
      this.h.shown(a);
      this.h.changed();
    }
  }

  /**
   * The agents a joined host reported (issue 26), named NAME@HOST: they replace every
   * record of that host (one not reported again is dropped), so a pass pairs them with
   * this server's agents. The caller has checked and bounded them (server/hosts/remoteAwareness.ts).
   * True when anything changed: the host asks every REMOTE_AWARENESS_POLL_MS, and an
   * unchanged answer marks nothing (it used to rewrite the registry's file each time).
   */
  mirror(host: string, records: readonly AgentAwareness[]): boolean {
    const suffix = `@${host}`;
    const keep = new Set(records.map((r) => r.name));
    let changed = false;
    for (const name of [...this.agents.keys()]) {
      if (name.endsWith(suffix) && !keep.has(name)) {
        this.agents.delete(name);
        changed = true;
      }
    }
    for (const r of records) {
      const known = this.agents.get(r.name);
      // Reported again as it was: still live (its lastActive moves), and nothing for the registry's file or a pass.
      if (known && sameMirror(known, r)) {
        known.lastActive = r.lastActive;
        continue;
      }
      if (!known && this.agents.size >= MAX_AGENTS) this.prune(0);
      if (!known && this.agents.size >= MAX_AGENTS) continue;
      this.agents.set(r.name, known ? { ...r, createdAt: known.createdAt } : r);
      if (!known) this.h.shown(r);
      changed = true;
    }
    if (changed) this.h.changed();
    return changed;
  }

  /** Drops agents stale for longer than `retainMs` (a day, or 0 when the registry is full). */
  prune(retainMs = RETAIN_MS): void {
    const now = this.h.now();
    for (const a of this.records()) {
      const since = a.endedAt ?? a.lastActive + this.h.staleAfterMs;
      if (this.isStale(a.name) && now - since >= retainMs) {
        this.agents.delete(a.name);
        this.h.changed();
      }
    }
  }
}
