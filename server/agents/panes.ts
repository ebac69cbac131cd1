// How agent panes are born: an agent-kind pane gets an agent (named, found by its
// app, or a fresh account), the signature com.pane.ai.agent.NAME, PANE_AGENT and
// its token in the environment, hooks wired for CLIs that take them, an optional
// git worktree; and every terminal gets the finger/mail/write/pane shims on PATH.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_SIGNATURE_PREFIX, AgentNameSchema, type AgentApp } from '../../kits/protocol/agent';
import { PaneFault } from '../../kits/protocol/error';
import type { AppEntry } from '../../kits/protocol/app';
import type { Pane, Session } from '../../kits/protocol/model';
import { findApp } from '../config/appFiles';
import { configOf } from '../config/configService';
import type { NewPaneSpec, PaneContributor } from '../model/lifecycle';
import type { PaneServer } from '../paneServer';
import type { AgentService } from './service';
import { makeWorktree } from './worktree';
import { httpHookFor } from '../transport/hookListener';

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

/** Finds a program on PATH (or as given, when it has a slash). */
export function which(program: string, pathVar: string | undefined): string | null {
  const ok = (p: string) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (program.includes('/')) return ok(program) ? program : null;
  for (const dir of (pathVar ?? '').split(':')) if (dir && ok(path.join(dir, program))) return path.join(dir, program);
  return null;
}

function appOf(server: PaneServer, id: string | undefined): AppEntry | undefined {
  if (!id) return undefined;
  try {
    return findApp(configOf(server).apps, id);
  } catch {
    return undefined;
  }
}

/** Chooses the agent for a new agent pane: attrs.agent, its signature, an idle account of the same app, or a new account. */
function chooseAgent(svc: AgentService, spec: NewPaneSpec, app: AppEntry | undefined): string {
  const asked = spec.attrs?.agent ?? (spec.signature?.startsWith(AGENT_SIGNATURE_PREFIX) ? spec.signature.slice(AGENT_SIGNATURE_PREFIX.length) : undefined);
  if (asked !== undefined) {
    if (!AgentNameSchema.safeParse(asked).success) throw new PaneFault('bad-request', `bad agent name "${asked}"`, { subject: 'attrs.agent' });
    // An agent named like the human would act as the human, unchecked.
    if (asked === svc.human) throw new PaneFault('failed', `${asked} is the human user's name; an agent needs another`, { subject: 'attrs.agent' });
    if (!svc.store.exists(asked)) svc.store.add(asked, { ...(app ? { app: app.id } : {}) });
    return asked;
  }
  if (app) {
    const idle = svc.store.list().find((n) => svc.store.read(n, '.app').trim() === app.id && svc.panesOf(n).length === 0);
    if (idle) return idle;
  }
  const name = freshName(svc);
  svc.store.add(name, { ...(app ? { app: app.id } : {}) });
  return name;
}

export function agentPaneContributor(lookup: (s: PaneServer) => AgentService | undefined): PaneContributor {
  return {
    spec(server: PaneServer, _session: Session, spec: NewPaneSpec): NewPaneSpec {
      const svc = lookup(server);
      if (!svc || spec.kind !== 'agent') return spec;
      const app = appOf(server, spec.attrs?.app);
      const agentApp: Partial<AgentApp> = app?.agent ?? {};
      const launch = spec.launch ? { ...spec.launch, args: [...spec.launch.args] } : undefined;
      const bin = shimDir(svc);
      if (launch && !which(launch.program, `${bin ? `${bin}:` : ''}${launch.env?.PATH ?? server.env.PATH ?? ''}`)) {
        const what = app ? `${app.name} (${launch.program})` : launch.program;
        const how = agentApp.install ? `; install it with: ${agentApp.install}` : '';
        throw new PaneFault('failed', `${what} is not installed: no ${launch.program} on PATH${how}`, { reason: 'not installed', subject: launch.program });
      }
      const name = chooseAgent(svc, spec, app);
      const attrs: Record<string, string> = { ...(spec.attrs ?? {}), agent: name };
      const prompts = agentApp.prompts ?? app?.id;
      if (prompts) attrs['agent.prompts'] = prompts;
      let cwd = spec.launch?.cwd ?? spec.cwd;
      const project = svc.store.read(name, '.project').trim();
      if (cwd === undefined && project) cwd = project;
      const isolation = attrs['agent.isolation'] ?? agentApp.isolation ?? 'none';
      delete attrs['agent.isolation'];
      if (isolation === 'worktree') {
        const wt = makeWorktree(cwd ?? process.cwd(), name);
        cwd = wt.path;
        attrs['agent.worktree'] = wt.path;
        attrs['agent.branch'] = wt.branch;
        attrs['agent.repo'] = wt.repo;
      }
      // A restored or relaunched pane already carries its --settings: never add a second.
      if (launch && agentApp.hooks === 'claude-settings' && !launch.args.includes('--settings')) launch.args.push('--settings', claudeSettingsFile(svc));
      if (launch && cwd !== undefined) launch.cwd = cwd;
      svc.store.log(name, `launch ${launch ? [launch.program, ...launch.args].join(' ') : 'shell'} in ${cwd ?? '(default cwd)'}`);
      return { ...spec, ...(launch ? { launch } : {}), ...(cwd !== undefined ? { cwd } : {}), signature: AGENT_SIGNATURE_PREFIX + name, name, attrs };
    },
    env(server: PaneServer, pane: Pane, env: Record<string, string>): Record<string, string> {
      const svc = lookup(server);
      if (!svc) return {};
      const out: Record<string, string> = {};
      const bin = shimDir(svc);
      if (bin) out.PATH = `${bin}:${env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`;
      const name = svc.isAgentPane(pane);
      if (name && svc.store.exists(name)) {
        out.PANE_AGENT = name;
        out.PANE_TOKEN = svc.store.token(name);
        // Whom "[from NAME]" lines and replies name: the human at the keyboard.
        out.PANE_HUMAN = svc.human;
      }
      return out;
    },
  };
}

/** The `pane` entry point the shims run: dist/pane.mjs beside the bundle (or the repo's, from source). */
export function paneEntry(svc: AgentService): string | null {
  if (svc.options.paneBin) return svc.options.paneBin;
  // This code runs from dist/pane.mjs, a dist/chunks/ chunk, another dist/ entry (start.mjs),
  // or the sources (server/agents/); a CommonJS bundle has no import.meta.url at all.
  let here: string | null = null;
  try {
    here = path.dirname(fileURLToPath(import.meta.url));
  } catch {
    here = null;
  }
  const argv1 = process.argv[1] ?? '';
  const candidates = [
    /pane\.mjs$/.test(argv1) ? argv1 : '',
    argv1 ? path.join(path.dirname(argv1), 'pane.mjs') : '',
    ...(here ? [path.join(here, 'pane.mjs'), path.join(here, '..', 'pane.mjs'), path.join(here, '..', '..', 'dist', 'pane.mjs')] : []),
  ];
  return candidates.find((c) => c && fs.existsSync(c)) ?? null;
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
export function claudeSettingsFile(svc: AgentService): string {
  const entry = paneEntry(svc);
  const command = entry ? `"${process.execPath}" "${entry}" hook` : 'pane hook';
  const events = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Notification', 'Stop', 'SessionEnd'];
  // Claude Code that takes HTTP hooks posts to the server: no process per hook (issue 14).
  const hook = httpHookFor(svc.server) ?? { type: 'command', command, timeout: 5 };
  const hooks = Object.fromEntries(events.map((e) => [e, [{ ...(e.endsWith('ToolUse') ? { matcher: '*' } : {}), hooks: [hook] }]]));
  const file = path.join(svc.options.dataDir, 'claude-settings.json');
  fs.writeFileSync(file, JSON.stringify({ hooks }, null, 2) + '\n');
  return file;
}
