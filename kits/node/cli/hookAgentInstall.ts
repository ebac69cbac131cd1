// `pane hook install|uninstall --agent APP [--print]` (issue 25): the hooks of an agent
// CLI's dialect (its app file's agent.hooks) installed for the person's own use of that
// CLI, outside pane's agent panes. Per process where the CLI allows it (a --settings file,
// an extra config dir: nothing of the person's touched, the CLI started as `run` says);
// otherwise pane's own file in a directory the CLI reads every file of, or pane's entries
// merged into the CLI's user file beside the person's (told apart by pane's command).
// Uninstall removes only those. A file pane cannot parse is refused, never overwritten.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HookDialect } from '../../protocol/agent';
import { AppFileSchema } from '../../protocol/app';
import { applyHookPlan, HookFileRefused, hookRunner, ownEntry, planHookInstall, planHookUninstall, type HookPlan } from '../hookFiles';
import { configDir, dataDir } from '../paths';
import { readBelow } from '../safeFile';
import { UsageError } from './errors';

/** An app file is a few KiB. */
const MAX_APP_FILE_BYTES = 64 * 1024;

/** The built-in apps/ beside the sources or the bundle (as the server finds it), then the person's. */
function appDirs(): string[] {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const builtin = process.env.PANE_APPS_DIR ?? [path.join(here, '..', 'apps'), path.join(here, '..', '..', 'apps'), path.join(here, '..', '..', '..', 'apps')].find((d) => fs.existsSync(path.join(d, 'terminal.json')));
  return [path.join(configDir(), 'apps'), ...(builtin ? [builtin] : [])];
}

/** The app's file and its hook dialect (`claude-settings`, the older name, reads apps/claude.json's). */
export function agentDialect(app: string, dirs = appDirs()): { file: string; dialect: HookDialect } {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(app)) throw new UsageError(`--agent ${JSON.stringify(app)}: an app id is letters, digits, . _ -`, 'hook');
  for (const dir of dirs) {
    const text = readBelow(dir, `${app}.json`, { where: 'app files', maxBytes: MAX_APP_FILE_BYTES });
    if (text === null) continue;
    const r = AppFileSchema.safeParse(JSON.parse(text));
    if (!r.success) throw new UsageError(`${path.join(dir, `${app}.json`)}: not a valid app file (${r.error.issues[0]?.message})`, 'hook');
    const hooks = r.data.agent?.hooks;
    if (hooks === 'claude-settings' && app !== 'claude') return agentDialect('claude', dirs);
    if (typeof hooks !== 'object') throw new UsageError(`${app}: its app file names no hook dialect (agent.hooks); pane watches it from its screen`, 'hook');
    return { file: path.join(dir, `${app}.json`), dialect: hooks };
  }
  throw new UsageError(`no app file ${app}.json (in ${dirs.join(', ')})`, 'hook');
}

function describe(plan: HookPlan, verb: string): string[] {
  const out: string[] = [];
  for (const c of plan.changes) {
    const file = path.join(c.root, c.rel);
    out.push(c.text === null ? `${file}: removed (pane's own file)` : `${file}: ${verb} (${c.own ? "pane's own file" : "pane's entries beside yours, which stay"})`);
  }
  if (plan.events.length) out.push(`events: ${plan.events.join(', ')}`);
  if (plan.run.length) out.push(`start it with: ${plan.run.join(' ')}`);
  return out;
}

/** Runs install / uninstall / install --print for app `app`; the lines to print. */
export function hookAgentInstall(action: 'install' | 'uninstall', app: string, print: boolean, env: Record<string, string | undefined> = process.env): string[] {
  const { file, dialect } = agentDialect(app);
  const entry = hookRunner(ownEntry());
  const o = { home: env.HOME ?? os.homedir(), pane: entry, appId: app === 'claude' ? app : app, dataDir: dataDir(), appFile: file, perProcess: true, cliEnv: env };
  try {
    const plan = action === 'install' ? planHookInstall(dialect, o) : planHookUninstall(dialect, o);
    if (print) {
      const lines = describe(plan, 'would be written');
      for (const c of plan.changes) if (c.text !== null) lines.push(`--- ${path.join(c.root, c.rel)}`, c.text.trimEnd());
      return lines;
    }
    applyHookPlan(plan);
    if (plan.changes.length === 0 && plan.run.length === 0) return [`${dialect.dialect}: nothing of pane's to ${action === 'install' ? 'write' : 'remove'}`];
    return describe(plan, action === 'install' ? 'written' : 'pane entries removed');
  } catch (e) {
    if (e instanceof HookFileRefused) throw new UsageError(`pane hook ${action} --agent ${app}: ${e.message}`, 'hook');
    throw e;
  }
}
