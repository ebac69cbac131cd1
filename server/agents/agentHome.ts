// An agent's home as its CLI's home (issue 25, deliverable 6; decision 034): inside
// its sandbox HOME is the agent's home, so a CLI's state, sessions and login land
// there and survive a restart. At each launch pane puts the person's login file for
// that CLI in, as a copy, where the .access allows; and merges the CLI's hook
// settings (its dialect) into its settings file there. Every write goes through
// safeFile: the home is the agent's to write, so no link there is followed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppEntry } from '../../kits/protocol/app';
import type { HookDialect } from '../../kits/protocol/agent';
import { lstatBelow, PathRefused, writeBelow } from '../../kits/node/safeFile';
import { AGENT_HOME } from './accounts';
import { applyHookPlan, hookRunner, planHookInstall } from '../../kits/node/hookFiles';
import { endpointPath } from './doors';
import { paneEntry } from './programs';
import type { AgentService } from './service';

/** A login file larger than this is not a login file (Gemini's oauth_creds.json is ~2 KB, Claude's ~0.5 KB). */
export const MAX_CREDENTIAL_BYTES = 64 * 1024;

/** A CLI settings file pane merges its hooks into (Gemini's is a few KB; its own bound is none). */
export const MAX_CLI_SETTINGS_BYTES = 256 * 1024;

/** `~/x` under the person's home; anything else as written. */
function expand(p: string, home: string): string {
  return p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : p;
}

/** What a launch put in the agent's home, for its log. */
export interface HomePrepared {
  copied: string[];
  hooks: string | null;
  notes: string[];
}

/**
 * Before an agent pane of `app` starts: the person's login files the app names, copied in
 * where the .access says `credentials: "copy"` (and its denyRead does not hide them), when
 * missing or older than the person's; then the app's hook dialect merged into the CLI's
 * settings in the home. Never throws: a refusal is logged and the launch goes on (the CLI
 * then logs in itself, or is observed from its screen).
 */
export function prepareHome(svc: AgentService, name: string, app: AppEntry, sandboxed: boolean): HomePrepared {
  const done: HomePrepared = { copied: [], hooks: null, notes: [] };
  const { access, errors } = svc.access(name);
  const person = svc.server.env.HOME ?? os.homedir();
  const hidden = access.sandbox.denyRead.map((p) => expand(p, person));
  for (const rel of app.agent?.home?.credentials ?? []) {
    if (errors.length > 0 || access.sandbox.credentials !== 'copy') break;
    const from = path.join(person, rel);
    if (hidden.some((h) => from === h || from.startsWith(h + path.sep))) {
      done.notes.push(`~/${rel} not copied: its .access sandbox.denyRead hides it`);
      continue;
    }
    try {
      const st = fs.statSync(from, { throwIfNoEntry: false });
      if (!st) continue;
      if (!st.isFile() || st.size > MAX_CREDENTIAL_BYTES) {
        done.notes.push(`~/${rel} not copied: not a regular file of at most ${MAX_CREDENTIAL_BYTES} bytes (MAX_CREDENTIAL_BYTES)`);
        continue;
      }
      const have = lstatBelow(svc.store.root, `${name}/${rel}`, { where: AGENT_HOME });
      // The agent's own copy may be fresher (its CLI refreshed the token): only a newer login of the person's replaces it.
      if (have && have.isFile() && have.mtimeMs >= st.mtimeMs) continue;
      writeBelow(svc.store.root, `${name}/${rel}`, fs.readFileSync(from), { where: AGENT_HOME, mode: 0o600, mkdir: true });
      done.copied.push(rel);
    } catch (e) {
      if (e instanceof PathRefused) svc.refused(name, e, 'launch');
      else done.notes.push(`~/${rel} not copied: ${(e as Error).message}`);
    }
  }
  const d = typeof app.agent?.hooks === 'object' ? app.agent.hooks : null;
  // A flag file (Claude's --settings) and a notification command are the launch's (panes.ts); the rest live in the home.
  if (d !== null && (d.install.kind === 'home-settings' || d.install.kind === 'own-file' || d.install.kind === 'plugin')) {
    const where = d.install.path ?? '';
    try {
      const entry = paneEntry(svc);
      // A CLI that runs hooks with a redacted environment (Gemini does on CI) still finds the agent's door.
      const env: Record<string, string> = { PANE_AGENT: name, ...(sandboxed ? { PANE_SOCKET: endpointPath(svc, name) } : {}) };
      const plan = planHookInstall(d, { home: svc.store.home(name), pane: hookRunner(entry), appId: app.id, env, dataDir: svc.options.dataDir, appFile: app.file });
      applyHookPlan(plan);
      done.hooks = `${d.dialect} hooks (pane's entries) in ${plan.changes.map((c) => `~/${c.rel}`).join(', ')}`;
    } catch (e) {
      if (e instanceof PathRefused) svc.refused(name, e, 'launch');
      else done.notes.push(`${d.dialect} hooks not installed: ~/${where} in its home: ${(e as Error).message}; left as it is`);
    }
  }
  return done;
}

/** Lines for `pane access NAME`: what its app's CLI is given in its home. */
export function homeLines(svc: AgentService, name: string, app: AppEntry | undefined): string[] {
  if (!app?.agent) return [];
  const lines: string[] = [];
  const home = svc.store.home(name);
  const { access } = svc.access(name);
  const creds = app.agent.home?.credentials ?? [];
  lines.push(`its CLI (${app.id}): HOME=${home} inside its sandbox`);
  if (creds.length > 0) lines.push(`  login:      ${access.sandbox.credentials === 'copy' ? `copies of ${creds.map((c) => `~/${c}`).join(', ')} (where the person has them)` : `none (.access sandbox.credentials is "none")`}`);
  const logins = app.agent.home?.env ?? [];
  if (logins.length > 0) lines.push(`  login env:  ${access.sandbox.credentials === 'copy' ? `${logins.join(', ')}, where the person's environment has them` : `none (.access sandbox.credentials is "none")`}`);
  const d = typeof app.agent.hooks === 'object' ? app.agent.hooks : null;
  if (d !== null) lines.push(`  hooks:      ${d.dialect} dialect, ${installWords(d)}${Object.keys(d.install.settings).length ? ` with ${JSON.stringify(d.install.settings)}` : ''}${d.context.length ? '' : "; pane's context does not reach it (its CLI takes none)"}`);
  else if (app.agent.hooks === 'claude-settings') lines.push(`  hooks:      a --settings file pane writes at each launch`);
  else if (app.agent.hooks === 'self') lines.push(`  hooks:      its own: the program runs \`pane hook\` itself (pane installs none)`);
  else lines.push(`  hooks:      none; its state is read from its screen`);
  const args = app.launch?.args ?? [];
  const env = Object.entries(app.launch?.env ?? {}).map(([k, v]) => `${k}=${v}`);
  if (args.length + env.length > 0) lines.push(`  nesting:    ${[...env, ...args].join(' ')}`);
  return lines;
}

/** How a dialect's hooks reach its CLI, in words (`pane access`). */
function installWords(d: HookDialect): string {
  const i = d.install;
  switch (i.kind) {
    case 'home-settings':
      return `merged into ~/${i.path} at each launch (pane's entries beside its own${i.trust ? ', trusted in its config.toml' : ''})`;
    case 'own-file':
      return `pane's own ~/${i.path}, written at each launch`;
    case 'plugin':
      return `pane's plugin (${i.plugin}) copied to ~/${i.path} at each launch`;
    case 'flag-file':
      return `a ${i.flag} file pane writes at each launch`;
    case 'notify-command':
      return `${i.flag} running pane hook (turn done only)`;
  }
}
