// The awareness engine: one object owning every agent's topics and trajectory,
// the message log, the claims, the predictions and the learned domains. Pure of
// I/O (time comes from a Clock, persistence and events go out through callbacks),
// so the server, the tests and the benchmark drive the very same code. Each part
// is kept by its own module (agentRegistry, messageBoard, claimBook, forecaster,
// domainBook); this file wires them together and runs what spans them: prompts,
// tool use and collisions, coordination, context, handoff and delegation.
import crypto from 'node:crypto';
import type { AgentAwareness, AgentView, Claim, Message, Outcome, Prediction, PredictionState, Resolution, ResourceKind } from '../../kits/protocol/awareness';
import { applyPrompt, applyTool, type Whereabouts } from './agentRecord';
import { AgentRegistry } from './agentRegistry';
import { ClaimBook, type ClaimInput } from './claimBook';
import type { ClaimOutcome } from './claims';
import { systemClock, type Clock } from './clock';
import { makeConfig, type AwarenessConfig } from './config';
import { buildContext } from './context';
import { suggest, type Suggestion } from './delegation';
import { DomainBook } from './domainBook';
import type { DomainMap } from './domains';
import type { AwarenessEvent, AwarenessOptions, AwarenessState, Part } from './engineTypes';
import { Forecaster } from './forecaster';
import { buildHandoff, type Handoff } from './handoff';
import { MessageBoard } from './messageBoard';
import type { NewMessage } from './messages';
import { emptyPredictions, type PassResult } from './predictions';
import { extractTopics, vocabOf, type Vocab } from './topics';

export type { AwarenessEvent, AwarenessOptions, AwarenessState, Part } from './engineTypes';
export type { ClaimInput } from './claimBook';
export { MAX_AGENTS } from './agentRegistry';

export class Awareness {
  readonly cfg: AwarenessConfig;
  private readonly clock: Clock;
  private readonly vocab: Vocab;
  private readonly o: AwarenessOptions;
  private readonly agents: AgentRegistry;
  private readonly board: MessageBoard;
  private readonly book: ClaimBook;
  private readonly domainBook: DomainBook;
  private readonly forecast: Forecaster;
  /** Recent writes per file, for collisions; memory only: a restart forgets minutes of history, nothing more. */
  private writes = new Map<string, { agent: string; at: number }[]>();

  constructor(o: AwarenessOptions = {}) {
    this.o = o;
    this.cfg = makeConfig(o.config);
    this.clock = o.clock ?? systemClock;
    this.vocab = vocabOf(this.cfg);
    const st = o.state;
    this.domainBook = new DomainBook(o.domains, st?.learned);
    this.agents = new AgentRegistry(st?.agents ?? [], {
      now: () => this.now(),
      staleAfterMs: this.cfg.staleAfterMs,
      idleAfterMs: this.cfg.idleAfterMs,
      externalStale: o.externalStale,
      externalIdle: o.externalIdle,
      externalState: o.externalState,
      shown: (agent) => this.emit({ kind: 'agent', agent }),
      changed: () => this.changed('registry'),
    });
    // Messages are saved with the agents, in the registry file.
    this.board = new MessageBoard(st?.messages ?? [], {
      now: () => this.now(),
      newId: () => this.id('msg'),
      maxMessages: this.cfg.maxMessages,
      who: (name) => this.agents.get(name) ?? { name, pane: null, quadrant: null },
      emit: (e) => this.emit(e),
      changed: () => this.changed('registry'),
    });
    this.book = new ClaimBook(st?.claims ?? { claims: [], log: [] }, {
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
    this.forecast = new Forecaster(st?.predictions ?? emptyPredictions(this.cfg.threshold), {
      now: () => this.now(),
      cfg: this.cfg,
      newId: () => this.id('prd'),
      label: this.label,
      live: () => this.live(),
      isLive: (n) => this.agents.has(n) && !this.isStale(n),
      coordinated: (a, b, since) => this.coordinated(a, b, since),
      idx: () => this.domainBook.idx,
      repoOf: (d) => o.repoOf?.(d) ?? null,
      emit: (e) => this.emit(e),
      changed: () => this.changed('predictions'),
    });
  }

  // ---- state ---------------------------------------------------------------

  state(): AwarenessState {
    return {
      agents: this.agents.records(),
      messages: this.board.log,
      claims: this.book.st,
      predictions: this.forecast.st,
      learned: this.domainBook.state(),
    };
  }

  setDomainMap = (map: DomainMap): void => this.domainBook.setMap(map);
  domains = (): { configured: DomainMap; learned: DomainMap } => this.domainBook.view();

  private now = (): number => this.clock.now();
  private id = (prefix: string): string => `${prefix}_${this.o.ids ? this.o.ids() : crypto.randomUUID().slice(0, 8)}`;
  private emit = (e: AwarenessEvent): void => this.o.onEvent?.(e);
  private changed = (...parts: Part[]): void => this.o.onChange?.(parts);

  // ---- agents (agentRegistry.ts) -------------------------------------------

  /** "ada (top-left)": how every line names an agent. */
  label = (name: string): string => this.agents.label(name);
  agent = (name: string): AgentAwareness | undefined => this.agents.get(name);
  isStale = (name: string): boolean => this.agents.isStale(name);
  isIdle = (a: AgentAwareness): boolean => this.agents.isIdle(a);
  /** Agents not stale, by name. */
  live = (): AgentAwareness[] => this.agents.live();
  /** An agent as the protocol shows it: with its label and whether it is stale or idle. */
  view = (a: AgentAwareness): AgentView => this.agents.view(a);
  all = (): AgentAwareness[] => this.agents.all();
  /** The agent is here (a session started, a pane moved): no prompt, no topics. */
  see = (name: string, w: Whereabouts = {}): AgentAwareness => this.agents.see(name, w);
  /** Where an agent is (pane, quadrant, cwd) changed, without activity. */
  locate = (name: string, w: Whereabouts): void => this.agents.locate(name, w);

  /** A prompt: topics, trajectory, learning, then a convergence pass. */
  prompt(name: string, text: string, w: Whereabouts = {}): { agent: AgentAwareness; topics: string[]; pass: PassResult } {
    const a = this.agents.ensure(name, w);
    const topics = applyPrompt(a, text, this.now(), this.cfg, this.vocab);
    for (const g of this.domainBook.observe(topics, this.cfg.learnAfter)) this.emit({ kind: 'learned', ...g });
    this.changed('registry', 'learned');
    this.emit({ kind: 'agent', agent: a });
    return { agent: a, topics, pass: this.pass() };
  }

  /**
   * Tool use (files touched; `write` for edits): joins the trajectory, and a write
   * to a file another agent wrote lately, or holds a claim on, is a collision.
   */
  tool(name: string, t: { files: readonly string[]; write: boolean }, w: Whereabouts = {}): { collisions: string[]; claimed: Claim[] } {
    const a = this.agents.ensure(name, w);
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
      for (const other of collisions) this.forecast.collision(name, other, t.files[0] ?? '');
    }
    if (moved) {
      this.emit({ kind: 'agent', agent: a });
      this.pass();
    }
    return { collisions: [...collisions], claimed };
  }

  /** A joined host's agents as NAME@HOST (checked and bounded by the caller), then a pass when they changed: convergence across hosts. */
  mirror(host: string, records: readonly AgentAwareness[]): PassResult {
    // An unchanged answer changes no profile: no pass (a pass on every poll only rewrote the same predictions).
    if (!this.agents.mirror(host, records)) return { created: [], resolved: [], calibrations: [] };
    return this.pass();
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

  // ---- convergence (forecaster.ts) -----------------------------------------

  /** A message between the two, or a claim made by either, since `since`. */
  private coordinated(a: string, b: string, since: number): boolean {
    const A = this.agents.get(a);
    const B = this.agents.get(b);
    if (A && B && this.board.exchangedSince(A, B, since)) return true;
    return this.book.claimedSince([a, b], since);
  }

  /** One convergence pass over every live agent. */
  pass(): PassResult {
    this.agents.prune();
    return this.forecast.pass();
  }

  predictions = (): Prediction[] => this.forecast.st.active;
  predictionState = (): PredictionState => this.forecast.st;
  resolve = (id: string, outcome: Outcome): Resolution | null => this.forecast.resolve(id, outcome);

  // ---- claims (claimBook.ts) ----------------------------------------------

  resolvePath = (holder: string, p: string, kind?: ResourceKind, cwd?: string) => this.book.resolve(holder, p, kind, cwd);
  claim = (c: ClaimInput): ClaimOutcome => this.book.claim(c);
  release = (by: string, p: string, o: { kind?: ResourceKind; cwd?: string; force?: boolean } = {}): Claim[] => this.book.release(by, p, o);
  /** Live claims (cleaning first, as every listing does). */
  claims = (): Claim[] => this.book.list();
  /** The claims as they stand, without cleaning (for views reacting to a change just made). */
  peekClaims = (): readonly Claim[] => this.book.st.claims;
  claimLog = () => this.book.log();
  /** When a TTL lapses or a contest times out next (null: nothing pending), so a timer can clean up on time. */
  claimDeadline = (): number | null => this.book.nextDeadline();
  /** Claims by others covering a file `asker` is about to write. */
  claimsOn = (file: string, asker: string): Claim[] => this.book.on(file, asker);

  // ---- messages (messageBoard.ts) ------------------------------------------

  message = (m: NewMessage): Message => {
    const msg = this.board.post(m);
    // A holder answering its contester keeps its claim: they talk instead of waiting out the timeout.
    if (m.target.kind === 'agent') this.book.answer(m.from, m.target.name);
    return msg;
  };
  messageLog = (): readonly Message[] => this.board.log;
  /** Messages waiting for an agent (known or not yet seen). */
  pending = (name: string): Message[] => this.board.pending(name);
  /** Hands the pending messages over and marks them delivered. */
  deliver = (name: string): Message[] => this.board.deliver(name);
  /** The agent saw these messages elsewhere (it read their mail copies): they are handed over. */
  acknowledge = (name: string, ids: readonly string[]): Message[] => this.board.acknowledge(name, ids);

  // ---- context, handoff, delegation ---------------------------------------

  /** The hook context for an agent's turn; `deliver` marks its messages as handed over. */
  contextFor(name: string, deliver: boolean): string {
    const pending = deliver ? this.deliver(name) : this.pending(name);
    return buildContext({ me: name, agents: this.live(), claims: this.claims(), predictions: this.predictions(), pending, now: this.now(), label: this.label });
  }

  handoff(from: string, to: string, send = true): (Handoff & { message: Message | null }) | null {
    const a = this.agents.get(from);
    if (!a) return null;
    const h = buildHandoff({ agent: a, to, claims: this.claims(), predictions: this.predictions(), messages: this.board.involving(from), now: this.now(), label: this.label });
    const message = send ? this.message({ from, target: { kind: 'agent', name: to }, type: 'handoff', priority: 'high', text: h.text }) : null;
    return { ...h, message };
  }

  delegate(task: string, max = 3): { topics: string[]; suggestions: Suggestion[] } {
    const topics = extractTopics(task, this.vocab);
    return { topics, suggestions: suggest(topics, this.live(), (a) => this.isIdle(a), this.domainBook.idx, this.label, max) };
  }
}
