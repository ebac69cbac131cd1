// Agent accounts on disk: <dataDir>/agents/<name>/ holds .plan, .access, .project,
// .app, .token (0600), a Maildir and a log, like a unix home. The directory is the
// account: dropping one in adds an agent, and the files are plain for humans to edit.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AgentNameSchema, SandboxAccessSchema, type AccessInput } from '../../kits/protocol/agent';
import { faults, PaneFault } from '../../kits/protocol/error';
import { appendBelow, createBelow, isFileBelow, mkdirBelow, PathRefused, readBelow, writeBelow } from '../../kits/node/safeFile';
import { ensureMaildir } from './mailbox';

/** Agent tokens carry this prefix, so a hello token is recognisably an agent's (and not a WebSocket secret). */
export const TOKEN_PREFIX = 'pane-agent-';

/** How refusals name an agent's home (the agent writes there from inside its sandbox). */
export const AGENT_HOME = "an agent's home";

/**
 * A .plan is at most 65,536 characters (agent/plan's schema), so at most 256 KiB
 * of UTF-8; one bigger was not written by pane and is not read.
 */
export const MAX_PLAN_BYTES = 256 * 1024;
/** .project, .app, .token and .access are a line or a small JSON object: 64 KiB is generous. */
export const MAX_ACCOUNT_FILE_BYTES = 64 * 1024;
/** The agent's log is appended to until it is this big; then lines are dropped (the person rotates it). */
export const MAX_AGENT_LOG_BYTES = 16 * 1024 * 1024;

export interface AccountInit {
  app?: string | undefined;
  project?: string | undefined;
  access?: AccessInput | undefined;
  plan?: string | undefined;
}

export class AccountStore {
  readonly root: string;
  private tokens = new Map<string, string>();
  /** Told each refusal to open a file in an agent's home (the service logs it and puts it in /pane/log). */
  onRefused: (name: string, e: PathRefused) => void = () => undefined;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'agents');
    fs.mkdirSync(this.root, { recursive: true, mode: 0o700 });
  }

  home(name: string): string {
    return path.join(this.root, name);
  }

  exists(name: string): boolean {
    return AgentNameSchema.safeParse(name).success && isFileBelow(this.root, `${name}/.token`);
  }

  /** Account names, sorted; directories that are not valid accounts are skipped. */
  list(): string[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.root);
    } catch {
      return [];
    }
    return names.filter((n) => this.exists(n)).sort();
  }

  add(name: string, init: AccountInit = {}): string {
    const parsed = AgentNameSchema.safeParse(name);
    if (!parsed.success) throw faults.badRequest(`bad agent name "${name}": ${parsed.error.issues[0]?.message ?? 'invalid'}`, 'name');
    if (this.exists(name)) throw new PaneFault('failed', `agent ${name} already exists (home ${this.home(name)})`, { reason: 'exists', subject: name });
    const home = this.home(name);
    mkdirBelow(this.root, name, { where: AGENT_HOME });
    // A kept home (rm without --purge) is reused: its .plan, mail and log stay. It
    // was the agent's, so every file is written below it without following links.
    const o = { where: AGENT_HOME, mode: 0o644 };
    const keep = (file: string, text: string) => createBelow(this.root, `${name}/${file}`, text, o);
    const put = (file: string, text: string, mode = 0o644) => writeBelow(this.root, `${name}/${file}`, text, { ...o, mode });
    if (init.plan !== undefined) put('.plan', init.plan);
    else keep('.plan', '');
    if (init.access !== undefined) put('.access', JSON.stringify(init.access, null, 2) + '\n');
    // The default file spells out the sandbox (hosts, hidden paths) so the person sees what to change.
    else keep('.access', `${JSON.stringify({ version: 1, sandbox: SandboxAccessSchema.parse({}) }, null, 2)}\n`);
    if (init.project !== undefined) put('.project', `${init.project}\n`);
    else keep('.project', '');
    if (init.app !== undefined) put('.app', `${init.app}\n`);
    ensureMaildir(path.join(home, 'Maildir'));
    keep('log', '');
    // The token is written last: its presence is what makes the directory an account.
    put('.token', TOKEN_PREFIX + crypto.randomBytes(24).toString('hex') + '\n', 0o600);
    this.tokens.delete(name);
    return home;
  }

  /** Ends the account (its token); the home stays unless purge. */
  remove(name: string, purge: boolean): { home: string; kept: boolean } {
    if (!this.exists(name)) throw new PaneFault('failed', `no agent named ${name}`, { reason: 'no such agent', subject: name });
    const home = this.home(name);
    if (purge) fs.rmSync(home, { recursive: true, force: true });
    else fs.rmSync(path.join(home, '.token'), { force: true });
    this.tokens.delete(name);
    return { home, kept: !purge };
  }

  token(name: string): string {
    let t = this.tokens.get(name);
    if (t === undefined) {
      t = (readBelow(this.root, `${name}/.token`, { where: AGENT_HOME, maxBytes: MAX_ACCOUNT_FILE_BYTES }) ?? '').trim();
      this.tokens.set(name, t);
    }
    return t;
  }

  /** The agent a token belongs to, or undefined (constant-time compare per account). */
  byToken(token: string): string | undefined {
    const want = Buffer.from(token);
    for (const n of this.list()) {
      const have = Buffer.from(this.token(n));
      if (have.length === want.length && crypto.timingSafeEqual(have, want)) return n;
    }
    return undefined;
  }

  /**
   * One of the agent's files, '' when missing or refused (a link, a FIFO, too big:
   * the agent can plant any of these in its home; each refusal is told onRefused).
   */
  read(name: string, file: '.plan' | '.project' | '.app' | '.access'): string {
    try {
      return readBelow(this.root, `${name}/${file}`, { where: AGENT_HOME, maxBytes: file === '.plan' ? MAX_PLAN_BYTES : MAX_ACCOUNT_FILE_BYTES }) ?? '';
    } catch (e) {
      if (e instanceof PathRefused) this.onRefused(name, e);
      return '';
    }
  }

  /** An account file below the home, or null when missing; throws PathRefused (for callers that must tell a refusal from an empty file). */
  readChecked(name: string, file: '.access', maxBytes: number): string | null {
    return readBelow(this.root, `${name}/${file}`, { where: AGENT_HOME, maxBytes });
  }

  /** Replaces the .plan whole (temp file made with O_EXCL|O_NOFOLLOW, then renamed): a link there is replaced, never written through. */
  writePlan(name: string, text: string): void {
    try {
      writeBelow(this.root, `${name}/.plan`, text, { where: AGENT_HOME, mode: 0o644 });
    } catch (e) {
      if (!(e instanceof PathRefused)) throw e;
      this.onRefused(name, e);
      throw new PaneFault('failed', `plan not saved: ${e.message}`, { reason: 'refused path', subject: e.file });
    }
  }

  /** Appends one line to the agent's log (refusals, launches), stamped. */
  log(name: string, line: string): void {
    if (!this.exists(name)) return;
    try {
      appendBelow(this.root, `${name}/log`, `${new Date().toISOString()} ${line.replace(/\n/g, ' ')}\n`, { where: AGENT_HOME, maxBytes: MAX_AGENT_LOG_BYTES });
    } catch {
      // a log that cannot be written must not turn a refusal into a crash
    }
  }
}
