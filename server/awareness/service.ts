// One AwarenessService per server: the engine with its state files, the
// presenter, and the wiring to the rest of the server — quadrants from pane
// attrs, agents' panes and states from the agents service, and awareness's
// contribution to every hook answer. Handlers reach it as ctx.services.awareness.
import os from 'node:os';
import path from 'node:path';
import { watchTargets } from '../config/targetWatch';
import type { PaneServer } from '../paneServer';
import type { AgentService } from '../agents/service';
import type { Whereabouts } from './agentRecord';
import { systemClock, type Clock } from './clock';
import { DEFAULT_CONFIG, type AwarenessConfig } from './config';
import { Awareness, type AwarenessEvent } from './engine';
import { hookContribution } from './hook';
import { copyToMailboxes, fileCopiesAsRead } from './mailCopies';
import { loadDomainMap, loadState, Saver } from './persist';
import { Presenter } from './presenter';
import { RepoLookup } from './repos';
import { configFrom, projectClaimConflict, readSettings, type ClaimConflict } from './settings';
import { JsonStore } from './store';
import type { PathRefused } from '../../kits/node/safeFile';

export interface AwarenessServiceOptions {
  /** State files go to <dataDir>/awareness/. */
  dataDir: string;
  /** awareness.json and domains.json are read from here (null: none). */
  configDir?: string | null;
  config?: Partial<AwarenessConfig>;
  clock?: Clock;
  warn?: (m: string) => void;
}

/**
 * What awareness uses of the rest of the server: the state owner (panes, its events, its
 * stop) and the agents service when there is one (asked at each use: it may attach later).
 */
export interface AwarenessDeps {
  server: PaneServer;
  agents: () => AgentService | undefined;
}

export class AwarenessService {
  readonly aw: Awareness;
  readonly store: JsonStore;
  private readonly repos = new RepoLookup();
  readonly presenter: Presenter;
  private readonly saver: Saver;
  private readonly claimConflict: ClaimConflict;
  private readonly stops: (() => void)[] = [];
  readonly warn: (m: string) => void;
  private readonly clock: Clock;
  private sweepTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  readonly server: PaneServer;

  private readonly agents: () => AgentService | undefined;

  constructor(deps: AwarenessDeps, o: AwarenessServiceOptions) {
    const server = deps.server;
    this.agents = deps.agents;
    this.server = server;
    this.warn = o.warn ?? ((m) => console.error(m));
    this.clock = o.clock ?? systemClock;
    const settingsFile = o.configDir ? path.join(o.configDir, 'awareness.json') : null;
    const settings = settingsFile ? readSettings(settingsFile, this.warn) : {};
    this.claimConflict = settings.claimConflict ?? 'warn';
    // Who and where we are is identity, not topic: "ada on devbox" must not make every agent look alike.
    const base: AwarenessConfig = { ...DEFAULT_CONFIG, identityNoise: [server.user, os.hostname(), server.host] };
    const config = { ...base, ...configFrom(base, settings), ...o.config };
    this.store = new JsonStore(path.join(o.dataDir, 'awareness'), this.warn);
    const domainsFile = o.configDir ? path.join(o.configDir, 'domains.json') : null;
    let saver: Saver | undefined;
    let presenter: Presenter | undefined;
    this.aw = new Awareness({
      config,
      ...(o.clock ? { clock: o.clock } : {}),
      ...(domainsFile ? { domains: loadDomainMap(domainsFile, this.warn) } : {}),
      state: loadState(this.store, config.threshold),
      externalStale: (n) => this.paneGone(n),
      repoOf: (d) => this.repos.of(d),
      externalState: (n) => this.agents()?.runtimes.get(n)?.state,
      externalIdle: (n) => {
        const st = this.agents()?.runtimes.get(n)?.state;
        return st === undefined || st === 'exited' ? undefined : st !== 'working';
      },
      onEvent: (e) => {
        presenter?.handle(e);
        this.mailbox(e);
        if (e.kind === 'claims') this.scheduleSweep();
      },
      onChange: (parts) => saver?.mark(parts),
    });
    this.saver = saver = new Saver(this.store, () => this.aw.state(), this.warn);
    this.presenter = presenter = new Presenter({
      server,
      aw: this.aw,
      panesOf: (n) => this.panesOf(n),
      setExtras: (n, x) => {
        const svc = this.agents();
        if (svc?.known(n)) svc.setExtras(n, x);
      },
    });
    // The domain map is a dropped-in file like the rest of the config: edits apply live.
    if (domainsFile) this.stops.push(watchTargets([{ path: domainsFile, kind: 'file' }], () => this.aw.setDomainMap(loadDomainMap(domainsFile, this.warn))));
    this.stops.push(server.listen((event, data) => this.onServerEvent(event, data)));
    const agents = this.agents();
    if (agents) {
      this.stops.push(agents.addHookContributor((ev) => hookContribution(this, ev)));
      this.stops.push(agents.onCopiesRead((name, refs) => void this.aw.acknowledge(name, refs)));
    }
    server.onStop(() => this.stop());
    // Restored claims may have deadlines already.
    this.scheduleSweep();
  }

  /**
   * Claims lapse (TTL) and contests time out on time, not at the next listing:
   * one timer, for the earliest deadline, cleans the table then (events, attrs).
   */
  private scheduleSweep(): void {
    clearTimeout(this.sweepTimer);
    const at = this.aw.claimDeadline();
    if (at === null || this.stopped) return;
    this.sweepTimer = setTimeout(() => {
      this.aw.claims();
      this.scheduleSweep();
    }, Math.min(Math.max(0, at - this.clock.now()) + 20, 2 ** 31 - 1));
    this.sweepTimer.unref();
  }

  /** Detaches and saves everything (the server is stopping). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.sweepTimer);
    for (const s of this.stops.splice(0)) s();
    await this.saver.close();
  }

  /** Messages go to the addressees' mailboxes too; handed over as context, their copies are read. */
  private mailbox(e: AwarenessEvent): void {
    const agents = this.agents();
    if (!agents) return;
    if (e.kind === 'message') copyToMailboxes(e.message, this.aw, agents, this.warn);
    else if (e.kind === 'delivered') fileCopiesAsRead(e.agent, e.messages.map((m) => m.id), agents);
  }

  /** The live panes an agent shows in: the one its hooks named, and its agent panes. */
  panesOf(name: string): number[] {
    const out = new Set<number>();
    const p = this.aw.agent(name)?.pane;
    if (p != null) out.add(p);
    for (const pr of this.agents()?.panesOf(name) ?? []) out.add(pr.pane);
    return [...out].filter((n) => this.server.panes.get(n)?.state === 'running');
  }

  quadrantOf(n: number): string | null {
    const p = this.server.panes.get(n);
    if (!p) return null;
    return p.attrs.quadrant ?? this.agents()?.quadrant(p) ?? null;
  }

  /** Where an agent is: its pane (given, or its agent pane), that pane's quadrant, its cwd. */
  whereabouts(name: string, pane?: number | null, cwd?: string): Whereabouts {
    const n = pane ?? this.agents()?.panesOf(name)[0]?.pane ?? null;
    const w: Whereabouts = {};
    if (n !== null) {
      w.pane = n;
      w.quadrant = this.quadrantOf(n);
      if (!cwd) w.cwd = this.server.panes.get(n)?.cwd ?? null;
    }
    if (cwd) w.cwd = cwd;
    return w;
  }

  /** `ask` or `warn` for a write into another agent's claim, by the project's setting. */
  claimConflictFor(dir: string, agent?: string): ClaimConflict {
    const agents = this.agents();
    // A refused settings file (a link, a FIFO) is the writing agent's doing: its log and /pane/log say so.
    const refused = (e: PathRefused) => (agent && agents ? agents.refused(agent, e, 'awareness/settings') : this.warn(e.message));
    return projectClaimConflict(dir, this.claimConflict, this.warn, refused);
  }

  /** An agent seen only through a pane whose pane has closed or exited is gone. */
  private paneGone(name: string): boolean {
    const a = this.aw.agent(name);
    if (!a || a.pane === null) return false;
    const p = this.server.panes.get(a.pane);
    if (p && p.state !== 'exited') return false;
    const svc = this.agents();
    const others = svc?.panesOf(name).some((pr) => this.server.panes.get(pr.pane)?.state === 'running') ?? false;
    const sessions = [...(svc?.runtimes.get(name)?.sessions.values() ?? [])].some((s) => s.pane === null && s.state !== 'exited');
    return !others && !sessions;
  }

  private onServerEvent(event: string, data: unknown): void {
    if (event === 'pane/attrs-changed') {
      const { pane, attrs } = data as { pane: number; attrs: Record<string, string> };
      const q = attrs.quadrant;
      if (q === undefined) return;
      for (const a of this.aw.all()) if (a.pane === pane && a.quadrant !== q) this.aw.locate(a.name, { quadrant: q });
      const owner = this.agents()?.panes.get(pane)?.agent;
      if (owner && this.aw.agent(owner) && this.aw.agent(owner)!.quadrant !== q) this.aw.locate(owner, { pane, quadrant: q });
    } else if (event === 'agent/removed') {
      this.aw.end((data as { name: string }).name);
    }
  }
}
