// Agent accounts on disk: <dataDir>/agents/<name>/ holds .plan, .access, .project,
// .app, .token (0600), a Maildir and a log, like a unix home. The directory is the
// account: dropping one in adds an agent, and the files are plain for humans to edit.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AgentNameSchema, SandboxAccessSchema, type AccessInput } from '../../kits/protocol/agent';
import { faults, PaneFault } from '../../kits/protocol/error';
import { ensureMaildir } from './mailbox';

/** Agent tokens carry this prefix, so a hello token is recognisably an agent's (and not a WebSocket secret). */
export const TOKEN_PREFIX = 'pane-agent-';

export interface AccountInit {
  app?: string | undefined;
  project?: string | undefined;
  access?: AccessInput | undefined;
  plan?: string | undefined;
}

export class AccountStore {
  readonly root: string;
  private tokens = new Map<string, string>();

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'agents');
    fs.mkdirSync(this.root, { recursive: true, mode: 0o700 });
  }

  home(name: string): string {
    return path.join(this.root, name);
  }

  exists(name: string): boolean {
    return AgentNameSchema.safeParse(name).success && fs.existsSync(path.join(this.home(name), '.token'));
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
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    // A kept home (rm without --purge) is reused: its .plan, mail and log stay.
    const keep = (file: string, text: string) => {
      const p = path.join(home, file);
      if (!fs.existsSync(p)) fs.writeFileSync(p, text);
    };
    keep('.plan', init.plan ?? '');
    if (init.plan !== undefined) fs.writeFileSync(path.join(home, '.plan'), init.plan);
    if (init.access !== undefined) fs.writeFileSync(path.join(home, '.access'), JSON.stringify(init.access, null, 2) + '\n');
    // The default file spells out the sandbox (hosts, hidden paths) so the person sees what to change.
    else keep('.access', `${JSON.stringify({ version: 1, sandbox: SandboxAccessSchema.parse({}) }, null, 2)}\n`);
    if (init.project !== undefined) fs.writeFileSync(path.join(home, '.project'), `${init.project}\n`);
    else keep('.project', '');
    if (init.app !== undefined) fs.writeFileSync(path.join(home, '.app'), `${init.app}\n`);
    ensureMaildir(path.join(home, 'Maildir'));
    keep('log', '');
    // The token is written last: its presence is what makes the directory an account.
    fs.writeFileSync(path.join(home, '.token'), TOKEN_PREFIX + crypto.randomBytes(24).toString('hex') + '\n', { mode: 0o600 });
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
      t = fs.readFileSync(path.join(this.home(name), '.token'), 'utf8').trim();
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

  read(name: string, file: '.plan' | '.project' | '.app'): string {
    try {
      return fs.readFileSync(path.join(this.home(name), file), 'utf8');
    } catch {
      return '';
    }
  }

  writePlan(name: string, text: string): void {
    const p = path.join(this.home(name), '.plan');
    fs.writeFileSync(`${p}.tmp`, text);
    fs.renameSync(`${p}.tmp`, p);
  }

  /** Appends one line to the agent's log (refusals, launches), stamped. */
  log(name: string, line: string): void {
    if (!this.exists(name)) return;
    try {
      fs.appendFileSync(path.join(this.home(name), 'log'), `${new Date().toISOString()} ${line.replace(/\n/g, ' ')}\n`);
    } catch {
      // a log that cannot be written must not turn a refusal into a crash
    }
  }
}
