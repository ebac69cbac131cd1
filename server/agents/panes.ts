// How agent panes are born: an agent-kind pane gets an agent (named, found by its
// app, or a fresh account), the signature com.pane.ai.agent.NAME, PANE_AGENT and
// its token in the environment, hooks wired for CLIs that take them, an optional
// git worktree; and every terminal gets the finger/mail/write/pane shims on PATH.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AGENT_SIGNATURE_PREFIX, AgentNameSchema, type AgentApp, type HookDialect } from '../../kits/protocol/agent';
import { PaneFault } from '../../kits/protocol/error';
import { nodeNeed, type AppEntry } from '../../kits/protocol/app';
import type { Pane, Session } from '../../kits/protocol/model';
import { findApp } from '../config/appFiles';
import { bodyOf } from '../model/bodies/registry';
import type { NewPaneSpec, PaneContributor } from '../model/lifecycle';
import type { PaneServer } from '../paneServer';
import type { AgentService } from './service';
import { commandAllowed } from './access';
import { deny } from './accessCheck';
import { makeWorktree } from './worktree';
import { endpointPath, httpHookFor } from './doors';
import { sandboxedSocket, sandboxLaunch } from './sandbox';
import { paneEntry } from './programs';
import { which } from '../../kits/node/which';
import { prepareHome } from './agentHome';
import { paneHookCommand } from './dialect';
import { agentEnvironment } from './agentEnv';
import { hookRunner } from '../../kits/node/hookFiles';

/** Names handed to agents created on launch, in order (then name-2, name-3...). */
const NAMES = ['ada', 'bob', 'cleo', 'dax', 'eve', 'finn', 'gus', 'hal', 'ivy', 'jo', 'kai', 'lu', 'max', 'nia', 'otto', 'pia'];

export function freshName(svc: AgentService): string {
  const taken = new Set([...svc.store.list(), ...svc.runtimes.keys(), ...fsNames(svc), svc.human]);
  for (let round = 1; ; round++) {
    for (const n of NAMES) {
      const name = round === 1 ? n : `${n}-${round}`;
      if (!taken.has(name)) return name;
    }
  }
}

/** Kept homes (removed without --purge) keep their names reserved. */
function fsNames(svc: AgentService): string[] {
  try {
    return fs.readdirSync(svc.store.root);
  } catch {
    return [];
  }
}

function appOf(svc: AgentService, id: string | undefined): AppEntry | undefined {
  if (!id) return undefined;
  try {
    return findApp(svc.deps.config().apps, id);
  } catch {
    return undefined;
  }
}

/** The agent a spec names: attrs.agent, else its agent signature. */
function askedName(spec: NewPaneSpec): string | undefined {
  return spec.attrs?.agent ?? (spec.signature?.startsWith(AGENT_SIGNATURE_PREFIX) ? spec.signature.slice(AGENT_SIGNATURE_PREFIX.length) : undefined);
}

/**
 * Chooses the agent for a new agent pane the person asked for: the one named
 * (made if new: the person's launch is the person's act), an idle account of the
 * same app, or a new account. Every account made here is logged as made by the person.
 */
function chooseAgent(svc: AgentService, spec: NewPaneSpec, app: AppEntry | undefined): string {
  const asked = askedName(spec);
  if (asked !== undefined) {
    if (!AgentNameSchema.safeParse(asked).success) throw new PaneFault('bad-request', `bad agent name "${asked}"`, { subject: 'attrs.agent' });
    // An agent named like the human would act as the human, unchecked.
    if (asked === svc.human) throw new PaneFault('failed', `${asked} is the human user's name; an agent needs another`, { subject: 'attrs.agent' });
    if (!svc.store.exists(asked)) created(svc, asked, app, svc.human);
    return asked;
  }
  if (app) {
    const idle = svc.store.list().find((n) => svc.store.read(n, '.app').trim() === app.id && svc.panesOf(n).length === 0);
    if (idle) return idle;
  }
  const name = freshName(svc);
  created(svc, name, app, svc.human);
  return name;
}

function created(svc: AgentService, name: string, app: AppEntry | undefined, by: string): void {
  svc.store.add(name, { ...(app ? { app: app.id } : {}) });
  svc.store.log(name, `account created by ${by} for a launch${app ? ` of ${app.id}` : ''}`);
}

/**
 * What an agent asking for a pane gets: its own identity, never another's. Naming
 * another existing agent (attrs.agent, an agent signature) is borrowing and is refused;
 * naming a new one makes an account only when its .access allows agent/add.
 */
function identityForAgent(svc: AgentService, by: string, spec: NewPaneSpec, app: AppEntry | undefined): string {
  const asked = askedName(spec);
  if (asked === undefined || asked === by) return by;
  if (!AgentNameSchema.safeParse(asked).success || asked === svc.human) {
    deny(svc, by, 'pane/split', `start a pane as ${asked}`, `gives no right to act as ${asked}`);
  }
  if (svc.store.exists(asked)) deny(svc, by, 'pane/split', `start a pane as agent ${asked} (a pane carries only its maker's identity)`, `gives no right to act as ${asked}`);
  if (!commandAllowed(svc.access(by).access, 'agent/add')) deny(svc, by, 'agent/add', `create the account ${asked} by starting a pane for it`, 'commands do not allow agent/add');
  created(svc, asked, app, by);
  return asked;
}

export function agentPaneContributor(lookup: (server: PaneServer) => AgentService | undefined): PaneContributor {
  return {
    spec(server: PaneServer, _session: Session, spec: NewPaneSpec): NewPaneSpec {
      const svc = lookup(server);
      if (!svc) return spec;
      const by = svc.agentCaller(spec.creator);
      const asked = askedName(spec);
      if (!bodyOf(spec.kind ?? 'terminal').agent) {
        // An ordinary pane: the person's carries an agent's identity only if the person named it by signature;
        // an agent's always carries the agent's own (so `pane` inside acts as the agent, never as the human).
        if (by !== null) {
          const who = identityForAgent(svc, by, spec, undefined);
          return walled(server, svc, { ...spec, owner: by }, { agent: who, agentPane: spec.signature === AGENT_SIGNATURE_PREFIX + who });
        }
        const sigName = spec.signature?.startsWith(AGENT_SIGNATURE_PREFIX) ? spec.signature.slice(AGENT_SIGNATURE_PREFIX.length) : undefined;
        if (sigName !== undefined && svc.store.exists(sigName)) return walled(server, svc, spec, { agent: sigName, agentPane: true });
        return spec;
      }
      const app = appOf(svc, spec.attrs?.app);
      const agentApp: Partial<AgentApp> = app?.agent ?? {};
      const launch = spec.launch ? { ...spec.launch, args: [...spec.launch.args] } : undefined;
      const bin = shimDir(svc);
      if (launch && !which(launch.program, `${bin ? `${bin}:` : ''}${launch.env?.PATH ?? server.env.PATH ?? ''}`)) {
        const what = app ? `${app.name} (${launch.program})` : launch.program;
        const how = agentApp.install ? `; install it with: ${agentApp.install}${nodeNeed(agentApp.nodeMajor, process.versions.node)}` : '';
        throw new PaneFault('failed', `${what} is not installed: no ${launch.program} on PATH${how}`, { reason: 'not installed', subject: launch.program });
      }
      const name = by !== null ? identityForAgent(svc, by, spec, app) : chooseAgent(svc, spec, app);
      const attrs: Record<string, string> = { ...(spec.attrs ?? {}), agent: name };
      const prompts = agentApp.prompts ?? app?.id;
      if (prompts) attrs['agent.prompts'] = prompts;
      // Its project before the anchor pane's directory: that is where its sandbox lets it write.
      const project = svc.store.read(name, '.project').trim();
      let cwd = spec.launch?.cwd ?? (project || spec.cwd);
      const isolation = attrs['agent.isolation'] ?? agentApp.isolation ?? 'none';
      delete attrs['agent.isolation'];
      if (isolation === 'worktree') {
        const wt = makeWorktree(cwd ?? process.cwd(), name);
        cwd = wt.path;
        attrs['agent.worktree'] = wt.path;
        attrs['agent.branch'] = wt.branch;
        attrs['agent.repo'] = wt.repo;
      }
      // A restored or relaunched pane already carries its --settings: never add a second. The file is
      // written at every launch all the same: the hook port it names is the kernel's choice at each start.
      // `claude-settings` is the older name of apps/claude.json's dialect: a --settings flag file.
      const dialect = typeof agentApp.hooks === 'object' ? agentApp.hooks : null;
      if (launch && (agentApp.hooks === 'claude-settings' || dialect?.install.kind === 'flag-file')) {
        const flag = dialect?.install.flag ?? '--settings';
        const file = claudeSettingsFile(svc, dialect);
        if (!launch.args.includes(flag)) launch.args.push(flag, file);
      }
      if (launch && dialect?.install.kind === 'notify-command' && !launch.args.includes(dialect.install.flag!)) {
        const entry = paneEntry(svc);
        launch.args.push(dialect.install.flag!, paneHookCommand(hookRunner(entry), app?.id ?? '', dialect.install.notifyEvent));
      }
      if (launch && dialect !== null && (dialect.install.configDir || Object.keys(dialect.install.env).length > 0)) {
        // The CLI's config dir is the agent's (the person's CODEX_HOME, say, would lead it out of its home), and what its hooks need to run.
        const cd = dialect.install.configDir;
        launch.env = { ...(launch.env ?? {}), ...dialect.install.env, ...(cd && !cd.additive ? { [cd.env]: path.join(svc.store.home(name), cd.home) } : {}) };
      }
      if (launch && cwd !== undefined) launch.cwd = cwd;
      svc.store.log(name, `launch ${launch ? [launch.program, ...launch.args].join(' ') : 'shell'} in ${cwd ?? '(default cwd)'}`);
      const out: NewPaneSpec = {
        ...spec,
        ...(launch ? { launch } : {}),
        ...(cwd !== undefined ? { cwd } : {}),
        ...(by !== null ? { owner: by } : {}),
        signature: AGENT_SIGNATURE_PREFIX + name,
        name,
        attrs,
      };
      const wrapped = walled(server, svc, out, { agent: name, agentPane: true });
      // Its CLI's home is its own (HOME, below): the person's login for it and its hooks go in first.
      if (launch && app) {
        const h = prepareHome(svc, name, app, wrapped.identity?.sandbox === 'bubblewrap');
        for (const line of [...(h.copied.length ? [`copied the person's ${h.copied.map((c) => `~/${c}`).join(', ')} into its home`] : []), ...(h.hooks ? [`hooks: ${h.hooks}`] : []), ...h.notes]) svc.store.log(name, line);
      }
      return wrapped;
    },
    created(server: PaneServer, pane: Pane, spec: NewPaneSpec): void {
      const svc = lookup(server);
      if (svc && spec.identity) svc.identity.set(pane.n, spec.identity);
    },
    inherit(server: PaneServer, pane: Pane, env: Readonly<Record<string, string>>): Record<string, string> | undefined {
      const svc = lookup(server);
      const name = svc?.identityOf(pane);
      if (!svc || !name) return undefined;
      // An agent's pane (its own, or one it made) starts from an empty environment, as its sandbox
      // does: the person's tokens and sockets stay with the person. Its CLI's login variables come
      // in as the person's login files do, when .access sandbox.credentials is "copy".
      const logins = svc.access(name).access.sandbox.credentials === 'copy' ? (appOf(svc, pane.attrs.app)?.agent?.home?.env ?? []) : [];
      return agentEnvironment(env, logins);
    },
    env(server: PaneServer, pane: Pane, env: Record<string, string>): Record<string, string> {
      const svc = lookup(server);
      if (!svc) return {};
      const out: Record<string, string> = {};
      const bin = shimDir(svc);
      if (bin) out.PATH = `${bin}:${env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`;
      const name = svc.identityOf(pane);
      if (name && svc.store.exists(name)) {
        // Inside its sandbox the person's socket is hidden: the agent's own socket is its way to pane,
        // through the relay on the sandbox's loopback (no unix socket can be made inside, decision 055).
        if (svc.identity.get(pane.n)?.sandbox === 'bubblewrap') out.PANE_SOCKET = process.platform === 'linux' ? sandboxedSocket(svc.deps.hooks()?.port) : endpointPath(svc, name);
        out.PANE_AGENT = name;
        out.PANE_TOKEN = svc.store.token(name);
        // An agent is a user with a home: its CLIs keep their state, sessions and login there, the one
        // place besides its work its sandbox lets it write (decision 034).
        out.HOME = svc.store.home(name);
        // Whom "[from NAME]" lines and replies name: the human at the keyboard.
        out.PANE_HUMAN = svc.human;
      }
      return out;
    },
  };
}

/**
 * Every pane that carries an agent's identity runs in the agent's sandbox — its
 * own panes and any pane it makes (else a `pane split -- sh` would leave the walls).
 * Where none can run the tag says "unsandboxed" (and /pane/log, in the `new` line).
 */
function walled(server: PaneServer, svc: AgentService, spec: NewPaneSpec, id: { agent: string; agentPane: boolean }): NewPaneSpec {
  const launch = spec.launch ?? { program: server.shell, args: [] };
  const cwd = launch.cwd ?? spec.cwd ?? server.env.HOME ?? os.homedir();
  // The hosts its CLI needs (its app file's agent.network): its model API, login and model list.
  const s = sandboxLaunch(svc, id.agent, launch, cwd, appOf(svc, spec.attrs?.app)?.agent?.network ?? []);
  const unsandboxed = s.mode !== 'bubblewrap';
  const name = spec.name ?? path.basename(launch.program);
  return {
    ...spec,
    launch: s.launch,
    name: unsandboxed ? `${name} [unsandboxed]` : name,
    attrs: { ...(spec.attrs ?? {}), 'agent.sandbox': s.mode },
    identity: { ...id, sandbox: s.mode, stamp: s.stamp },
  };
}


/** Writes <dataDir>/bin with pane, finger, mail and write shims (once per server); null when no pane entry is found. */
export function shimDir(svc: AgentService): string | null {
  const entry = paneEntry(svc);
  if (!entry) return null;
  const dir = path.join(svc.options.dataDir, 'bin');
  const words: Record<string, string> = { pane: '', finger: 'finger', mail: 'mail', write: 'write' };
  for (const [file, word] of Object.entries(words)) {
    const p = path.join(dir, file);
    const text = `#!/bin/sh\n# pane shim: the classic word runs as \`pane ${word || '...'}\` against this pane server.\nexec "${process.execPath}" "${entry}"${word ? ` ${word}` : ''} "$@"\n`;
    try {
      if (fs.readFileSync(p, 'utf8') === text) continue;
    } catch {
      // not there yet
    }
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(p, text, { mode: 0o755 });
  }
  return dir;
}

/** A Claude Code settings file whose hooks run `pane hook` for every event pane understands. */
/** Claude Code's hook events that run only as command hooks, whatever the settings say (an http hook on them never fires). */
export const CLAUDE_COMMAND_ONLY_EVENTS: ReadonlySet<string> = new Set(['SessionStart']);

export function claudeSettingsFile(svc: AgentService, dialect: HookDialect | null = null): string {
  const entry = paneEntry(svc);
  const command = `${hookRunner(entry)} hook`;
  // Claude Code's own names, as its dialect (apps/claude.json) lists them; its payload is pane's own (no --app).
  const events = dialect ? Object.keys(dialect.events) : ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Notification', 'Stop', 'StopFailure', 'SessionEnd'];
  // Claude Code that takes HTTP hooks posts to the server: no process per hook (issue 14). The
  // events it runs only as commands (SessionStart: measured with 2.1.197 and 2.1.332, an http
  // hook on it never runs) go through bin/pane-hook, which posts to the same door with bash.
  const commandHook = { type: 'command', command, timeout: 5 };
  const http = httpHookFor(svc.deps.hooks());
  const hookFor = (e: string) => (http && !CLAUDE_COMMAND_ONLY_EVENTS.has(e) ? http : commandHook);
  const hooks = Object.fromEntries(events.map((e) => [e, [{ ...(e.endsWith('ToolUse') ? { matcher: '*' } : {}), hooks: [hookFor(e)] }]]));
  const file = path.join(svc.options.dataDir, 'claude-settings.json');
  // Written at every launch (the hook URL changes with each server start): whole, then renamed,
  // so a Claude Code starting beside another launch never reads half a file.
  const text = JSON.stringify({ hooks }, null, 2) + '\n';
  const part = `${file}.${process.pid}.part`;
  fs.writeFileSync(part, text, { mode: 0o644 });
  fs.renameSync(part, file);
  return file;
}
