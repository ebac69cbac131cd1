// Convergence across hosts (issue 26, decision 037): each joined host's live agents
// are asked of its daemon (`awareness/agents`) every REMOTE_AWARENESS_POLL_MS and
// mirrored into this server's awareness engine as NAME@HOST, so a pass predicts
// convergence between a local agent and a remote one and warns the local one as it
// warns a local pair (event, pane mark, hook context). A remote's records are
// untrusted input: the link's Connection checks their schema, and here each answer
// is refused whole (logged to /pane/log, nothing mirrored, local awareness untouched)
// when it breaks a bound below. Only the remote's own agents are taken (a name
// carrying @ is another host's, mirrored there), with no pane, no cwd (a remote
// path names another machine's file) and this server's clock.
import type { AgentAwareness, AgentView } from '../../kits/protocol/awareness';
import { AgentNameSchema } from '../../kits/protocol/agent';
import type { AwarenessService } from '../awareness/service';
import type { PaneServer } from '../paneServer';
import { HEARTBEAT_MS, type HostLink } from './hostLink';
import { splitAgentRef } from './remoteAgents';
import type { HostService } from './hostService';

/** How often each joined host's agents are asked for: the heartbeat's pace (a prompt every few seconds at most). */
export const REMOTE_AWARENESS_POLL_MS = HEARTBEAT_MS;
/** Most live agents one host may report: a machine's desk of agents, far below the engine's MAX_AGENTS. */
export const MAX_REMOTE_AWARENESS_AGENTS = 64;
/** Most topics in any one list of a remote record (key topics, a snapshot's, a trajectory's): topN is 8, a prompt has a few dozen. */
export const MAX_REMOTE_TOPICS = 64;
/** Most snapshots in a remote agent's window: the engine keeps 10. */
export const MAX_REMOTE_WINDOW = 32;
/** Longest topic kept from a remote: topics are words and short phrases. */
export const MAX_REMOTE_TOPIC_CHARS = 64;

/** Why a remote's records are refused, or null when every bound holds. */
export function checkRemoteAgents(agents: readonly AgentView[]): string | null {
  if (agents.length > MAX_REMOTE_AWARENESS_AGENTS) return `${agents.length} agents (MAX_REMOTE_AWARENESS_AGENTS is ${MAX_REMOTE_AWARENESS_AGENTS})`;
  for (const a of agents) {
    const lists: [string, readonly string[]][] = [
      ['keyTopics', a.keyTopics],
      ['trajectory.deepening', a.trajectory.deepening],
      ['trajectory.emerging', a.trajectory.emerging],
      ['trajectory.fading', a.trajectory.fading],
      ['trajectory.stable', a.trajectory.stable],
      ...a.window.map((s, i): [string, readonly string[]] => [`window[${i}].topics`, s.topics]),
    ];
    if (a.window.length > MAX_REMOTE_WINDOW) return `agent ${a.name.slice(0, 40)}: window of ${a.window.length} snapshots (MAX_REMOTE_WINDOW is ${MAX_REMOTE_WINDOW})`;
    for (const [field, l] of lists) {
      if (l.length > MAX_REMOTE_TOPICS) return `agent ${a.name.slice(0, 40)}: ${field} has ${l.length} topics (MAX_REMOTE_TOPICS is ${MAX_REMOTE_TOPICS})`;
      const long = l.find((t) => t.length > MAX_REMOTE_TOPIC_CHARS);
      if (long !== undefined) return `agent ${a.name.slice(0, 40)}: a topic in ${field} is ${long.length} characters (MAX_REMOTE_TOPIC_CHARS is ${MAX_REMOTE_TOPIC_CHARS})`;
    }
  }
  return null;
}

/** A remote's record as this server mirrors it: NAME@HOST, no pane or cwd, active now, files dropped. */
export function mirrorRecord(a: AgentView, host: string, now: number): AgentAwareness {
  return {
    name: `${a.name}@${host}`,
    pane: null,
    quadrant: null,
    cwd: null,
    lastPrompt: a.lastPrompt,
    promptCount: a.promptCount,
    keyTopics: [...a.keyTopics],
    window: a.window.map((s) => ({ at: now, hash: s.hash.slice(0, 64), topics: [...s.topics], files: [], mentions: [] })),
    trajectory: { deepening: [...a.trajectory.deepening], emerging: [...a.trajectory.emerging], fading: [...a.trajectory.fading], stable: [...a.trajectory.stable] },
    createdAt: now,
    lastActive: now,
    endedAt: null,
  };
}

/** What the mirror uses of the rest of the server: the state owner, and awareness when there is one (asked at each poll: it may attach later or stop). */
export interface RemoteAwarenessDeps {
  server: PaneServer;
  awareness: () => AwarenessService | undefined;
}

/** Polls each connected host's agents and mirrors them into the local engine; stopped with the server. */
export class RemoteAwareness {
  private busy = false;
  private stopped = false;

  constructor(
    private readonly deps: RemoteAwarenessDeps,
    private readonly hosts: HostService,
  ) {
    // Each heartbeat of the host service (REMOTE_AWARENESS_POLL_MS), which beats only while a host is joined, or a left one's agents are still here.
    hosts.onBeat(
      () => void this.poll(),
      () => this.leftHosts().length > 0,
    );
    deps.server.onStop(() => this.stop());
  }

  /** One round over every host (a round still running is not overlapped). */
  async poll(): Promise<void> {
    const aw = this.deps.awareness()?.aw;
    if (!aw || this.busy || this.stopped) return;
    this.busy = true;
    try {
      // Agents of a host whose file went: no link polls them any more.
      for (const host of this.leftHosts()) if (!this.hosts.links.has(host)) aw.mirror(host, []);
      for (const link of this.hosts.links.values()) await this.pollOne(link);
    } finally {
      this.busy = false;
    }
  }

  private async pollOne(link: HostLink): Promise<void> {
    const aw = this.deps.awareness()?.aw;
    if (!aw) return;
    // A host not joined, or stale, keeps no agents here: they would warn of work nobody can see going on.
    if (link.state !== 'connected') {
      if (aw.all().some((a) => a.name.endsWith(`@${link.name}`))) aw.mirror(link.name, []);
      return;
    }
    let agents: AgentView[];
    try {
      agents = (await link.call('awareness/agents', { all: false })).agents;
    } catch {
      return; // the link names its own failures (timeouts, faults); the last mirror stands until it goes stale
    }
    const why = checkRemoteAgents(agents);
    if (why !== null) {
      this.deps.server.publish('client/refused', { door: `host ${link.name} awareness`, reason: `its agents' records were refused: ${why}; this server's awareness is unchanged (fix or upgrade pane on ${link.name})` });
      return;
    }
    const now = Date.now();
    const own = agents.filter((a) => AgentNameSchema.safeParse(a.name).success && !a.stale);
    aw.mirror(link.name, own.map((a) => mirrorRecord(a, link.name, now)));
  }

  /** Hosts with agents mirrored here that are not connected now (left, stale, their file gone): the next poll lets them go. */
  private leftHosts(): string[] {
    const aw = this.deps.awareness()?.aw;
    if (!aw || this.stopped) return [];
    const hosts = new Set(aw.all().flatMap((a) => splitAgentRef(a.name).host ?? []));
    return [...hosts].filter((h) => this.hosts.links.get(h)?.state !== 'connected');
  }

  stop(): void {
    this.stopped = true;
  }
}
