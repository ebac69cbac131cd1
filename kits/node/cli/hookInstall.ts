// `pane hook install|uninstall`: merges pane's hook entries into a project's
// .claude/settings.json without touching anything else there, and removes only
// entries whose command is pane's own. A file that is not JSON is left alone.
import fs from 'node:fs';
import path from 'node:path';

/** The events pane listens to (Claude Code's hook names). */
export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Notification', 'Stop', 'SessionEnd'] as const;

interface HookEntry {
  matcher?: string;
  hooks?: { type?: string; command?: string; timeout?: number }[];
}
type Settings = Record<string, unknown> & { hooks?: Record<string, HookEntry[]> };

/** How pane's own entries are recognised: the command ends with ` hook` and mentions pane. */
export function isPaneHook(command: string | undefined): boolean {
  return typeof command === 'string' && /(^|[\s/"'])pane(\.mjs)?["']?\s+hook\s*$/.test(command);
}

function load(file: string): Settings {
  if (!fs.existsSync(file)) return {};
  const text = fs.readFileSync(file, 'utf8');
  if (text.trim() === '') return {};
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
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.pane-tmp`;
  fs.writeFileSync(tmp, JSON.stringify(s, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

/** Adds pane's entry to each event (once); returns the events it added to. */
export function installHooks(file: string, command: string): string[] {
  const s = load(file);
  const hooks = (s.hooks && typeof s.hooks === 'object' ? s.hooks : {}) as Record<string, HookEntry[]>;
  const added: string[] = [];
  for (const ev of HOOK_EVENTS) {
    const list = Array.isArray(hooks[ev]) ? hooks[ev]! : [];
    if (list.some((e) => e.hooks?.some((h) => isPaneHook(h.command)))) continue;
    list.push({ ...(ev.endsWith('ToolUse') ? { matcher: '*' } : {}), hooks: [{ type: 'command', command, timeout: 5 }] });
    hooks[ev] = list;
    added.push(ev);
  }
  s.hooks = hooks;
  save(file, s);
  return added;
}

/** Removes only pane's own entries; returns the events it removed from. */
export function uninstallHooks(file: string): string[] {
  if (!fs.existsSync(file)) return [];
  const s = load(file);
  if (!s.hooks || typeof s.hooks !== 'object') return [];
  const removed: string[] = [];
  for (const [ev, list] of Object.entries(s.hooks)) {
    if (!Array.isArray(list)) continue;
    const kept = list
      .map((e) => ({ ...e, hooks: e.hooks?.filter((h) => !isPaneHook(h.command)) }))
      .filter((e) => !Array.isArray(e.hooks) || e.hooks.length > 0);
    if (list.some((e) => e.hooks?.some((h) => isPaneHook(h.command)))) removed.push(ev);
    if (kept.length === 0) delete s.hooks[ev];
    else s.hooks[ev] = kept;
  }
  if (Object.keys(s.hooks).length === 0) delete s.hooks;
  save(file, s);
  return removed;
}
