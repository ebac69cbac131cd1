// The awareness engine: one object owning every agent's topics and trajectory,
// the message log, the claims, the predictions and the learned domains. Pure of
// I/O (time comes from a Clock, persistence and events go out through callbacks),
// so the server, the tests and the benchmark drive the very same code.
import crypto from 'node:crypto';
import { faults } from '../../kits/protocol/error';
import type { AgentAwareness, AgentView, Claim, Message, Outcome, Prediction, ResourceKind } from '../../kits/protocol/awareness';
import { applyPrompt, applyTool, newAgent, place, type Whereabouts } from './agentRecord';
import { ClaimBook, type ClaimInput } from './claimBook';
import type { ClaimChanges, ClaimOutcome, ClaimsState } from './claims';
import type { Clock } from './clock';
import { systemClock } from './clock';
import { makeConfig, type AwarenessConfig } from './config';
import { buildContext } from './context';
import { detectAll, profileOf } from './convergence';
import { suggest, type Suggestion } from './delegation';
import { DEFAULT_DOMAINS, indexDomains, learn, type DomainIndex, type DomainMap } from './domains';
import { buildHandoff, type Handoff } from './handoff';
import { exchanged, markDelivered, pendingFor, post, type NewMessage } from './messages';
import { applyDetections, emptyPredictions, recordCollision, resolveById, type Calibration, type PassResult, type PredictionEnv } from './predictions';
import { extractTopics, vocabOf, type Vocab } from './topics';
import type { PredictionState, Resolution } from '../../kits/protocol/awareness';

export type AwarenessEvent =
  | { kind: 'agent'; agent: AgentAwareness }
  | { kind: 'predicted'; prediction: Prediction }
  | { kind: 'resolved'; resolution: Resolution }
  | { kind: 'calibrated'; calibration: Calibration }
  | { kind: 'claims'; changes: ClaimChanges }
  | { kind: 'message'; message: Message }
  | { kind: 'delivered'; agent: string; messages: Message[] }
  | { kind: 'collision'; a: string; b: string; file: string }
  | { kind: 'learned'; topic: string; domain: string };

/** The parts of the state that live in separate files. */
export type Part = 'registry' | 'claims' | 'predictions' | 'learned';

export interface AwarenessState {
  agents: AgentAwareness[];
  messages: Message[];
  claims: ClaimsState;
  predictions: PredictionState;
  learned: { domains: DomainMap; pending: Record<string, number> };
}

export interface AwarenessOptions {
  config?: Partial<AwarenessConfig>;
  clock?: Clock;
  /** The configured domain map (default: a small built-in one). */
  domains?: DomainMap;
  ids?: () => string;
  /** The server knows more: e.g. the agent's pane has exited. */
  externalStale?: (name: string) => boolean;
  /** The agents' status machine, where it has one: waiting or idle means free for work. */
  externalIdle?: (name: string) => boolean | undefined;
  onEvent?: (e: AwarenessEvent) => void;
  onChange?: (parts: Part[]) => void;
  state?: AwarenessState;
}

export type { ClaimInput } from './claimBook';

/** A bound on agents (each costs a profile in every pass); far beyond any desk. */
export const MAX_AGENTS = 1000;
/** Ended or stale agents are dropped from the registry after a day: history enough for a late handoff. */
const RETAIN_MS = 24 * 3600_000;

export class Awareness {
  readonly cfg: AwarenessConfig;
  private readonly clock: Clock;
  private readonly vocab: Vocab;
  private readonly o: AwarenessOptions;
  private agents = new Map<string, AgentAwareness>();
  private messages: Message[] = [];
  private readonly book: ClaimBook;
  private preds: PredictionState;
  private domainMap: DomainMap;
  private learned: DomainMap = {};
  private learnCounts = new Map<string, number>();
  private idx: DomainIndex;
  /** Recent writes per file, for collisions; memory only: a restart forgets minutes of history, nothing more. */
  private writes = new Map<string, { agent: string; at: number }[]>();

  constructor(o: AwarenessOptions = {}) {
    this.o = o;
    this.cfg = makeConfig(o.config);
    this.clock = o.clock ?? systemClock;
    this.vocab = vocabOf(this.cfg);
    this.domainMap = o.domains ?? DEFAULT_DOMAINS;
    this.preds = emptyPredictions(this.cfg.threshold);
    this.book = new ClaimBook({ claims: [], log: [] }, {
      now: () => this.now(),
      contestTimeoutMs: this.cfg.contestTimeoutMs,
      maxLog: this.cfg.maxClaimLog,
      isStale: (h) => this.isStale(h),
      newId: () => this.id('clm'),
      cwdOf: (h) => this.agents.get(h)?.cwd,
      changed: (changes) => {
        this.emit({ kind: 'claims', changes });
        this.changed('claims');
      },
    });
    if (o.state) this.restore(o.state);
    this.idx = indexDomains(this.domainMap, this.learned);
  }

  // ---- state ---------------------------------------------------------------

  private restore(s: AwarenessState): void {
    this.agents = new Map(s.agents.map((a) => [a.name, a]));
    this.messages = s.messages;
    this.book.st = s.claims;
    this.preds = s.predictions;
    this.learned = s.learned.domains;
    this.learnCounts = new Map(Object.entries(s.learned.pending));
  }

  state(): AwarenessState {
    return {
      agents: [...this.agents.values()],
      messages: this.messages,
      claims: this.book.st,
      predictions: this.preds,
      learned: { domains: this.learned, pending: Object.fromEntries(this.learnCounts) },
    };
  }

  setDomainMap(map: DomainMap): void {
    this.domainMap = map;
    this.idx = indexDomains(this.domainMap, this.learned);
  }

  domains(): { configured: DomainMap; learned: DomainMap } {
    return { configured: this.domainMap, learned: this.learned };
  }

  private now(): number {
    return this.clock.now();
  }

  private id(prefix: string): string {
    return `${prefix}_${this.o.ids ? this.o.ids() : crypto.randomUUID().slice(0, 8)}`;
  }

  private emit(e: AwarenessEvent): void {
    this.o.onEvent?.(e);
  }

  private changed(...parts: Part[]): void {
    this.o.onChange?.(parts);
  }

  // ---- agents --------------------------------------------------------------

  /** "ada (top-left)": how every line names an agent. */
  label = (name: string): string => {
    const q = this.agents.get(name)?.quadrant;
    return q ? `${name} (${q})` : name;
  };

  agent(name: string): AgentAwareness | undefined {
    return this.agents.get(name);
  }

  isStale(name: string): boolean {
    const a = this.agents.get(name);
    // Not an agent (a person's claim): only its TTL ends it.
    if (!a) return false;
    return a.endedAt !== null || this.now() - a.lastActive >= this.cfg.staleAfterMs || (this.o.externalStale?.(name) ?? false);
  }

  isIdle(a: AgentAwareness): boolean {
    if (this.isStale(a.name)) return false;
    return this.o.externalIdle?.(a.name) ?? this.now() - a.lastActive >= this.cfg.idleAfterMs;
  }

  /** Agents not stale, by name. */
  live(): AgentAwareness[] {
    return [...this.agents.values()].filter((a) => !this.isStale(a.name)).sort((x, y) => (x.name < y.name ? -1 : 1));
  }

  /** An agent as the protocol shows it: with its label and whether it is stale or idle. */
  view(a: AgentAwareness): AgentView {
    return { ...a, label: this.label(a.name), stale: this.isStale(a.name), idle: this.isIdle(a) };
  }

  all(): AgentAwareness[] {
    return [...this.agents.values()].sort((x, y) => (x.name < y.name ? -1 : 1));
  }

  private ensure(name: string, w: Whereabouts = {}): AgentAwareness {
    let a = this.agents.get(name);
    if (!a) {
      if (this.agents.size >= MAX_AGENTS) this.pruneAgents(0);
      if (this.agents.size >= MAX_AGENTS) throw faults.failed(`awareness already follows ${MAX_AGENTS} agents; ${name} is not added`);
      a = newAgent(name, this.now(), w);
      this.agents.set(name, a);
    } else place(a, w);
    return a;
  }

  /** The agent is here (a session started, a pane moved): no prompt, no topics. */
  see(name: string, w: Whereabouts = {}): AgentAwareness {
    const known = this.agents.get(name);
    const a = this.ensure(name, w);
    const returned = known !== undefined && known.endedAt !== null;
    a.lastActive = this.now();
    a.endedAt = null;
    if (!known || returned) this.emit({ kind: 'agent', agent: a });
    this.changed('registry');
    return a;
  }

  /** Where an agent is (pane, quadrant, cwd) changed, without activity. */
  locate(name: string, w: Whereabouts): void {
    const a = this.agents.get(name);
    if (a && place(a, w)) {
      this.emit({ kind: 'agent', agent: a });
      this.changed('registry');
    }
  }

  /** A prompt: topics, trajectory, learning, then a convergence pass. */
  prompt(name: string, text: string, w: Whereabouts = {}): { agent: AgentAwareness; topics: string[]; pass: PassResult } {
    const a = this.ensure(name, w);
    const topics = applyPrompt(a, text, this.now(), this.cfg, this.vocab);
    const got = learn(topics, this.idx, this.learnCounts, this.learned, this.cfg.learnAfter);
    if (got.length) {
      this.idx = indexDomains(this.domainMap, this.learned);
      for (const g of got) this.emit({ kind: 'learned', ...g });
    }
    this.changed('registry', 'learned');
    this.emit({ kind: 'agent', agent: a });
    return { agent: a, topics, pass: this.pass() };
  }

  /**
   * Tool use (files touched; `write` for edits): joins the trajectory, and a write
   * to a file another agent wrote lately, or holds a claim on, is a collision.
   */
  tool(name: string, t: { files: readonly string[]; write: boolean }, w: Whereabouts = {}): { collisions: string[]; claimed: Claim[] } {
    const a = this.ensure(name, w);
    const now = this.now();
    const moved = applyTool(a, t.files, now, this.cfg, this.vocab);
    this.changed('registry');
    const collisions = new Set<string>();
    const claimed: Claim[] = [];
    if (t.write) {
      this.book.sweep();
      for (const f of t.files) {
        const recent = (this.writes.get(f) ?? []).filter((x) => now - x.at < this.cfg.collisionWindowMs && x.agent !== name);
        for (const x of recent) if (!this.isStale(x.agent)) collisions.add(x.agent);
        for (const c of this.book.on(f, name)) {
          claimed.push(c);
          if (this.agents.has(c.holder)) collisions.add(c.holder);
        }
        this.writes.set(f, [...recent, { agent: name, at: now }]);
      }
      for (const other of collisions) this.collide(name, other, t.files[0] ?? '');
    }
    if (moved) {
      this.emit({ kind: 'agent', agent: a });
      this.pass();
    }
    return { collisions: [...collisions], claimed };
  }

  private collide(a: string, b: string, file: string): void {
    this.emit({ kind: 'collision', a, b, file });
    this.report(recordCollision(this.preds, a, b, this.predEnv()));
  }

  /** The agent's session ended: it leaves predictions and releases its claims. */
  end(name: string): void {
    const a = this.agents.get(name);
    if (!a) return;
    a.endedAt = this.now();
    this.book.releaseAll(name);
    this.emit({ kind: 'agent', agent: a });
    this.changed('registry');
    this.pass();
  }

  /** Drops agents stale for longer than `retainMs` (a day, or 0 when the registry is full). */
  private pruneAgents(retainMs = RETAIN_MS): void {
    const now = this.now();
    for (const a of [...this.agents.values()]) {
      const since = a.endedAt ?? a.lastActive + this.cfg.staleAfterMs;
      if (this.isStale(a.name) && now - since >= retainMs) {
        this.agents.delete(a.name);
        this.changed('registry');
      }
    }
  }

  // ---- convergence ---------------------------------------------------------

  private predEnv(): PredictionEnv {
    return {
      now: this.now(),
      cfg: this.cfg,
      newId: () => this.id('prd'),
      label: this.label,
      live: (n) => this.agents.has(n) && !this.isStale(n),
      coordinated: (a, b, since) => this.coordinated(a, b, since),
    };
  }

  /** A message between the two, or a claim made by either, since `since`. */
  private coordinated(a: string, b: string, since: number): boolean {
    const A = this.agents.get(a);
    const B = this.agents.get(b);
    if (A && B && exchanged(this.messages, A, B, since)) return true;
    return this.book.claimedSince([a, b], since);
  }

  private report(r: PassResult): void {
    for (const p of r.created) this.emit({ kind: 'predicted', prediction: p });
    for (const x of r.resolved) this.emit({ kind: 'resolved', resolution: x });
    for (const c of r.calibrations) this.emit({ kind: 'calibrated', calibration: c });
    this.changed('predictions');
  }

  /** One convergence pass over every live agent. */
  pass(): PassResult {
    this.pruneAgents();
    const profiles = this.live().map((a) => profileOf(a, this.idx, this.cfg.topN));
    const dets = detectAll(profiles, this.preds.threshold, this.idx, this.cfg.window);
    const r = applyDetections(this.preds, dets, this.predEnv());
    this.report(r);
    return r;
  }

  predictions(): Prediction[] {
    return this.preds.active;
  }

  predictionState(): PredictionState {
    return this.preds;
  }

  resolve(id: string, outcome: Outcome): Resolution | null {
    const r = resolveById(this.preds, id, outcome, this.predEnv());
    if (!r) return null;
    this.report(r);
    return r.resolved[0] ?? null;
  }

  // ---- claims (claimBook.ts) ----------------------------------------------

  resolvePath = (holder: string, p: string, kind?: ResourceKind, cwd?: string) => this.book.resolve(holder, p, kind, cwd);
  claim = (c: ClaimInput): ClaimOutcome => this.book.claim(c);
  release = (by: string, p: string, o: { kind?: ResourceKind; cwd?: string; force?: boolean } = {}): Claim[] => this.book.release(by, p, o);
  /** Live claims (cleaning first, as every listing does). */
  claims = (): Claim[] => this.book.list();
  /** The claims as they stand, without cleaning (for views reacting to a change just made). */
  peekClaims = (): readonly Claim[] => this.book.st.claims;
  claimLog = () => this.book.log();
  /** Claims by others covering a file `asker` is about to write. */
  claimsOn = (file: string, asker: string): Claim[] => this.book.on(file, asker);

  // ---- messages ------------------------------------------------------------

  message(m: NewMessage): Message {
    const msg = post(this.messages, m, this.now(), this.id('msg'), this.cfg.maxMessages);
    this.emit({ kind: 'message', message: msg });
    this.changed('registry');
    return msg;
  }

  messageLog(): readonly Message[] {
    return this.messages;
  }

  /** Messages waiting for an agent (known or not yet seen). */
  pending(name: string): Message[] {
    const a = this.agents.get(name) ?? newAgent(name, this.now());
    return pendingFor(this.messages, a);
  }

  /** Hands the pending messages over and marks them delivered. */
  deliver(name: string): Message[] {
    const out = this.pending(name);
    if (out.length) {
      markDelivered(out, name);
      this.emit({ kind: 'delivered', agent: name, messages: out });
      this.changed('registry');
    }
    return out;
  }

  /** The agent saw these messages elsewhere (it read their mail copies): they are handed over. */
  acknowledge(name: string, ids: readonly string[]): Message[] {
    const want = new Set(ids);
    const out = this.pending(name).filter((m) => want.has(m.id));
    if (out.length) {
      markDelivered(out, name);
      this.emit({ kind: 'delivered', agent: name, messages: out });
      this.changed('registry');
    }
    return out;
  }

  // ---- context, handoff, delegation ---------------------------------------

  /** The hook context for an agent's turn; `deliver` marks its messages as handed over. */
  contextFor(name: string, deliver: boolean): string {
    const pending = deliver ? this.deliver(name) : this.pending(name);
    return buildContext({ me: name, agents: this.live(), claims: this.claims(), predictions: this.preds.active, pending, now: this.now(), label: this.label });
  }

  handoff(from: string, to: string, send = true): (Handoff & { message: Message | null }) | null {
    const a = this.agents.get(from);
    if (!a) return null;
    const msgs = this.messages.filter((m) => m.from === from || (m.target.kind === 'agent' && m.target.name === from));
    const h = buildHandoff({ agent: a, to, claims: this.claims(), predictions: this.preds.active, messages: msgs, now: this.now(), label: this.label });
    const message = send ? this.message({ from, target: { kind: 'agent', name: to }, type: 'handoff', priority: 'high', text: h.text }) : null;
    return { ...h, message };
  }

  delegate(task: string, max = 3): { topics: string[]; suggestions: Suggestion[] } {
    const topics = extractTopics(task, this.vocab);
    return { topics, suggestions: suggest(topics, this.live(), (a) => this.isIdle(a), this.idx, this.label, max) };
  }
}
