// One AgentService per server: the accounts on disk, each agent's live runtime
// (panes, hook sessions, state, last prompt, extras from awareness), and the one
// place state changes are published — as agent/* events and as pane attrs.
import path from 'node:path';
import { atPrompt, type AgentInfo, type AgentState } from '../../kits/protocol/agent';
import { configDir, runtimeDir } from '../../kits/node/paths';
import type { Pane } from '../../kits/protocol/model';
import type { PaneIdentity } from '../model/lifecycle';
import { attrsRemoval, setAttrs } from '../model/paneOps';
import type { PaneServer } from '../paneServer';
import type { ConfigService } from '../config/configService';
import { findApp } from '../config/appFiles';
import type { Namespace } from '../namespace/namespace';
import type { HookEndpoint } from '../transport/hookListener';
import { NOTHING, parseAccessText, type ParsedAccess } from './access';
import { checkPane } from './accessCheck';
import { AccountStore, AGENT_HOME, MAX_ACCOUNT_FILE_BYTES } from './accounts';
import { LAST_PROMPT_KEPT } from './limits';
import { lstatBelow, PathRefused } from '../../kits/node/safeFile';
import { NO_DOORS, type AgentDoors } from './doors';
import type { HookContributor } from './hookAnswer';
import { unreadCount } from './mailbox';
import { typeAndSubmit } from '../model/input';
import { PromptLibrary } from './prompts';
import { paneEntry } from './programs';
import { SandboxHelper } from './sandboxHelper';
import { UNIX_SOCKETS_ALLOWED } from '../../kits/node/sandboxSockets';
import { foldStates, type Transition } from './status';
import { PERSON, principalLabel } from '../../kits/protocol/principal';

/** A refused file is logged at most this often (finger, the tag and listings read the same files many times a minute). */
const REFUSAL_LOG_EVERY_MS = 60_000;
/** Refused files remembered for that; past it the memory starts over (a flood of planted names cannot grow the server). */
const MAX_REFUSALS_REMEMBERED = 1024;

/** Output quiet this long before queued mail is typed at an agent's prompt (flushTyped): its prompt is drawn by then. */
export const TYPE_WHEN_QUIET_MS = 400;
/** Most that mail waits for the quiet: a CLI whose screen never stills (a clock, a spinner left on) still gets it. */
export const TYPE_QUIET_MAX_WAIT_MS = 5_000;

export interface PaneRuntime {
  agent: string;
  pane: number;
  state: AgentState;
  since: number;
  /** True once a hook came from this pane: then hooks alone move its state. */
  cooperative: boolean;
  /** Where its state came from (finger shows "needs you (observed)"). */
  stateSource?: 'reported' | 'observed';
  lastOutputAt: number;
  timer: NodeJS.Timeout | undefined;
  prompts: string | null;
  worktree: { path: string; branch: string; repo: string } | null;
  /** An ordinary pane in which an agent CLI was started by hand (known from its hooks). */
  adopted?: boolean;
  /** A question on its screen (login, trust, API key…) made it "needs you": the state it had before, given back when the question goes. */
  question?: { before: AgentState; source: 'reported' | 'observed' | undefined } | undefined;
  /** It has worked a turn: a prompt reported through hooks, or work seen after it sat at its prompt. Before that, its prompt is "ready", not "done". */
  hadTurn?: boolean;
}

export interface SessionRuntime {
  id: string;
  cwd: string;
  state: AgentState;
  since: number;
  pane: number | null;
}

/**
 * How long an agent with no account (one-off: `pane agent run NAME -- PROGRAM`, or
 * known only from hooks) stays in `agent ls` and finger once everything of it has
 * exited: long enough to see it end and read why, not forever (issue 34). `pane
 * finger NAME` still answers while its pane is open.
 */
export const ONE_OFF_LINGER_MS = 10 * 60_000;

/** Whether an agent without an account is listed: something of it runs, or ended less than ONE_OFF_LINGER_MS ago. */
export function oneOffListed(sessions: Iterable<Pick<SessionRuntime, 'state' | 'since'>>, panes: readonly Pick<PaneRuntime, 'state' | 'since'>[], now: number): boolean {
  const shown = (x: { state: AgentState; since: number }) => x.state !== 'exited' || now - x.since < ONE_OFF_LINGER_MS;
  for (const x of sessions) if (shown(x)) return true;
  return panes.some(shown);
}

/** An agent's last prompt, as a hook or `pane awareness prompt` reports it: cut to LAST_PROMPT_KEPT. */
export function setLastPrompt(r: Pick<AgentRuntime, 'lastPrompt' | 'lastPromptAt'>, text: string, at: number): void {
  r.lastPrompt = text.slice(0, LAST_PROMPT_KEPT);
  r.lastPromptAt = at;
}

export interface AgentRuntime {
  name: string;
  sessions: Map<string, SessionRuntime>;
  lastPrompt: string | null;
  lastPromptAt: number | null;
  topics: string[];
  claims: string[];
  /** Mail to type into its pane as soon as it waits (`pane mail --deliver`), with the agent that sent it (null: the human). */
  typeWhenWaiting: { line: string; from: string | null }[];
  state: AgentState;
  since: number;
  /** The app a hook-only agent's hooks speak for (`pane hook --app gemini`), where it has no .app. */
  app?: string;
}

export interface AgentServiceOptions {
  dataDir: string;
  /** Where users drop extra prompt-pattern files (default: <config dir>/agents/prompts; null for none). */
  promptsDir?: string | null;
  /** The `pane` entry the PATH shims run (default: dist/pane.cjs beside the code). */
  paneBin?: string;
}

/**
 * What recheck.ts touches of a connected client (a ClientConn has it): who it is, the
 * panes it has attached and the id its PTY streams are sent to. agents/ knows no connection.
 */
export interface AgentClient {
  readonly id: string;
  readonly name: string;
  readonly user: string;
  readonly attached: Set<number>;
  readonly sink: { readonly id: string };
}

/**
 * What the agent service uses of the rest of the server: the state owner, the
 * namespace (recheck closes handles a changed .access no longer grants), and, asked at
 * each use because they are set or started later, the config (apps and their hooks),
 * the hook endpoint, the persistence dir (the sandbox keeps it unwritable) and the
 * connected clients (recheck walks them).
 */
export interface AgentDeps {
  server: PaneServer;
  namespace: Namespace;
  config: () => ConfigService;
  hooks: () => HookEndpoint | undefined;
  persistDir: () => string | undefined;
  clients: () => Iterable<AgentClient>;
}

/** How long info() takes an agent's account files as read (accountFilesOf). */
export const ACCOUNT_FILES_TTL_MS = 1000;
/**
 * Past the TTL and younger than this, info() answers with the files as last read and has
 * them read again in the background (refreshAccountFiles); older (nobody listed the agent
 * for a while: `pane finger` after a quiet spell), it reads them at once. A board of 100
 * agents lists them all on every change: read all at once when the TTL ran out together,
 * that was one ~40 ms read of /agents a second (~0.4 ms an agent here), the board's slow
 * refreshes (issue 37: event → frame p99 60-68 ms against its 50 ms aim).
 */
export const ACCOUNT_FILES_STALE_MS = 3 * ACCOUNT_FILES_TTL_MS;
/** Agents whose files one background turn reads: ~3 ms, what a key's echo may wait for it. */
export const ACCOUNT_REFRESH_BATCH = 8;
/** Agents whose account files are kept at once: past it the memory starts over (a listing reads them again). */
const MAX_ACCOUNT_FILES_KEPT = 4096;

interface AccountFiles {
  at: number;
  home: string | null;
  app: string | null;
  project: string | null;
  plan: string;
  unread: number;
}

export class AgentService {
  readonly store: AccountStore;
  readonly prompts: PromptLibrary;
  readonly runtimes = new Map<string, AgentRuntime>();
  readonly panes = new Map<number, PaneRuntime>();
  readonly contributors: HookContributor[] = [];
  /** Each agent's own pane and hook sockets, opened by the transport side (transport/agentSocket.ts's openAgentDoors). */
  doors: AgentDoors = NO_DOORS;
  /** Hook session id → agent, so later hooks of a session find the same agent. */
  readonly hookSessions = new Map<string, string>();
  /**
   * The server's record of whose identity a pane's programs carry (its PANE_TOKEN):
   * set when the pane is made, by who made it and what it asked for; never read from
   * free-form attrs or a signature a client may set later. `agentPane` marks the
   * agent's own (agent-kind) panes, whose state the observer follows.
   */
  readonly identity = new Map<number, PaneIdentity>();
  private accessCache = new Map<string, { mtime: number; checkedAt: number; parsed: ParsedAccess }>();
  /** What info() last read of each agent's home (accountFilesOf). */
  private accountFiles = new Map<string, AccountFiles>();
  /** Agents whose files info() answered stale, to be read again in the background (refreshAccountFiles), and its pending turn. */
  private staleAccounts = new Set<string>();
  private accountRefresh: NodeJS.Immediate | null = null;
  /** When each refused file was last logged: finger and the tag read the same files often, one line a minute is enough. */
  private refusedAt = new Map<string, number>();

  readonly server: PaneServer;
  /** The daemon's sandbox helpers (sandboxHelper.ts), each made at its first use: one whose walls refuse unix sockets, one whose allow them. */
  private sandboxd = new Map<boolean, SandboxHelper>();

  constructor(
    readonly deps: AgentDeps,
    readonly options: AgentServiceOptions,
  ) {
    this.server = deps.server;
    this.store = new AccountStore(options.dataDir);
    this.store.onRefused = (name, e) => this.refused(name, e);
    this.prompts = new PromptLibrary(options.promptsDir === undefined ? path.join(configDir(), 'agents', 'prompts') : options.promptsDir);
  }

  /**
   * The daemon's sandbox helper whose walls let programs make unix sockets or not (`sockets`: the
   * runtime holds that for every wrap of a helper), started unless it runs; null where pane's own
   * program (dist/pane.cjs) is not found to run it.
   */
  sandboxHelper(sockets = UNIX_SOCKETS_ALLOWED): SandboxHelper | null {
    let h = this.sandboxd.get(sockets);
    if (h === undefined) {
      const entry = paneEntry(this);
      if (!entry) return null;
      h = new SandboxHelper(entry, runtimeDir(false), { ...process.env, ...this.server.env }, (line) => process.stderr.write(`pane: ${line}\n`), sockets);
      this.sandboxd.set(sockets, h);
    }
    h.ensure();
    return h;
  }

  /** Ends the sandbox helper and the account files' background reads (the daemon stops). */
  async stop(): Promise<void> {
    if (this.accountRefresh) clearImmediate(this.accountRefresh);
    this.accountRefresh = null;
    this.staleAccounts.clear();
    await Promise.all([...this.sandboxd.values()].map((h) => h.stop()));
  }

  /** The human's name as agents see it (messages "from" the human carry it). */
  get human(): string {
    return this.server.user;
  }

  runtime(name: string): AgentRuntime {
    let r = this.runtimes.get(name);
    if (!r) {
      r = { name, sessions: new Map(), lastPrompt: null, lastPromptAt: null, topics: [], claims: [], typeWhenWaiting: [], state: 'idle', since: Date.now() };
      this.runtimes.set(name, r);
    }
    return r;
  }

  /** Listed agents: accounts, plus one-off and hook-only agents while something of theirs runs or lately ended (oneOffListed). */
  names(): string[] {
    const all = new Set(this.store.list());
    const now = Date.now();
    for (const [n, r] of this.runtimes) if (oneOffListed(r.sessions.values(), this.panesOf(n), now)) all.add(n);
    return [...all].sort();
  }

  known(name: string): boolean {
    const r = this.runtimes.get(name);
    return this.store.exists(name) || (r !== undefined && (r.sessions.size > 0 || this.panesOf(name).length > 0));
  }

  panesOf(name: string): PaneRuntime[] {
    return [...this.panes.values()].filter((p) => p.agent === name);
  }

  /**
   * A file in the agent's home or project that pane would not open (a link, a FIFO,
   * too big): a line in the agent's log and in /pane/log (as an agent/denied event),
   * at most once a minute per file.
   */
  refused(name: string, e: PathRefused, door = 'file'): void {
    const now = Date.now();
    if (now - (this.refusedAt.get(e.file) ?? -Infinity) < REFUSAL_LOG_EVERY_MS) return;
    if (this.refusedAt.size >= MAX_REFUSALS_REMEMBERED) this.refusedAt.clear();
    this.refusedAt.set(e.file, now);
    this.store.log(name, e.message);
    this.server.publish('agent/denied', { name, method: door, reason: e.message, at: now });
  }

  /** The .access in force, re-read when the file changes (checked at most every 500 ms). */
  access(name: string): ParsedAccess {
    const file = path.join(this.store.home(name), '.access');
    const now = Date.now();
    const cached = this.accessCache.get(name);
    if (cached && now - cached.checkedAt < 500) return cached.parsed;
    let mtime = -1;
    try {
      // A link, FIFO or anything but a regular file is not an .access: the account gets none of its rights.
      const st = lstatBelow(this.store.root, `${name}/.access`, { where: AGENT_HOME });
      if (st) mtime = st.isFile() ? st.mtimeMs : -2;
    } catch {
      mtime = -2;
    }
    if (cached && cached.mtime === mtime) {
      cached.checkedAt = now;
      return cached.parsed;
    }
    let parsed: ParsedAccess;
    if (!this.store.exists(name)) parsed = { access: NOTHING, errors: [`${name} has no account`] };
    else if (mtime === -1) parsed = parseAccessText('');
    else {
      let text: string | null = null;
      let why = '';
      try {
        text = this.store.readChecked(name, '.access', MAX_ACCOUNT_FILE_BYTES);
      } catch (e) {
        if (!(e instanceof PathRefused)) throw e;
        this.refused(name, e);
        why = e.message;
      }
      if (text === null && !why) why = `refused ${file}: it is not a regular file`;
      parsed = text === null ? { access: NOTHING, errors: [why] } : parseAccessText(text);
    }
    this.accessCache.set(name, { mtime, checkedAt: now, parsed });
    return parsed;
  }

  /** Where a pane sits in its session's window, for "ada (top-left)": the server's own placement (server/model/relayout.ts). */
  quadrant(p: Pane): string | null {
    return p.attrs.quadrant ?? null;
  }

  info(name: string): AgentInfo {
    const account = this.store.exists(name);
    const r = this.runtime(name);
    const panes = this.panesOf(name).flatMap((pr) => {
      const p = this.server.panes.get(pr.pane);
      if (!p) return [];
      return [{ pane: p.n, id: this.server.address(p.n), quadrant: this.quadrant(p), state: pr.state, since: pr.since, cwd: p.cwd, worktree: pr.worktree?.path ?? null, ...(pr.stateSource ? { stateSource: pr.stateSource } : {}) }];
    });
    const sessions = [...r.sessions.values()].filter((s) => s.pane === null).map((s) => ({ id: s.id, cwd: s.cwd, state: s.state, since: s.since }));
    const home = account ? this.store.home(name) : null;
    const files = this.accountFilesOf(name, home);
    const line = (f: '.project' | '.app') => (f === '.app' ? files.app : files.project);
    const sessionCwd = sessions[0]?.cwd ?? null;
    // An agent run with --app or --cwd and no account default: what its running pane says.
    const first = panes[0] ? this.server.panes.get(panes[0].pane) : undefined;
    const app = line('.app') ?? first?.attrs.app ?? r.app ?? null;
    return {
      name,
      account,
      home,
      app,
      project: line('.project') ?? first?.launch?.cwd ?? first?.cwd ?? sessionCwd,
      state: r.state,
      since: r.since,
      source: this.sourceOf(name, sessions.length > 0),
      reports: this.reportsOf(app),
      panes,
      sessions,
      lastPrompt: r.lastPrompt,
      lastPromptAt: r.lastPromptAt,
      topics: r.topics,
      claims: r.claims,
      unread: files.unread,
      plan: files.plan,
    };
  }

  /**
   * What info() reads from an agent's home — .app, .project, .plan and the Maildir's
   * unread count — kept ACCOUNT_FILES_TTL_MS: a board of 100 agents lists them all on
   * every change, and each read walks the home without following links (~1 ms an agent
   * here). Whatever pane changes itself (changed()) is read again at once; a file an
   * agent edits in its own home shows within the TTL.
   */
  private accountFilesOf(name: string, home: string | null): AccountFiles {
    const now = Date.now();
    const kept = this.accountFiles.get(name);
    if (kept && kept.home === home) {
      const age = now - kept.at;
      if (age < ACCOUNT_FILES_TTL_MS) return kept;
      // An agent with no account (a hook-only one) has no files: nothing to put off.
      if (age < ACCOUNT_FILES_STALE_MS && home !== null) {
        this.refreshLater(name);
        return kept;
      }
    }
    return this.readAccountFiles(name, home, now);
  }

  /** Reads an agent's account files now and keeps them (accountFilesOf). */
  private readAccountFiles(name: string, home: string | null, now: number): AccountFiles {
    const line = (f: '.project' | '.app') => (home !== null ? this.store.read(name, f).trim() || null : null);
    const files: AccountFiles = {
      at: now,
      home,
      app: line('.app'),
      project: line('.project'),
      plan: home !== null ? this.store.read(name, '.plan') : '',
      unread: home !== null ? unreadCount(path.join(home, 'Maildir'), { refused: (e) => this.refused(name, e) }) : 0,
    };
    if (this.accountFiles.size >= MAX_ACCOUNT_FILES_KEPT) this.accountFiles.clear();
    this.accountFiles.set(name, files);
    return files;
  }

  /** Has `name`'s account files read again soon, ACCOUNT_REFRESH_BATCH agents a turn. */
  private refreshLater(name: string): void {
    this.staleAccounts.add(name);
    this.accountRefresh ??= setImmediate(() => this.refreshAccountFiles());
  }

  /**
   * Reads the next ACCOUNT_REFRESH_BATCH stale agents' files; an agent whose files read
   * differently is published changed (agent/changed: a board re-reads). More wait for
   * the next turn.
   */
  private refreshAccountFiles(): void {
    this.accountRefresh = null;
    const batch = [...this.staleAccounts].slice(0, ACCOUNT_REFRESH_BATCH);
    for (const name of batch) {
      this.staleAccounts.delete(name);
      const kept = this.accountFiles.get(name);
      // Gone, read meanwhile (a listing after ACCOUNT_FILES_STALE_MS, changed()), or another home now: nothing to refresh.
      if (!kept || Date.now() - kept.at < ACCOUNT_FILES_TTL_MS || !this.store.exists(name) || this.store.home(name) !== kept.home) continue;
      const fresh = this.readAccountFiles(name, kept.home, Date.now());
      if (fresh.app !== kept.app || fresh.project !== kept.project || fresh.plan !== kept.plan || fresh.unread !== kept.unread) this.publishChanged(name);
    }
    if (this.staleAccounts.size > 0) this.accountRefresh = setImmediate(() => this.refreshAccountFiles());
  }

  /** Its app's hook dialect, and whether its CLI takes pane's context in its hooks' answers (finger says when not). */
  private reportsOf(app: string | null): AgentInfo['reports'] {
    if (app === null) return null;
    let hooks: unknown;
    try {
      hooks = findApp(this.deps.config().apps, app)?.agent?.hooks;
    } catch {
      return null;
    }
    if (hooks === 'claude-settings') return { dialect: 'claude', context: true };
    if (hooks === null || typeof hooks !== 'object') return null;
    const d = hooks as { dialect: string; context: unknown[] };
    return { dialect: d.dialect, context: d.context.length > 0 };
  }

  /** hooks once anything of it reported a hook; observed while only its panes' output tells; none before either. */
  private sourceOf(name: string, hookOnlySessions: boolean): AgentInfo['source'] {
    const panes = this.panesOf(name);
    if (hookOnlySessions || panes.some((p) => p.cooperative)) return 'hooks';
    return panes.length > 0 ? 'observed' : 'none';
  }

  list(): AgentInfo[] {
    return this.names().map((n) => this.info(n));
  }

  /**
   * Moves one pane's (or hook session's) state and refolds the agent's badge.
   * Publishes agent/state-changed and, when the agent starts waiting, agent/waiting.
   */
  transition(name: string, where: { pane?: number | null; session?: string | null }, t: Transition, now = Date.now()): void {
    const r = this.runtime(name);
    let changedPart = false;
    if (where.pane != null) {
      const pr = this.panes.get(where.pane);
      const source = t.source ?? (pr?.cooperative ? 'reported' : 'observed');
      // A turn: a prompt or a finished turn its hooks reported, or work seen after it sat at its prompt.
      if (pr && ((source === 'reported' && (t.state === 'working' || t.state === 'done')) || (t.state === 'working' && atPrompt(pr.state)))) pr.hadTurn = true;
      // Its prompt seen on screen before any turn is "ready": "done" would say it finished something.
      if (pr && t.state === 'done' && !pr.hadTurn) t = { ...t, state: 'ready' };
      if (pr && (pr.state !== t.state || pr.stateSource !== source)) {
        if (pr.state !== t.state) pr.since = now;
        pr.state = t.state;
        pr.stateSource = source;
        changedPart = true;
      }
    } else if (where.session) {
      const s = r.sessions.get(where.session);
      if (s && s.state !== t.state) {
        s.state = t.state;
        s.since = now;
        changedPart = true;
      }
    }
    const parts = [...this.panesOf(name).map((p) => ({ state: p.state, since: p.since })), ...[...r.sessions.values()].filter((s) => s.pane === null)];
    const folded = foldStates(parts) ?? { state: t.state, since: now };
    const previous = r.state;
    if (folded.state !== previous) {
      r.state = folded.state;
      r.since = now;
      const pane = where.pane ?? null;
      this.server.publish('agent/state-changed', { name, state: r.state, previous, since: r.since, pane, reason: t.reason });
      if (r.state === 'waiting') {
        const p = pane ?? this.panesOf(name)[0]?.pane ?? null;
        this.server.publish('agent/waiting', { name, pane: p, id: p === null ? null : this.server.address(p), message: `${name} ${t.notify ?? 'waits for you'}` });
      }
      // Mail is typed at its prompt (done or ready), never into a question it asks the person (waiting).
      if (atPrompt(r.state)) this.flushTyped(name);
    }
    if (changedPart || folded.state !== previous) this.changed(name);
  }

  /** An agent's account files changed behind info()'s back (a mail copied in): the next listing reads them. */
  accountFilesChanged(name: string): void {
    this.accountFiles.delete(name);
  }

  /** Re-publishes what finger shows about an agent, its account files read again, and mirrors it into its panes' attrs (once its hook is handled, while one holds it). */
  changed(name: string): void {
    this.accountFiles.delete(name);
    if (this.held.has(name)) this.unpublished.add(name);
    else this.publishChanged(name);
  }

  /** Hooks being handled per agent: their changes wait for releaseChanges, to go out as one agent/changed. */
  private readonly held = new Map<string, number>();

  /** Holds the agent's agent/changed while one of its hooks is handled (nested holds count). */
  holdChanges(name: string): void {
    this.held.set(name, (this.held.get(name) ?? 0) + 1);
  }

  /** Ends a hold: the last one publishes what changed meanwhile, once. */
  releaseChanges(name: string): void {
    const n = (this.held.get(name) ?? 1) - 1;
    if (n > 0) return void this.held.set(name, n);
    this.held.delete(name);
    if (this.unpublished.has(name) && this.runtimes.has(name)) this.publishChanged(name);
  }

  /** Publishes agent/changed with the agent as info() now tells it, and mirrors that into its panes' attrs. */
  private publishChanged(name: string): void {
    this.unpublished.delete(name);
    const info = this.info(name);
    this.server.publish('agent/changed', { agent: info });
    for (const p of info.panes) {
      const pane = this.server.panes.get(p.pane);
      if (!pane) continue;
      const want: Record<string, string> = {
        agent: name,
        'agent.state': p.state,
        'agent.since': String(p.since),
        'agent.unread': String(info.unread),
        'agent.topics': info.topics.join(','),
        'agent.source': info.source,
        ...(p.stateSource ? { 'agent.state-source': p.stateSource } : {}),
        ...(p.worktree ? { 'agent.worktree': p.worktree } : {}),
      };
      setAttrs(this.server, pane, want);
    }
  }

  /**
   * A prompt the agent's words were recorded with other than by its hooks (`pane awareness
   * prompt`, awareness/prompt): its last prompt in finger and on the board, as a
   * UserPromptSubmit hook sets it. Its home is not read again for it.
   *
   * `record` is awareness's own record of the prompt, run with the prompt already set and
   * the agent's changes held, as a hook holds them: the topics it moves reach setExtras
   * in the microtask its presenter gathers them in, and the hold is released in one queued
   * after that, so one agent/changed carries both (or only the prompt). A prompt recorded
   * while one of the agent's hooks is being handled is published with that hook's change.
   * A record that throws leaves the last prompt as it was.
   */
  notePrompt<T>(name: string, text: string, record: () => T): T {
    const r = this.runtime(name);
    const was = { lastPrompt: r.lastPrompt, lastPromptAt: r.lastPromptAt, unpublished: this.unpublished.has(name) };
    setLastPrompt(r, text, Date.now());
    this.holdChanges(name);
    this.unpublished.add(name);
    let out: T;
    try {
      out = record();
    } catch (e) {
      r.lastPrompt = was.lastPrompt;
      r.lastPromptAt = was.lastPromptAt;
      if (!was.unpublished) this.unpublished.delete(name);
      this.releaseChanges(name);
      throw e;
    }
    queueMicrotask(() => this.releaseChanges(name));
    return out;
  }

  /** Agents changed while held, that no agent/changed has carried yet (releaseChanges publishes them once). */
  private readonly unpublished = new Set<string>();

  /** Awareness (issue 6) sets topics and claims here; finger and the tags show them. */
  setExtras(name: string, extras: { topics?: string[]; claims?: string[] }): void {
    const r = this.runtime(name);
    if (extras.topics) r.topics = extras.topics;
    if (extras.claims) r.claims = extras.claims;
    this.changed(name);
  }

  /** Adds a hook contributor (see hookAnswer.ts); returns its removal. */
  addHookContributor(c: HookContributor): () => void {
    return addTo(this.contributors, c);
  }

  /** Listens for mail read that copies awareness messages; returns the removal. */
  onCopiesRead(f: (name: string, refs: string[]) => void): () => void {
    return addTo(this.copiesRead, f);
  }

  /** Told when an agent reads mail that copies awareness messages (their ids), so those count as handed over. */
  readonly copiesRead: ((name: string, refs: string[]) => void)[] = [];

  /** The live pane a human's words should reach: the waiting one first, then any running one. */
  inputPane(name: string): Pane | undefined {
    const live = this.panesOf(name)
      .map((pr) => ({ pr, p: this.server.panes.get(pr.pane) }))
      .filter((x): x is { pr: PaneRuntime; p: Pane } => x.p !== undefined && x.p.state === 'running');
    return (live.find((x) => atPrompt(x.pr.state)) ?? live[0])?.p;
  }

  /** Types `text` into `p` as `by` (principalLabel of whoever wrote it). */
  typeInto(p: Pane, text: string, by: string): void {
    const t = this.server.terminals.get(p.n);
    if (!t?.running) return;
    // Text first, then Enter on its own once the program has taken it (model/input.ts): TUIs that treat a fast paste+CR as a newline still submit.
    typeAndSubmit(this.server, p, by, typable(text)).catch(() => {
      /* busy: the program stopped reading its input (MAX_INPUT_QUEUE); the text waits there */
    });
  }

  /**
   * Types the next queued mail into the agent's pane at its prompt, once the pane's output
   * has been quiet TYPE_WHEN_QUIET_MS: a CLI reports SessionStart (and Stop) before it has
   * drawn its prompt, and keys typed into a screen still being drawn landed amid its output
   * (or, in a TUI not yet listening, were lost).
   */
  flushTyped(name: string, waitedMs = 0): void {
    const r = this.runtime(name);
    const p = this.inputPane(name);
    if (!p || r.typeWhenWaiting.length === 0) return;
    const pr = this.panes.get(p.n);
    // Quiet since its last output, or since it started: a hook can come before its first byte.
    const quiet = Date.now() - Math.max(pr?.lastOutputAt ?? 0, p.createdAt);
    if (quiet < TYPE_WHEN_QUIET_MS && waitedMs < TYPE_QUIET_MAX_WAIT_MS) {
      const wait = TYPE_WHEN_QUIET_MS - quiet;
      setTimeout(() => {
        if (atPrompt(this.runtime(name).state)) this.flushTyped(name, waitedMs + wait);
      }, wait).unref();
      return;
    }
    const next = r.typeWhenWaiting.shift()!;
    // Queued mail is typed only if its sender may still write that pane (its .access may have changed).
    if (next.from !== null && !this.mayWrite(next.from, p)) return;
    this.typeInto(p, next.line, principalLabel(next.from === null ? PERSON : { kind: 'agent', name: next.from }));
  }

  /** Drops the agent's runtime and its panes' agent attrs (the panes themselves live on). */
  forget(name: string): void {
    this.runtimes.delete(name);
    this.unpublished.delete(name);
    this.accessCache.delete(name);
    this.server.publish('agent/removed', { name });
  }

  /** Treats an ordinary pane as the agent's while an agent CLI started in it reports hooks. */
  adoptPane(n: number, name: string): void {
    const p = this.server.panes.get(n);
    if (!p || this.panes.has(n)) return;
    this.panes.set(n, { agent: name, pane: n, state: 'idle', since: Date.now(), cooperative: true, lastOutputAt: 0, timer: undefined, prompts: null, worktree: null, adopted: true });
  }

  /** Ends an adoption (its session ended): the pane is an ordinary pane again, its agent attrs gone. */
  releasePane(n: number): void {
    const pr = this.panes.get(n);
    const p = this.server.panes.get(n);
    if (!pr?.adopted || !p) return;
    this.panes.delete(n);
    setAttrs(this.server, p, attrsRemoval(p, (k) => k === 'agent' || k.startsWith('agent.')));
    this.changed(pr.agent);
  }

  /** The agent whose own pane this is (agent-kind, by the server's record), if any. */
  isAgentPane(p: Pane): string | undefined {
    const id = this.identity.get(p.n);
    return id?.agentPane ? id.agent : undefined;
  }

  /** The agent whose identity (token) the pane's programs carry, if any. */
  identityOf(p: Pane): string | undefined {
    return this.identity.get(p.n)?.agent;
  }

  /** Whether `agent` counts pane `p` as its own (`self`): it made it, or the pane carries its identity. */
  owns(agent: string, p: Pane): boolean {
    return p.owner === agent || this.identity.get(p.n)?.agent === agent || this.panes.get(p.n)?.agent === agent;
  }

  /** The agent a connection's user is, or null for the human (or anyone without an account). */
  agentCaller(user: string | undefined): string | null {
    return user !== undefined && user !== this.human && this.store.exists(user) ? user : null;
  }

  /** Whether an agent's .access lets it write pane `p` (a refusal is logged and published as usual). */
  mayWrite(agent: string, p: Pane): boolean {
    try {
      checkPane(this, agent, 'agent/mail', p, 'write');
      return true;
    } catch {
      return false;
    }
  }
}

/** Text safe to type into a terminal: line ends become spaces, other control bytes (C0, DEL, C1, so no ESC sequences) go. */
export function typable(text: string): string {
  return text.replace(/\r\n|\r|\n|\t/g, ' ').replace(/[\x00-\x1f\x7f-\x9f]/g, '');
}

/** Adds `x` to a listener list; returns its removal. */
function addTo<T>(list: T[], x: T): () => void {
  list.push(x);
  return () => {
    const i = list.indexOf(x);
    if (i >= 0) list.splice(i, 1);
  };
}
