// How awareness shows: engine events become awareness/* protocol events, and each
// agent's panes carry `awareness.*` attrs (topics, trajectory, who it converges
// with, claims, pending messages), so tags, /pane/<n>/attrs and the peers view
// all read the one state. Agents are always named by name and quadrant.
import type { Prediction } from '../../kits/protocol/awareness';
import { partnersByName, partnersOf } from '../../kits/protocol/partners';
import { setAttrs } from '../model/paneOps';
import type { PaneServer } from '../paneServer';
import type { Awareness, AwarenessEvent } from './engine';
import { NoticeBook, pairId } from './noticeBook';

export interface PresenterHost {
  server: PaneServer;
  aw: Awareness;
  /** The live panes an agent shows in. */
  panesOf(name: string): number[];
  /** Topics and claims for finger and the agent tags (the agents service's extras). */
  setExtras?(name: string, extras: { topics: string[]; claims: string[] }): void;
}

/** Attrs this file owns; any other attr of the pane is left alone. */
export const ATTRS = ['awareness.topics', 'awareness.trajectory', 'awareness.converge', 'awareness.claims', 'awareness.messages'] as const;

/** "src/auth.ts" when under the agent's cwd, else the absolute path. */
export function shortPath(p: string, cwd: string | null): string {
  if (cwd && p.startsWith(cwd.endsWith('/') ? cwd : `${cwd}/`)) return p.slice(cwd.length + (cwd.endsWith('/') ? 0 : 1)) || p;
  return p;
}

/** "ada (top-left) and bob (bottom-right) converge on auth, jwt": the line a notification shows. */
export function headline(p: Prediction, label: (n: string) => string): string {
  const on = p.topics.slice(0, 4).join(', ');
  switch (p.type) {
    case 'mutual-deepening':
    case 'approaching':
      return `${label(p.a)} and ${label(p.b)} converge on ${on}`;
    case 'cross-approach':
      return `${label(p.a)} moves into ${label(p.b)}'s work on ${on}`;
    case 'domain-proximity':
      return `${label(p.a)} and ${label(p.b)} work near each other (${p.domain ?? on})`;
  }
}

export class Presenter {
  private lastExtras = new Map<string, string>();
  /** One notice per converging pair, for windows (awareness/notice, awareness/notices). */
  readonly notices = new NoticeBook();
  /** Agents whose attrs are due: done once when this turn's events are in (flush). */
  private readonly due = new Set<string>();
  /** Notices due: of these pairs (pairId), and of every pair of these agents (one that moved or prompted). */
  private readonly pairsDue = new Set<string>();
  private readonly agentsDue = new Set<string>();
  /** The notices were brought in line with every open prediction once (restored ones included); after that, only what changed is. */
  private synced = false;
  private flushing = false;

  constructor(private readonly h: PresenterHost) {}

  /**
   * One pass emits an event per prediction it made or ended, and one per agent it
   * moved; each names agents to refresh and asks for the notices again. Done per
   * event, a pass that finds K predictions among P re-read all P (and sorted them
   * for each agent's partners) K times: 27 ms a prompt with 50 agents on shared
   * work (bench: scale, awareness tick). They are gathered instead and done once,
   * at the end of the turn (a microtask: before any reply or event leaves for a
   * client), with the predictions as the pass left them; and only the notices of
   * the pairs the events named, or of an agent that prompted or moved, are worded
   * again (after the first sync, which words every restored one).
   */
  private later(names: readonly string[], notices: { pair?: [string, string]; agent?: string } | null): void {
    for (const n of names) this.due.add(n);
    if (notices?.pair) this.pairsDue.add(pairId(...notices.pair));
    if (notices?.agent !== undefined) this.agentsDue.add(notices.agent);
    if (this.flushing) return;
    this.flushing = true;
    queueMicrotask(() => this.flush());
  }

  /** Does what `later` gathered; a no-op when nothing is due. */
  flush(): void {
    this.flushing = false;
    const names = [...this.due];
    this.due.clear();
    if (names.length > 0) this.refresh(...names);
    if (this.pairsDue.size > 0 || this.agentsDue.size > 0) {
      const pairs = new Set(this.pairsDue);
      const agents = new Set(this.agentsDue);
      this.pairsDue.clear();
      this.agentsDue.clear();
      this.syncNotices(this.synced ? (id, a, b) => pairs.has(id) || agents.has(a) || agents.has(b) : undefined);
    }
  }

  handle(e: AwarenessEvent): void {
    const { server, aw } = this.h;
    switch (e.kind) {
      case 'predicted': {
        const p = e.prediction;
        server.publish('awareness/predicted', { prediction: p, message: headline(p, aw.label), panes: [...this.h.panesOf(p.a), ...this.h.panesOf(p.b)] });
        this.later([p.a, p.b], { pair: [p.a, p.b] });
        return;
      }
      case 'resolved':
        server.publish('awareness/resolved', { resolution: e.resolution });
        this.notices.resolved(e.resolution.a, e.resolution.b, e.resolution.outcome);
        this.later([e.resolution.a, e.resolution.b], { pair: [e.resolution.a, e.resolution.b] });
        return;
      case 'calibrated':
        server.publish('awareness/calibrated', e.calibration);
        return;
      case 'claims': {
        server.publish('awareness/claims-changed', { claims: [...aw.peekClaims()] });
        for (const c of e.changes.contested) {
          const by = c.contestedBy ?? '';
          const timeoutMs = aw.cfg.contestTimeoutMs;
          const message = `${aw.label(by)} contests ${aw.label(c.holder)}'s claim on ${shortPath(c.path, aw.agent(c.holder)?.cwd ?? null)}; it passes to ${by} in ${Math.round(timeoutMs / 1000)} s unless ${c.holder} releases it or answers ${by} first (pane awareness message ${by} …)`;
          server.publish('awareness/claim-contested', { claim: c, by, message, timeoutMs, panes: [...this.h.panesOf(c.holder), ...this.h.panesOf(by)] });
        }
        const touched = new Set([...e.changes.added, ...e.changes.contested, ...e.changes.kept, ...e.changes.removed.map((r) => r.claim)].map((c) => c.holder));
        this.later([...touched], null);
        return;
      }
      case 'collision': {
        const message = `${aw.label(e.a)} wrote ${shortPath(e.file, aw.agent(e.a)?.cwd ?? null)}, which ${aw.label(e.b)} also works on (recent write or claim)`;
        server.publish('awareness/collided', { a: e.a, b: e.b, file: e.file, message, panes: [...this.h.panesOf(e.a), ...this.h.panesOf(e.b)] });
        return;
      }
      case 'message':
        server.publish('awareness/messaged', { message: e.message });
        // Any agent may be a target (quadrant, all): recount everyone's badge.
        this.later(aw.live().map((a) => a.name), null);
        return;
      case 'delivered':
        this.later([e.agent], null);
        return;
      case 'agent': {
        server.publish('awareness/agent-changed', { agent: aw.view(e.agent) });
        // Its partners' tags name it by quadrant: a move must reach them too.
        const name = e.agent.name;
        // A pass may have changed a prediction's topics (no event of its own) or the agent moved.
        this.later([name, ...partnersOf(name, aw.predictions()).map((x) => x.name)], { agent: name });
        return;
      }
      case 'learned':
        return;
    }
  }

  /** Publishes the notices that appeared, changed or went since the last sync. */
  syncNotices(due?: (id: string, a: string, b: string) => boolean): void {
    const { server, aw } = this.h;
    const env = { now: Date.now(), label: aw.label, panesOf: this.h.panesOf, headline: (p: Prediction) => headline(p, aw.label) };
    if (!due) this.synced = true;
    for (const c of this.notices.sync(aw.predictions(), env, due)) {
      if (c.kind === 'notice') server.publish('awareness/notice', { notice: c.notice });
      else server.publish('awareness/notice-withdrawn', { id: c.id, outcome: c.outcome, message: c.message });
    }
  }

  /** Recomputes the awareness attrs of these agents' panes and publishes what changed. */
  refresh(...names: string[]): void {
    const { server, aw } = this.h;
    const claims = aw.peekClaims();
    const partners = partnersByName(aw.predictions());
    for (const name of new Set(names)) {
      const a = aw.agent(name);
      if (!a) continue;
      const t = a.trajectory;
      const traj = (['deepening', 'emerging', 'fading'] as const)
        .filter((k) => t[k].length > 0)
        .map((k) => `${k} ${t[k].slice(0, 4).join(', ')}`)
        .join('; ');
      const converge = (partners.get(name) ?? []).map((x) => `${aw.label(x.name)}: ${x.prediction.topics.slice(0, 3).join(', ')}`);
      const held = claims.filter((c) => c.holder === name).map((c) => shortPath(c.path, a.cwd));
      const pending = aw.pending(name).length;
      const want: Record<(typeof ATTRS)[number], string | null> = {
        'awareness.topics': a.keyTopics.slice(0, 5).join(', ') || null,
        'awareness.trajectory': traj || null,
        'awareness.converge': converge.slice(0, 3).join('; ') || null,
        'awareness.claims': held.join(', ') || null,
        'awareness.messages': pending > 0 ? String(pending) : null,
      };
      for (const n of this.h.panesOf(name)) this.setAttrs(server, n, want);
      const extras = { topics: a.keyTopics, claims: held };
      const key = JSON.stringify(extras);
      if (this.h.setExtras && this.lastExtras.get(name) !== key) {
        this.lastExtras.set(name, key);
        this.h.setExtras(name, extras);
      }
    }
  }

  private setAttrs(server: PaneServer, n: number, want: Record<string, string | null>): void {
    const pane = server.panes.get(n);
    if (pane) setAttrs(server, pane, want);
  }
}
