// `pane hook install|uninstall`: merges pane's hook entries (`pane hook` commands:
// a settings file never names the hook port, which is chosen anew at each server
// start) into a project's .claude/settings.json without touching anything else
// there, and removes only pane's own entries (HTTP ones an earlier pane wrote too).
// The HTTP hook spec here is what the server gives the Claude Code it launches.
import path from 'node:path';
import { lstatBelow, readBelow, writeBelow } from '../safeFile';

/** The events pane listens to (Claude Code's hook names). */
export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Notification', 'Stop', 'StopFailure', 'SessionEnd'] as const;

/** One hook as Claude Code's settings hold it: a command, or an HTTP POST. */
export interface HookSpec {
  type?: string;
  command?: string;
  url?: string;
  headers?: Record<string, string>;
  allowedEnvVars?: string[];
  timeout?: number;
}
interface HookEntry {
  matcher?: string;
  hooks?: HookSpec[];
}

/** The first Claude Code with `"type": "http"` hooks (its changelog, 2.1.63). */
export const HTTP_HOOKS_SINCE = [2, 1, 63] as const;
/** `claude --version` answers at once; past this it is not worth waiting for at install time. */
export const VERSION_TIMEOUT_MS = 5000;
/** Seconds Claude Code waits on pane's hook (both kinds): the hook never needs more. */
const HOOK_TIMEOUT_S = 5;

/** `claude --version` printed "2.1.63 (Claude Code)": its numbers, or null. */
export function parseVersion(out: string): number[] | null {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(out);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

export function hasHttpHooks(v: readonly number[] | null): boolean {
  if (!v) return false;
  for (let i = 0; i < 3; i++) if ((v[i] ?? 0) !== HTTP_HOOKS_SINCE[i]) return (v[i] ?? 0) > HTTP_HOOKS_SINCE[i]!;
  return true;
}

/** The env vars an HTTP hook sends as headers: the agent's token, the pane secret, and where it runs. */
const HTTP_ENV = ['PANE_TOKEN', 'PANE_HOOK_TOKEN', 'PANE_ID', 'PANE_AGENT'];

/** pane's HTTP hook for the server listening at `url` (see server/transport/hookListener.ts). */
export function httpHook(url: string): HookSpec {
  return {
    type: 'http',
    url,
    headers: { Authorization: 'Bearer $PANE_TOKEN', 'X-Pane-Hook': '$PANE_HOOK_TOKEN', 'X-Pane-Id': '$PANE_ID', 'X-Pane-Agent': '$PANE_AGENT' },
    allowedEnvVars: HTTP_ENV,
    timeout: HOOK_TIMEOUT_S,
  };
}

export function commandHook(command: string): HookSpec {
  return { type: 'command', command, timeout: HOOK_TIMEOUT_S };
}
type Settings = Record<string, unknown> & { hooks?: Record<string, HookEntry[]> };

/** How pane's own entries are recognised: the command ends with ` hook` and mentions pane. */
export function isPaneHook(command: string | undefined): boolean {
  return typeof command === 'string' && /(^|[\s/"'])pane(\.mjs)?["']?\s+hook\s*$/.test(command);
}

/** pane's own hooks: its command, or an HTTP hook carrying pane's X-Pane-Hook header. */
export function isPaneSpec(h: HookSpec): boolean {
  return isPaneHook(h.command) || (h.type === 'http' && typeof h.headers === 'object' && h.headers !== null && 'X-Pane-Hook' in h.headers);
}

/**
 * The project is where agents write: its .claude/settings.json is reached below
 * the project without following links, read only as a regular file of bounded
 * size, and replaced through a fresh temp file (kits/node/safeFile.ts).
 */
const below = (file: string) => ({ root: path.dirname(path.dirname(file)), rel: path.join(path.basename(path.dirname(file)), path.basename(file)) });
/** A Claude Code settings file is a few KiB; past 1 MiB it is not one pane edits. */
const MAX_SETTINGS_BYTES = 1 << 20;
const WHERE = 'a project (agents write there)';

function load(file: string): Settings {
  const { root, rel } = below(file);
  const text = readBelow(root, rel, { where: WHERE, maxBytes: MAX_SETTINGS_BYTES });
  if (text === null || text.trim() === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} is not valid JSON (${(e as Error).message}); fix it first, pane will not overwrite it`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error(`${file} is not a JSON object; pane will not overwrite it`);
  return json as Settings;
}

function save(file: string, s: Settings): void {
  const { root, rel } = below(file);
  writeBelow(root, rel, JSON.stringify(s, null, 2) + '\n', { where: WHERE, mkdir: true, mode: 0o644 });
}

/**
 * Adds pane's hook to each event (once; a pane hook of the other kind is replaced,
 * so switching between command and HTTP hooks never reports an event twice);
 * returns the events it added to. A string is a `pane hook` command.
 */
export function installHooks(file: string, hook: string | HookSpec): string[] {
  const spec = typeof hook === 'string' ? commandHook(hook) : hook;
  const s = load(file);
  const hooks = (s.hooks && typeof s.hooks === 'object' ? s.hooks : {}) as Record<string, HookEntry[]>;
  const added: string[] = [];
  const same = (h: HookSpec) => JSON.stringify(h) === JSON.stringify(spec);
  for (const ev of HOOK_EVENTS) {
    let list = Array.isArray(hooks[ev]) ? hooks[ev]! : [];
    if (list.some((e) => e.hooks?.some(same))) continue;
    list = list
      .map((e) => ({ ...e, hooks: e.hooks?.filter((h) => !isPaneSpec(h)) }))
      .filter((e) => !Array.isArray(e.hooks) || e.hooks.length > 0);
    list.push({ ...(ev.endsWith('ToolUse') ? { matcher: '*' } : {}), hooks: [spec] });
    hooks[ev] = list;
    added.push(ev);
  }
  s.hooks = hooks;
  save(file, s);
  return added;
}

/** Removes only pane's own entries; returns the events it removed from. */
export function uninstallHooks(file: string): string[] {
  const { root, rel } = below(file);
  if (lstatBelow(root, rel, { where: WHERE }) === null) return [];
  const s = load(file);
  if (!s.hooks || typeof s.hooks !== 'object') return [];
  const removed: string[] = [];
  for (const [ev, list] of Object.entries(s.hooks)) {
    if (!Array.isArray(list)) continue;
    const kept = list
      .map((e) => ({ ...e, hooks: e.hooks?.filter((h) => !isPaneSpec(h)) }))
      .filter((e) => !Array.isArray(e.hooks) || e.hooks.length > 0);
    if (list.some((e) => e.hooks?.some(isPaneSpec))) removed.push(ev);
    if (kept.length === 0) delete s.hooks[ev];
    else s.hooks[ev] = kept;
  }
  if (Object.keys(s.hooks).length === 0) delete s.hooks;
  save(file, s);
  return removed;
}
