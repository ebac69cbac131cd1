// The plumber: reads the rule files (the person's, the project's .pane/plumbing
// nearest the message's wdir, the shipped ones; each read again when it changes),
// keeps the ports (files under /pane/plumb/ that readers block on), and does what
// the rule that fires names — as the caller: a program it starts, an editor pane
// it opens or types into, goes through the dispatcher with the caller's context,
// so an agent's .access, a grant and the sandbox apply as to its own requests.
import { bodyOf } from '../model/bodies/registry';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { PlumbError, PlumbOutcome } from '../../kits/protocol/plumb';
import type { Pane } from '../../kits/protocol/model';
import { principalLabel } from '../../kits/protocol/principal';
import { PaneFault } from '../../kits/protocol/error';
import { agentSees } from '../agents/sandbox';
import { hasControls } from '../../kits/protocol/shown';
import type { HandlerContext } from '../handlers/types';
import { Feed, type FeedReader } from '../namespace/feed';
import type { PaneServer } from '../paneServer';
import { argvOf, firstMatch, type Checks, type Fired, type Message } from './engine';
import { confineProject, MAX_RULE_FILE_BYTES, parseRules, startKey, type Parsed, type Rule } from './rules';
import { SHIPPED_FILE, SHIPPED_RULES } from './shipped';

/** How long a message waits on a port nobody reads: long enough to start a reader after the click, short enough not to surprise later. */
export const PORT_HOLD_MS = 120_000;
/** Messages a port holds for a reader to come: the newest are kept. */
export const MAX_HELD_PER_PORT = 16;
/** Recent messages a port's file shows to a plain read (cat), as /pane/log does. */
const PORT_FEED_KEEP = 64 * 1024;
/**
 * The same text firing the same rule this often within SAME_WINDOW_MS is a rule that
 * plumbs to itself (a reader sending back what it reads): stopped. A person clicking
 * one error again and again stays far below it; a loop, however slow each turn, passes it.
 */
export const MAX_SAME_FIRINGS = 8;
export const SAME_WINDOW_MS = 10_000;
/** A `git rev-parse` asking whether a hash is a commit: a slow repository does not hold up a click for long. */
export const REV_CHECK_MS = 2_000;
/** How far up from wdir to look for a project's .pane/plumbing. */
const MAX_PROJECT_DEPTH = 32;
/** Programs whose panes take `:e +LINE FILE` (the editor pane reused for the next click). */
const VIM_LIKE = new Set(['vim', 'nvim', 'vi', 'vim.basic', 'vim.tiny', 'view', 'gvim']);

/** The facts rules ask, from the filesystem and git (bounded: a slow repository answers "no" after REV_CHECK_MS). */
export function fsChecks(home: string): Checks {
  return {
    home,
    kind: async (p) => {
      try {
        const st = await fs.promises.stat(p);
        return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : null;
      } catch {
        return null;
      }
    },
    isRev: (wdir, rev) =>
      new Promise((resolve) => {
        execFile('git', ['-C', wdir, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { timeout: REV_CHECK_MS, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } }, (err) => resolve(!err));
      }),
  };
}

/**
 * What the caller may have the plumber look at: for an agent, what its sandbox shows
 * it (the plumber reads files as the server); refuses a wdir outside that.
 */
export function seesFor(ctx: HandlerContext, wdir: string | undefined): (file: string) => boolean {
  const who = ctx.client.principal;
  if (who.kind !== 'agent' || !ctx.services.agents) return () => true;
  const sees = agentSees(ctx.services.agents, who.name);
  if (wdir !== undefined && !sees(wdir)) throw new PaneFault('denied', `denied: agent ${who.name} plumbs from the directories its sandbox shows it; ${wdir} is not one`, { reason: 'wdir outside the sandbox', subject: 'plumb' });
  return sees;
}

/** A port: a stream file whose readers each get every message; with none, messages wait (bounded). */
export class PortFeed extends Feed {
  private held: { line: string; at: number }[] = [];
  constructor(readonly port: string) {
    super(PORT_FEED_KEEP);
  }

  /** Hands a message to every reader, or holds it; true when someone read it. */
  deliver(line: string): boolean {
    if (this.readers.size > 0) {
      this.append(line);
      return true;
    }
    this.prune();
    this.held.push({ line, at: Date.now() });
    if (this.held.length > MAX_HELD_PER_PORT) this.held.shift();
    return false;
  }

  get heldCount(): number {
    this.prune();
    return this.held.length;
  }

  private prune(): void {
    const cutoff = Date.now() - PORT_HOLD_MS;
    this.held = this.held.filter((h) => h.at >= cutoff);
  }

  /** A new reader gets what waited for it first. */
  override subscribe(): FeedReader {
    const r = super.subscribe();
    this.prune();
    const waiting = this.held;
    this.held = [];
    for (const h of waiting) this.append(h.line);
    return r;
  }
}

interface Cached {
  mtimeMs: number;
  size: number;
  parsed: Parsed;
}

export interface RuleSet {
  rules: Rule[];
  errors: PlumbError[];
}

export class PlumbService {
  readonly userFile: string;
  private readonly shipped: Parsed;
  private readonly cache = new Map<string, Cached>();
  private readonly ports = new Map<string, PortFeed>();
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly server: PaneServer,
    configDir: string,
  ) {
    this.userFile = path.join(configDir, 'plumbing');
    this.shipped = parseRules(SHIPPED_RULES, SHIPPED_FILE, 'shipped');
  }

  /** The port `name`, made on first use. */
  port(name: string): PortFeed {
    let p = this.ports.get(name);
    if (!p) this.ports.set(name, (p = new PortFeed(name)));
    return p;
  }

  /** Every port a rule names or someone reads, with its readers and held messages. */
  portList(rules: readonly Rule[]): { port: string; readers: number; held: number }[] {
    const names = new Set<string>([...this.ports.keys()]);
    for (const r of rules) for (const a of r.actions) if (a.verb === 'to') names.add(a.words[0]!);
    return [...names].sort().map((port) => {
      const p = this.ports.get(port);
      return { port, readers: p?.readers.size ?? 0, held: p?.heldCount ?? 0 };
    });
  }

  /** A rule file parsed, read again only when its size or mtime changed; undefined when there is none. */
  private file(file: string, origin: 'user' | 'project', vars: Record<string, string>): Parsed | undefined {
    let st: fs.Stats;
    try {
      st = fs.statSync(file);
    } catch {
      this.cache.delete(file);
      return undefined;
    }
    const hit = this.cache.get(file);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.parsed;
    let parsed: Parsed;
    if (!st.isFile()) parsed = { rules: [], errors: [{ file, line: 0, message: 'not a regular file' }], vars };
    else if (st.size > MAX_RULE_FILE_BYTES) parsed = { rules: [], errors: [{ file, line: 0, message: `${st.size} bytes; a rule file is at most ${MAX_RULE_FILE_BYTES}` }], vars };
    else {
      try {
        parsed = parseRules(fs.readFileSync(file, 'utf8'), file, origin, vars);
      } catch (e) {
        parsed = { rules: [], errors: [{ file, line: 0, message: `cannot read it: ${(e as Error).message}` }], vars };
      }
    }
    this.cache.set(file, { mtimeMs: st.mtimeMs, size: st.size, parsed });
    return parsed;
  }

  /** The nearest .pane/plumbing at or above `wdir`. */
  projectFile(wdir: string): string | undefined {
    let d = path.resolve(wdir);
    for (let i = 0; i < MAX_PROJECT_DEPTH; i++) {
      const f = path.join(d, '.pane', 'plumbing');
      if (fs.existsSync(f)) return f;
      const up = path.dirname(d);
      if (up === d) return undefined;
      d = up;
    }
    return undefined;
  }

  /** The rules for a message from `wdir`, in the order they are tried: the person's, the project's (confined), the shipped. */
  rulesFor(wdir: string | undefined, sees: (file: string) => boolean = () => true): RuleSet {
    const user = this.file(this.userFile, 'user', this.shipped.vars);
    const vars = { ...this.shipped.vars, ...(user?.vars ?? {}) };
    // A project file the caller's sandbox does not show it (a link to the person's key, say) is not read for it: its errors would quote it.
    const found = wdir ? this.projectFile(wdir) : undefined;
    const projectPath = found !== undefined && sees(found) ? found : undefined;
    const project = projectPath ? this.file(projectPath, 'project', vars) : undefined;
    const personal = [...(user?.rules ?? []), ...this.shipped.rules];
    const starts = new Set(personal.flatMap((r) => r.actions.filter((a) => a.verb === 'start').map(startKey)));
    const confined = project ? confineProject(project.rules, starts) : { rules: [], errors: [] };
    return {
      rules: [...(user?.rules ?? []), ...confined.rules, ...this.shipped.rules],
      errors: [...this.shipped.errors, ...(user?.errors ?? []), ...(project?.errors ?? []), ...confined.errors],
    };
  }

  /** plumb/test and plumb/send: the rule that fires, and (unless `dry`) what it does, as the caller. */
  async plumb(p: { pane?: number | string | undefined; text: string; click?: number | undefined; wdir?: string | undefined; port?: string | undefined }, ctx: HandlerContext, dry: boolean): Promise<PlumbOutcome> {
    const source = p.pane !== undefined ? ctx.server.pane(p.pane) : undefined;
    if (source !== undefined && bodyOf(source.kind).standIn) {
      return { fired: false, action: `pane ${source.n} is a host's pane (${source.attrs['remote'] ?? 'remote'}): its files are on that host; plumb there (pane plumb send on that host)`, errors: [] };
    }
    if (p.click !== undefined && p.click >= p.text.length) return { fired: false, action: `the click offset ${p.click} is past the text's end (${p.text.length} characters)`, errors: [] };
    const wdir = p.wdir ?? source?.cwd ?? this.server.env.HOME ?? '/';
    if (!path.isAbsolute(wdir)) return { fired: false, action: `wdir ${wdir} is not an absolute path`, errors: [] };
    // An agent's message is checked against what its sandbox shows it, no more: the plumber reads files as the server.
    const sees = seesFor(ctx, wdir);
    const { rules, errors } = this.rulesFor(wdir, sees);
    const msg: Message = { src: source ? `pane ${source.n}` : principalLabel(ctx.client.principal), dst: p.port, wdir, type: 'text', data: p.text, click: p.click, attrs: {} };
    const tried: string[] = [];
    const real = fsChecks(this.server.env.HOME ?? process.env.HOME ?? '/');
    const checks: Checks = { ...real, kind: async (f) => (sees(f) ? real.kind(f) : null) };
    const fired = await firstMatch(rules, msg, checks, dry ? tried : undefined);
    if (!fired) return { fired: false, action: 'no rule matches', ...(dry ? { tried } : {}), errors };
    const base = { fired: true, rule: `${fired.rule.file}:${fired.rule.line}`, data: fired.data, attrs: fired.attrs, errors, ...(dry ? { tried } : {}) };
    let plan: Plan;
    try {
      plan = await this.plan(fired, msg, source, sees);
    } catch (e) {
      if (!dry) throw e;
      return { ...base, fired: false, action: `${base.rule} matches, but ${(e as Error).message}` };
    }
    if (dry) return { ...base, action: this.foretell(plan, source) };
    const loop = this.loopCheck(fired);
    if (loop) return { ...base, fired: false, action: loop };
    const done = await this.act(plan, source, ctx);
    ctx.server.publish('plumb/fired', { ...(source ? { pane: source.n } : {}), rule: base.rule, action: done.action, by: principalLabel(ctx.client.principal) });
    return { ...base, ...done };
  }

  /** The same rule firing for the same text again and again is a loop (a reader that plumbs what it reads): stopped and said. */
  private loopCheck(f: Fired): string | undefined {
    const key = `${f.rule.file}:${f.rule.line}\0${f.data}`;
    const now = Date.now();
    const times = (this.recent.get(key) ?? []).filter((t) => t > now - SAME_WINDOW_MS);
    times.push(now);
    this.recent.set(key, times);
    if (this.recent.size > 1000) for (const [k, v] of this.recent) if (v.every((t) => t <= now - SAME_WINDOW_MS)) this.recent.delete(k);
    if (times.length > MAX_SAME_FIRINGS) return `stopped: rule ${f.rule.file}:${f.rule.line} fired ${times.length} times in ${SAME_WINDOW_MS / 1000} s for the same text: it plumbs to itself (a reader of its port sends what it reads back)`;
    return undefined;
  }

  /**
   * What the fired rule will do, decided without doing it (plumb/test says this;
   * plumb/send does it): a port with readers gets the message, a port nobody reads
   * holds it, else the rule's fallback: the window's browser, pane's editor, or a
   * program started beside the source. Whatever cannot be done (an address that is
   * not http, a file that is not one, a value read as an option) throws here, before
   * anything is done, so a test says it as a send would.
   */
  private async plan(f: Fired, msg: Message, source: Pane | undefined, sees: (file: string) => boolean): Promise<Plan> {
    const to = f.rule.actions.find((a) => a.verb === 'to');
    const port = to?.words[0];
    const line = JSON.stringify({ src: msg.src, dst: port ?? '', wdir: msg.wdir, type: msg.type, data: f.data, attrs: f.attrs, rule: `${f.rule.file}:${f.rule.line}` });
    if (port !== undefined && this.port(port).readers.size > 0) return { kind: 'port', port, line, readers: this.port(port).readers.size };
    const fallback = f.rule.actions.find((a) => a.verb !== 'to');
    if (!fallback) return { kind: 'hold', port: port!, line };
    if (fallback.verb === 'client' && fallback.words[0] === 'browser') {
      if (!/^https?:\/\/\S+$/.test(f.data) || hasControls(f.data)) throw new Error(`the browser opens http and https addresses; "${f.data.slice(0, 80)}" is not one`);
      // A project's rule may not make up an address: it opens only what was on the screen.
      if (f.rule.origin === 'project' && !msg.data.includes(f.data)) throw new Error(`${f.rule.file}:${f.rule.line}: a project's rule opens only an address that was in the text clicked`);
      return { kind: 'browser', url: f.data };
    }
    if (fallback.verb === 'client') {
      const file = path.resolve(f.vars.wdir ?? '/', f.data);
      const st = sees(file) ? await fs.promises.stat(file).catch(() => null) : null;
      if (!st?.isFile()) throw new Error(`the editor opens files; ${file} is not one`);
      if (hasControls(file)) throw new Error('the file name holds a control character; it is not typed into an editor');
      const line = /^[0-9]{1,9}$/.test(f.attrs.line ?? '') ? Number(f.attrs.line) : undefined;
      const col = /^[0-9]{1,6}$/.test(f.attrs.col ?? '') ? Number(f.attrs.col) : undefined;
      return { kind: 'editor', file, line, col, reuse: this.editorPane(source) };
    }
    const argv = argvOf(fallback, f.vars);
    if (typeof argv === 'string') throw new Error(`${f.rule.file}:${fallback.line}: ${argv}`);
    const [program, ...args] = argv as [string, ...string[]];
    return { kind: 'start', program, args, cwd: msg.wdir };
  }

  /** The plan in words, as plumb/test says it: what a send would do now. */
  private foretell(plan: Plan, source: Pane | undefined): string {
    const beside = source ? `a pane beside pane ${source.n}` : 'a new pane of the focused session';
    switch (plan.kind) {
      case 'port':
        return `would send it to port ${plan.port} (${plan.readers} reading)`;
      case 'hold':
        return `would hold it ${heldWords(plan.port)}`;
      case 'browser':
        return `would open ${plan.url} in the window's browser`;
      case 'editor': {
        const at = editorAt(plan);
        if (plan.reuse !== undefined) return `would open ${at} in the editor in pane ${plan.reuse}`;
        return `would open ${at} with ${editorCommand(this.server.env)[0]} in ${beside}`;
      }
      case 'start':
        return `would start ${[plan.program, ...plan.args].join(' ')} in ${beside}`;
    }
  }

  private async act(plan: Plan, source: Pane | undefined, ctx: HandlerContext): Promise<Omit<PlumbOutcome, 'fired' | 'errors'>> {
    switch (plan.kind) {
      case 'port':
        this.port(plan.port).deliver(plan.line);
        return { action: `sent to port ${plan.port}`, port: plan.port, delivered: true };
      case 'hold':
        this.port(plan.port).deliver(plan.line);
        return { action: `held ${heldWords(plan.port)}`, port: plan.port, delivered: false };
      case 'browser':
        return { action: `open ${plan.url} in the window's browser`, open: plan.url };
      case 'editor':
        return this.editor(plan, source, ctx);
      case 'start': {
        const r = await ctx.dispatch('pane/launch', { ...(source ? { pane: source.n } : {}), direction: 'horizontal', launch: { program: plan.program, args: plan.args, cwd: plan.cwd }, name: `${plan.program} ${plan.args.join(' ')}`.slice(0, 200) });
        return { action: `started ${[plan.program, ...plan.args].join(' ')} in pane ${r.pane}`, pane: r.pane };
      }
    }
  }

  /**
   * pane's editor client: the file at its line in an editor pane — one of vim's
   * family already open in the session takes `:e +LINE FILE` (the file name
   * escaped as vim reads it), else $VISUAL/$EDITOR (default vi) opens in a pane
   * beside the one clicked. Either way as the caller: its typing and its launch.
   */
  private async editor(plan: EditorPlan, source: Pane | undefined, ctx: HandlerContext): Promise<Omit<PlumbOutcome, 'fired' | 'errors'>> {
    const { file, line, col, reuse } = plan;
    const at = editorAt(plan);
    if (reuse !== undefined) {
      // Ctrl-\ Ctrl-N: normal mode from any mode, with no Esc a terminal could read as the start of a key; :hide edit leaves a modified buffer be.
      const keys = `\x1c\x0e:hide edit ${line !== undefined ? `+${line} ` : ''}${vimEscape(file)}\r${col !== undefined && col > 1 ? `${col}|` : ''}`;
      try {
        await ctx.dispatch('pane/input', { pane: reuse, data: keys });
        await ctx.dispatch('pane/focus', { pane: reuse });
        return { action: `opened ${at} in the editor in pane ${reuse}`, pane: reuse, port: 'edit', delivered: true };
      } catch {
        // Not the caller's to type into (an agent's .access): an editor of its own opens instead.
      }
    }
    const [program, ...flags] = editorCommand(this.server.env);
    // Where it opens: vim's family takes a column too (cursor()), nano +LINE,COL, any other the common +LINE.
    const name = path.basename(program);
    const where = line === undefined ? [] : VIM_LIKE.has(name) && col !== undefined ? [`+call cursor(${line},${col})`] : name === 'nano' && col !== undefined ? [`+${line},${col}`] : [`+${line}`];
    const args = [...flags, ...where, file];
    const r = await ctx.dispatch('pane/launch', { ...(source ? { pane: source.n } : {}), direction: 'horizontal', launch: { program, args, cwd: path.dirname(file) }, name: path.basename(file) });
    return { action: `opened ${at} with ${program} in pane ${r.pane}`, pane: r.pane, port: 'edit', delivered: true };
  }

  /** A pane of the source's session (else any) whose foreground is one of vim's family. */
  private editorPane(source: Pane | undefined): number | undefined {
    const vimIn = (p: Pane) => bodyOf(p.kind).runsProgram && !bodyOf(p.kind).agent && VIM_LIKE.has(this.server.terminals.get(p.n)?.foreground()?.command ?? '');
    const panes = [...this.server.panes.values()];
    return (panes.find((p) => p.session === source?.session && p.n !== source?.n && vimIn(p)) ?? panes.find((p) => p.n !== source?.n && vimIn(p)))?.n;
  }
}

/** What a fired rule will do (PlumbService.plan): decided first, then done by act or said by plumb/test. */
type Plan =
  | { kind: 'port'; port: string; line: string; readers: number }
  | { kind: 'hold'; port: string; line: string }
  | { kind: 'browser'; url: string }
  | EditorPlan
  | { kind: 'start'; program: string; args: string[]; cwd: string };
/** A file for pane's editor client: at a line and column, typed into an open vim (`reuse`) or opened in a new editor pane. */
type EditorPlan = { kind: 'editor'; file: string; line: number | undefined; col: number | undefined; reuse: number | undefined };

/** Where and how long a message nobody reads waits, as a send says it was held and a test that it would be. */
function heldWords(port: string): string {
  return `on port ${port} for ${PORT_HOLD_MS / 1000} s: nobody reads it (pane plumb read ${port})`;
}

/** FILE, FILE:LINE or FILE:LINE:COL, as the editor's outcome names the place. */
function editorAt(p: EditorPlan): string {
  return p.line !== undefined ? `${p.file}:${p.line}${p.col !== undefined ? `:${p.col}` : ''}` : p.file;
}

/**
 * The person's editor as argv: $VISUAL, else $EDITOR, else vi, split at blanks as a
 * shell would split a plain command (`code -w`, `emacs -nw`). Whoever opens a file in it
 * (a plumbed click, a diff review's `open`) adds the file as an absolute path, never
 * an argument that could start with `-`.
 */
export function editorCommand(env: Readonly<Record<string, string | undefined>>): [string, ...string[]] {
  const words = (env.VISUAL || env.EDITOR || 'vi').trim().split(/\s+/).filter((w) => w !== '');
  return words.length > 0 ? (words as [string, ...string[]]) : ['vi'];
}

/** A file name as vim's :e reads it: its specials (space, %, #, |, ", \) escaped. */
export function vimEscape(file: string): string {
  return file.replace(/[ \\%#|"'[\]{}$`*?!<]/g, (c) => `\\${c}`);
}
