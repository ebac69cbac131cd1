// The hook files of an agent CLI's dialect (issue 25): pane's entries added beside the
// CLI's own and removed leaving those, Codex's trust for pane's own entries, and where
// each install kind puts what, both for an agent's launch (its home) and for
// `pane hook install --agent NAME` (the person's). Every read and write goes through
// safeFile (no links followed, bounded); a file pane cannot parse is refused, never
// overwritten. The formats are pure functions; plan/apply do the file work.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { HookDialect } from '../protocol/agent';
import { lstatBelow, readBelow, unlinkBelow, writeBelow } from './safeFile';

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Record<string, unknown> | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** How long the CLI may wait on `pane hook` (its own budget is 1.5 s: HOOK_BUDGET_MS). */
export const DIALECT_HOOK_TIMEOUT_MS = 5_000;

/** The name pane's hooks carry where the CLI's entries take one (Gemini's): with it, or pane's command, an entry is pane's. */
export const PANE_HOOK_NAME = 'pane';

/** A settings object a dialect writes into: an object parsed from the CLI's file. */
export type Settings = Record<string, unknown>;

/** `pane hook --app ID` (and `--event NAME` where the payload does not name its event), run by `pane`. */
export function paneHookCommand(pane: string, appId: string, event?: string): string {
  const q = (s: string) => `'${s.replace(/[^A-Za-z0-9._:-]/g, '')}'`;
  return `${pane} hook --app ${q(appId)}${event === undefined ? '' : ` --event ${q(event)}`}`;
}

/** Command paths pane writes into a hook command between single quotes: nothing a shell would read. */
const PLAIN_PATH = /^\/[A-Za-z0-9._/+@-]+$/;

let bashFound: { path: string | undefined; from: string } | undefined;
/** The first executable `bash` on `pathEnv` (then /bin, /usr/bin), remembered per PATH. */
function findBash(pathEnv: string): string | undefined {
  if (bashFound?.from === pathEnv) return bashFound.path;
  const dirs = [...pathEnv.split(':').filter((d) => path.isAbsolute(d)), '/bin', '/usr/bin'];
  let found: string | undefined;
  for (const d of dirs) {
    try {
      fs.accessSync(path.join(d, 'bash'), fs.constants.X_OK);
      found = path.join(d, 'bash');
      break;
    } catch {
      // not here
    }
  }
  bashFound = { path: found, from: pathEnv };
  return found;
}

/**
 * pane's entry as this process was started (argv[1]) when that is pane's bin, for hooks
 * to run: dist/pane.cjs, also when started as dist/pane.mjs (which only runs it, at the
 * cost of Node's ESM loader on every event); an installed `pane` link as it is. Null
 * when this process is not pane's bin (hooks then run `pane` from PATH).
 */
export function ownEntry(argv1: string | undefined = process.argv[1]): string | null {
  if (!argv1 || !/pane(\.[cm]js)?$/.test(argv1)) return null;
  const entry = path.resolve(argv1);
  if (entry.endsWith('pane.mjs')) {
    const cjs = `${entry.slice(0, -'mjs'.length)}cjs`;
    if (fs.existsSync(cjs)) return cjs;
  }
  return entry;
}

/**
 * How a CLI's command hook runs pane, given pane's entry (dist/pane.cjs; null: `pane` on
 * PATH). Where bash and pane's fast hook (bin/pane-hook, shipped beside dist/) are there:
 * `'BASH' 'ROOT/bin/pane-hook' "NODE" "ENTRY"`, which posts the event to $PANE_HOOK_URL with
 * bash alone (~10 ms, where a Node process takes ~70 ms to start) and runs the Node command
 * after it only when the pane gives no hook URL; otherwise the Node command itself. Every
 * CLI that runs a command hook runs it through a shell, so the quotes hold; what follows the
 * script is `pane hook`'s own command line, so isPaneCommand knows both.
 */
export function hookRunner(entry: string | null, o: { node?: string; pathEnv?: string } = {}): string {
  if (entry === null) return 'pane';
  const node = `"${o.node ?? process.execPath}" "${entry}"`;
  let real = entry;
  try {
    real = fs.realpathSync(entry); // /usr/bin/pane is a link into the package
  } catch {
    // as given
  }
  const script = path.resolve(path.dirname(real), '..', 'bin', 'pane-hook');
  const bash = findBash(o.pathEnv ?? process.env.PATH ?? '');
  if (bash === undefined || !PLAIN_PATH.test(bash) || !PLAIN_PATH.test(script) || !fs.existsSync(script)) return node;
  return `'${bash}' '${script}' ${node}`;
}

/** Is this command pane's own hook (`... pane[.mjs] hook [--app 'ID'] [--event 'NAME']`)? */
export function isPaneCommand(command: unknown): boolean {
  return typeof command === 'string' && /(^|[\s/"'])pane(\.[cm]js)?["']?\s+hook(\s+--app\s+'?[A-Za-z0-9._-]+'?)?(\s+--event\s+'?[A-Za-z0-9._:-]+'?)?\s*$/.test(command);
}

function isPaneEntry(d: HookDialect, e: unknown): boolean {
  const o = obj(e);
  if (o === null) return false;
  if (d.install.format === 'flat') return isPaneCommand(o[d.install.commandKey]);
  const hooks = o.hooks;
  return Array.isArray(hooks) && hooks.some((h) => obj(h)?.name === PANE_HOOK_NAME || isPaneCommand(obj(h)?.[d.install.commandKey]));
}

/** Codex clamps a SessionEnd hook's timeout to this, warning at every start (0.169.0); pane writes no more, and the trust hash is of that entry. */
const CODEX_SESSION_END_MAX_S = 3;

/** One pane hook entry in the CLI's file format. */
export function paneEntry(d: HookDialect, cliEvent: string, command: string, env: Record<string, string>): Record<string, unknown> {
  const i = d.install;
  const full = i.timeoutUnit === 'ms' ? DIALECT_HOOK_TIMEOUT_MS : DIALECT_HOOK_TIMEOUT_MS / 1000;
  // Codex clamps SessionEnd's and warns at every start ("⚠ 1 warning"): write what it allows.
  const timeout = i.trust === 'codex-config' && d.events[cliEvent] === 'SessionEnd' ? Math.min(full, CODEX_SESSION_END_MAX_S) : full;
  const hook: Record<string, unknown> = { ...(i.named ? { name: PANE_HOOK_NAME } : {}), type: 'command', [i.commandKey]: command, [i.timeoutKey]: timeout };
  if (i.named && Object.keys(env).length > 0) hook.env = env;
  if (i.format === 'flat') return hook;
  const event = d.events[cliEvent];
  const tool = event === 'PreToolUse' || event === 'PostToolUse' || event === 'PermissionRequest';
  return { ...(tool ? { matcher: i.toolMatcher } : {}), hooks: [hook] };
}

/**
 * The CLI's settings with pane's hooks in: under `install.key`, for every mapped event, the
 * entries that are not pane's kept and one pane entry added running `command` (with
 * `--event NAME` where the dialect asks); `install.settings` merged in (objects key by key) and
 * `install.version` set. What the CLI's person or the agent set otherwise stays.
 */
export function withPaneHooks(d: HookDialect, settings: Settings, command: string, env: Record<string, string>, nesting = true): Settings {
  const out: Settings = nesting ? mergeDeep(settings, d.install.settings) : { ...settings };
  if (d.install.version !== undefined && out.version === undefined) out.version = d.install.version;
  const hooks: Record<string, unknown> = { ...(obj(out[d.install.key]) ?? {}) };
  for (const cliEvent of Object.keys(d.events)) {
    const kept = (Array.isArray(hooks[cliEvent]) ? (hooks[cliEvent] as unknown[]) : []).filter((g) => !isPaneEntry(d, g));
    kept.push(paneEntry(d, cliEvent, d.install.eventArg ? `${command} --event '${cliEvent}'` : command, env));
    hooks[cliEvent] = kept;
  }
  out[d.install.key] = hooks;
  return out;
}

/** The settings without pane's entries (and without an event list pane's removal left empty); the names of the events it removed from. */
export function withoutPaneHooks(d: HookDialect, settings: Settings): { settings: Settings; removed: string[] } {
  const hooks = obj(settings[d.install.key]);
  if (hooks === null) return { settings, removed: [] };
  const next: Record<string, unknown> = {};
  const removed: string[] = [];
  for (const [ev, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      next[ev] = list;
      continue;
    }
    const kept = list.filter((g) => !isPaneEntry(d, g));
    if (kept.length < list.length) removed.push(ev);
    if (kept.length > 0 || list.length === 0) next[ev] = kept;
  }
  const out: Settings = { ...settings, [d.install.key]: next };
  if (Object.keys(next).length === 0) delete out[d.install.key];
  return { settings: out, removed };
}

/** snake_case of a Claude-style event name, as Codex keys its hook trust (PreToolUse → pre_tool_use). */
const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/**
 * Codex runs a hook not installed by an admin only once it is trusted: `[hooks.state."KEY"]
 * trusted_hash = "sha256:..."` in config.toml, KEY being `FILE:event_snake:GROUP:HOOK`, the hash
 * over the entry's canonical JSON (sorted keys, no spaces). Found in Codex 0.169.0 (its
 * `hooks/list` app-server method shows keys and currentHash; test/agents/dialect.test.ts holds
 * one it printed). Returns the trust lines for pane's own entries in `settings` (a hooks.json
 * written at `file`).
 */
export function codexTrust(d: HookDialect, settings: Settings, file: string): { key: string; hash: string }[] {
  const hooks = obj(settings[d.install.key]) ?? {};
  const out: { key: string; hash: string }[] = [];
  for (const [ev, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    list.forEach((g, gi) => {
      const group = obj(g);
      if (!group || !isPaneEntry(d, group)) return;
      const hs = (Array.isArray(group.hooks) ? group.hooks : []).map((h) => {
        const o = obj(h) ?? {};
        const timeout = typeof o.timeout === 'number' && ev === 'SessionEnd' ? Math.min(o.timeout, CODEX_SESSION_END_MAX_S) : o.timeout;
        return { async: false, command: o.command, timeout, type: o.type };
      });
      hs.forEach((h, hi) => {
        if (!isPaneCommand(h.command)) return;
        const canon: Record<string, unknown> = { event_name: snake(ev), hooks: hs, ...(group.matcher === undefined ? {} : { matcher: group.matcher }) };
        out.push({ key: `${file}:${snake(ev)}:${gi}:${hi}`, hash: `sha256:${crypto.createHash('sha256').update(stableJson(canon)).digest('hex')}` });
      });
    });
  }
  return out;
}

/** Compact JSON with keys sorted at every level (serde_json's canonical form Codex hashes). */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  const o = obj(v);
  if (o) return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

/** The marked block pane owns in a Codex config.toml: its trust lines, replaced whole at each install. */
export const CODEX_TRUST_BEGIN = '# >>> pane hooks trust (written by pane; edited by pane only)';
export const CODEX_TRUST_END = '# <<< pane hooks trust';

/**
 * A config.toml with pane's trust block replaced by `trust` (removed when empty). A key the
 * person's own part already names is left to them (a second table of one name would break
 * the file). Null when the text has a begin marker without its end: not pane's to fix.
 */
export function withCodexTrust(toml: string, trust: { key: string; hash: string }[]): string | null {
  const b = toml.indexOf(CODEX_TRUST_BEGIN);
  const e = toml.indexOf(CODEX_TRUST_END);
  if ((b === -1) !== (e === -1) || (b !== -1 && e < b)) return null;
  // What Codex wrote inside pane's block is Codex's: it appends new tables (a folder's
  // trust, [tui]) before the file's trailing comment, which is pane's end marker. Those
  // are kept, moved before the block; only pane's own [hooks.state."…"] tables are replaced.
  const kept = b === -1 ? '' : codexTablesIn(toml.slice(b + CODEX_TRUST_BEGIN.length, e));
  const outside = b === -1 ? toml : toml.slice(0, b) + toml.slice(e + CODEX_TRUST_END.length).replace(/^\n/, '');
  const theirs = kept === '' ? outside : `${outside.replace(/\n*$/, outside.trim() === '' ? '' : '\n')}${outside.trim() === '' ? '' : '\n'}${kept}`;
  const mine = trust.filter((t) => !theirs.includes(`"${t.key}"`));
  const base = theirs.replace(/\n*$/, theirs.trim() === '' ? '' : '\n');
  if (mine.length === 0) return base;
  const block = [CODEX_TRUST_BEGIN, ...mine.map((t) => `[hooks.state.${JSON.stringify(t.key)}]\ntrusted_hash = ${JSON.stringify(t.hash)}`), CODEX_TRUST_END].join('\n');
  return `${base}${base === '' ? '' : '\n'}${block}\n`;
}

/**
 * The TOML inside pane's trust block that is not pane's: every table but `[hooks.state.…]`
 * (the only tables pane writes there), with its lines as they were. Empty when none.
 */
export function codexTablesIn(block: string): string {
  const out: string[] = [];
  let mine = true; // text before any table header in the block is pane's (its marker's line end)
  for (const line of block.split('\n')) {
    const header = /^\s*\[\[?\s*([^\]]*)\]/.exec(line);
    if (header) mine = /^hooks\.state\./.test(header[1]!.trim());
    if (!mine) out.push(line);
  }
  while (out.length > 0 && out[out.length - 1]!.trim() === '') out.pop();
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

function mergeDeep(base: Settings, over: Record<string, unknown>): Settings {
  const out: Settings = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const a = obj(out[k]);
    const b = obj(v);
    out[k] = a && b ? mergeDeep(a, b) : v;
  }
  return out;
}

/** A CLI hook or settings file is a few KiB; past this it is not one pane edits (Gemini's has no bound of its own). */
export const MAX_CLI_SETTINGS_BYTES = 256 * 1024;

/** A refusal to touch a CLI's file: it is not one pane can read, or not pane's to replace. */
export class HookFileRefused extends Error {}

/** One file an install or uninstall changes: `text` null removes it. */
export interface HookFileChange {
  root: string;
  rel: string;
  text: string | null;
  /** Made wholly by pane (a file of its own), or pane's entries merged into the CLI's. */
  own: boolean;
}

export interface HookPlan {
  changes: HookFileChange[];
  /** How the CLI is started so it reads them (a flag, an environment variable); empty: as usual. */
  run: string[];
  /** Events whose pane entries the change adds or removes. */
  events: string[];
}

export interface HookPlanOptions {
  /** The CLI's HOME (the agent's home in its pane; the person's for `pane hook install`). */
  home: string;
  /** How a hook runs pane: `pane`, or `"node" "/x/dist/pane.cjs"`. */
  pane: string;
  appId: string;
  /** Environment pane's entries carry where the CLI's take one (Gemini's `env`). */
  env?: Record<string, string>;
  /** The CLI's own environment (its config-dir variable, e.g. the person's CODEX_HOME). */
  cliEnv?: Record<string, string | undefined>;
  /** Where pane keeps per-process files (flag files, an additive config dir): pane's data dir. */
  dataDir: string;
  /** The app file's path: a plugin ships beside it. */
  appFile?: string;
  /** Per process where the CLI allows it: nothing in the CLI's home is touched. */
  perProcess?: boolean;
  /** Read a shipped plugin file (tests pass their own). */
  readPlugin?: (file: string) => string;
}

const WHERE = "an agent CLI's config (pane hook install; an agent's home at launch)";

/** The directory the CLI reads its config from and the file's path below it. */
function located(d: HookDialect, o: HookPlanOptions): { root: string; rel: string; dirRoot: string } {
  const i = d.install;
  const rel = i.path ?? '';
  const cd = i.configDir;
  if (o.perProcess && cd?.additive) return { root: path.join(o.dataDir, 'cli-hooks', o.appId), rel: rel.slice(cd.home.length + 1), dirRoot: path.join(o.dataDir, 'cli-hooks', o.appId) };
  if (i.kind === 'flag-file') return { root: path.join(o.dataDir, 'cli-hooks', o.appId), rel, dirRoot: path.join(o.dataDir, 'cli-hooks', o.appId) };
  const moved = cd ? o.cliEnv?.[cd.env] : undefined;
  if (cd && moved && path.isAbsolute(moved)) return { root: moved, rel: rel.slice(cd.home.length + 1), dirRoot: moved };
  return { root: o.home, rel, dirRoot: cd ? path.join(o.home, cd.home) : o.home };
}

function readJson(root: string, rel: string): Settings | null {
  const text = readBelow(root, rel, { where: WHERE, maxBytes: MAX_CLI_SETTINGS_BYTES });
  if (text === null || text.trim() === '') return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new HookFileRefused(`${path.join(root, rel)} is not valid JSON (${(e as Error).message}); pane will not overwrite it: fix it first`);
  }
  if (obj(json) === null) throw new HookFileRefused(`${path.join(root, rel)} is not a JSON object; pane will not overwrite it: fix it first`);
  return json as Settings;
}

/** Is every hook entry in this file pane's (so the file is pane's own)? */
function allPanes(d: HookDialect, s: Settings): boolean {
  const { settings } = withoutPaneHooks(d, s);
  const left = obj(settings[d.install.key]);
  return left === null || Object.values(left).every((l) => Array.isArray(l) && l.length === 0);
}

/** pane's command in a shipped plugin: it must run `pane hook --app`, or it is not pane's. */
const PLUGIN_MARK = /hook['"], ['"]--app['"]/;

/**
 * What installing the dialect's hooks would change, read from the files as they are now
 * (nothing written). Throws HookFileRefused for a file pane cannot parse or that is not
 * pane's to replace.
 */
export function planHookInstall(d: HookDialect, o: HookPlanOptions): HookPlan {
  const i = d.install;
  const command = paneHookCommand(o.pane, o.appId);
  const env = o.env ?? {};
  const events = Object.keys(d.events);
  if (i.kind === 'notify-command') {
    return { changes: [], run: [`${i.flag} "${paneHookCommand(o.pane, o.appId, i.notifyEvent)}"`], events };
  }
  const at = located(d, o);
  const run: string[] = [];
  if (i.kind === 'flag-file') run.push(`${i.flag} ${path.join(at.root, at.rel)}`);
  if (o.perProcess && i.configDir?.additive) run.push(`${i.configDir.env}=${at.dirRoot}`);
  if (i.kind === 'plugin') {
    const file = path.join(path.dirname(o.appFile ?? '.'), i.plugin!);
    const text = (o.readPlugin ?? ((f) => readBelow(path.dirname(f), path.basename(f), { where: 'pane apps', maxBytes: MAX_CLI_SETTINGS_BYTES }) ?? ''))(file);
    if (!PLUGIN_MARK.test(text)) throw new HookFileRefused(`${file}: not pane's plugin (it does not run pane hook --app)`);
    const have = readBelow(at.root, at.rel, { where: WHERE, maxBytes: MAX_CLI_SETTINGS_BYTES });
    if (have !== null && have !== text && !PLUGIN_MARK.test(have)) throw new HookFileRefused(`${path.join(at.root, at.rel)} is not pane's plugin; pane will not overwrite it: move it away first`);
    for (const [k, v] of Object.entries(i.env)) run.push(`${k}=${v}`);
    return { changes: [{ root: at.root, rel: at.rel, text, own: true }], run, events };
  }
  const have = readJson(at.root, at.rel);
  if (i.kind === 'own-file' && have !== null && !allPanes(d, have)) throw new HookFileRefused(`${path.join(at.root, at.rel)} holds hooks that are not pane's; pane will not overwrite it: move it away first`);
  const base = i.kind === 'own-file' ? {} : have ?? {};
  // What the CLI needs to nest in pane's sandbox is for agents' homes only, not the person's own use.
  const next = withPaneHooks(d, base, command, env, !o.perProcess);
  const changes: HookFileChange[] = [{ root: at.root, rel: at.rel, text: `${JSON.stringify(next, null, 2)}\n`, own: i.kind !== 'home-settings' }];
  if (i.trust === 'codex-config') changes.push(codexTrustChange(d, at, next));
  return { changes, run, events };
}

function codexTrustChange(d: HookDialect, at: { root: string; rel: string; dirRoot: string }, hooks: Settings): HookFileChange {
  const rel = path.join(path.dirname(at.rel), 'config.toml');
  const toml = readBelow(at.root, rel, { where: WHERE, maxBytes: MAX_CLI_SETTINGS_BYTES }) ?? '';
  const next = withCodexTrust(toml, codexTrust(d, hooks, path.join(at.root, at.rel)));
  if (next === null) throw new HookFileRefused(`${path.join(at.root, rel)} has pane's trust block opened and not closed; pane will not edit it: fix it first`);
  return { root: at.root, rel, text: next, own: false };
}

/** What removing pane's hooks would change: only pane's entries (or its own files) go. */
export function planHookUninstall(d: HookDialect, o: HookPlanOptions): HookPlan {
  const i = d.install;
  if (i.kind === 'notify-command') return { changes: [], run: [], events: [] };
  const at = located(d, o);
  if (lstatBelow(at.root, at.rel, { where: WHERE }) === null) return { changes: [], run: [], events: [] };
  if (i.kind === 'plugin') {
    const have = readBelow(at.root, at.rel, { where: WHERE, maxBytes: MAX_CLI_SETTINGS_BYTES }) ?? '';
    if (!PLUGIN_MARK.test(have)) throw new HookFileRefused(`${path.join(at.root, at.rel)} is not pane's plugin; pane leaves it`);
    return { changes: [{ root: at.root, rel: at.rel, text: null, own: true }], run: [], events: Object.keys(d.events) };
  }
  const have = readJson(at.root, at.rel) ?? {};
  const { settings, removed } = withoutPaneHooks(d, have);
  const changes: HookFileChange[] = [];
  if (i.kind === 'own-file' || i.kind === 'flag-file') {
    if (!allPanes(d, have)) throw new HookFileRefused(`${path.join(at.root, at.rel)} holds hooks that are not pane's; pane leaves it`);
    changes.push({ root: at.root, rel: at.rel, text: null, own: true });
  } else if (removed.length > 0) changes.push({ root: at.root, rel: at.rel, text: `${JSON.stringify(settings, null, 2)}\n`, own: false });
  if (i.trust === 'codex-config' && removed.length > 0) changes.push(codexTrustChange(d, at, settings));
  return { changes, run: [], events: removed.length > 0 || i.kind !== 'home-settings' ? (removed.length > 0 ? removed : Object.keys(d.events)) : [] };
}

/** Writes (or removes) each change through safeFile: no link followed, a temp file renamed over. */
export function applyHookPlan(plan: HookPlan, mode = 0o600): void {
  for (const c of plan.changes) {
    // The root is the CLI's home or pane's data dir (trusted); below it nothing is followed.
    if (c.text !== null) fs.mkdirSync(c.root, { recursive: true, mode: 0o700 });
    if (c.text === null) unlinkBelow(c.root, c.rel, { where: WHERE });
    else writeBelow(c.root, c.rel, c.text, { where: WHERE, mode, mkdir: true });
  }
}
