// Hook dialects: the Gemini CLI's events, as recorded from the real CLI (0.61.0, no
// network: SessionStart, BeforeAgent, SessionEnd) and from its published schema where
// it cannot fire them here (tools, notifications, turn end), turned into pane's own by
// apps/gemini.json's dialect; pane's answers written back as Gemini reads them; and
// the settings merge that installs pane's hooks beside the CLI's own.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppFileSchema } from '../../kits/protocol/app';
import { HookDialectSchema, type HookDialect } from '../../kits/protocol/agent';
import { toCliAnswer, toPaneInput, withPaneHooks } from '../../server/agents/dialect';
import { hookTransition } from '../../server/agents/status';
import { tempDirs } from '../tempDirs';

const root = path.resolve(__dirname, '../..');
const app = AppFileSchema.parse(JSON.parse(fs.readFileSync(path.join(root, 'apps/gemini.json'), 'utf8')));
const gemini = app.agent!.hooks as HookDialect;
const recorded = JSON.parse(fs.readFileSync(path.join(__dirname, 'recorded/gemini-0.61.0.json'), 'utf8')) as { events: Record<string, unknown>[] };
const ev = (name: string) => recorded.events.find((e) => e.hook_event_name === name)!;
/** From Gemini CLI's docs/hooks/reference.md (base fields as the real CLI sends them). */
const base = { session_id: '1b109e91-96b8-4722-a29e-3f62ac3d1bca', transcript_path: '/x/chats/session.jsonl', cwd: '/work/proj', timestamp: '2026-11-25T19:54:25.328Z' };

describe('the Gemini dialect (apps/gemini.json)', () => {
  it('is a dialect the schema takes', () => {
    expect(typeof app.agent!.hooks).toBe('object');
    expect(HookDialectSchema.parse(gemini).dialect).toBe('gemini');
  });

  it('maps the recorded SessionStart and BeforeAgent (with its prompt) and SessionEnd to pane’s events, keeping the session id', () => {
    const start = toPaneInput(gemini, ev('SessionStart'))!;
    expect(start).toMatchObject({ hook_event_name: 'SessionStart', cli_event: 'SessionStart', session_id: '1b109e91-96b8-4722-a29e-3f62ac3d1bca', source: 'startup' });
    expect(hookTransition(start)?.state).toBe('ready');
    const prompt = toPaneInput(gemini, ev('BeforeAgent'))!;
    expect(prompt).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'refactor the auth module', session_id: start.session_id });
    expect(hookTransition(prompt)).toMatchObject({ state: 'working', reason: 'prompt: refactor the auth module' });
    expect(hookTransition(toPaneInput(gemini, ev('SessionEnd'))!)?.state).toBe('exited');
  });

  it('maps tool events with the file they name, permission notifications to needs-you, and AfterAgent to a turn done', () => {
    const before = toPaneInput(gemini, { ...base, hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { file_path: '/work/proj/src/auth.ts', content: 'x' } })!;
    expect(before).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Edit', cli_tool: 'write_file', tool_input: { file_path: '/work/proj/src/auth.ts' } });
    // read_file names its file absolute_path in some versions: it becomes pane's file_path (claims).
    const read = toPaneInput(gemini, { ...base, hook_event_name: 'AfterTool', tool_name: 'read_file', tool_input: { absolute_path: '/work/proj/src/db.ts' }, tool_response: {} })!;
    expect(read).toMatchObject({ hook_event_name: 'PostToolUse', tool_input: { absolute_path: '/work/proj/src/db.ts', file_path: '/work/proj/src/db.ts' } });
    const perm = toPaneInput(gemini, { ...base, hook_event_name: 'Notification', notification_type: 'ToolPermission', message: 'Tool run_shell_command requires permission', details: {} })!;
    expect(hookTransition(perm)).toMatchObject({ state: 'waiting', notify: 'Tool run_shell_command requires permission' });
    expect(hookTransition(toPaneInput(gemini, { ...base, hook_event_name: 'AfterAgent', prompt: 'p', prompt_response: 'done' })!)).toMatchObject({ state: 'done', reason: 'finished its turn' });
  });

  it('ignores events it does not map (BeforeModel fires on every model call)', () => {
    expect(toPaneInput(gemini, { ...base, hook_event_name: 'BeforeModel' })).toBeNull();
    expect(toPaneInput(gemini, { ...base, hook_event_name: 'constructor' })).toBeNull();
  });

  it('writes pane’s answer as Gemini reads it: context under its own event name, a deny at the top, an allow as nothing', () => {
    expect(toCliAnswer(gemini, 'BeforeAgent', { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'mail' } })).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'mail' } });
    expect(toCliAnswer(gemini, 'BeforeTool', { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'ada claims src/auth.ts' } })).toEqual({ decision: 'deny', reason: 'ada claims src/auth.ts' });
    expect(toCliAnswer(gemini, 'BeforeTool', { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: '' } })).toBeNull();
    expect(toCliAnswer(gemini, 'BeforeTool', null)).toBeNull();
  });

  it('installs pane’s hooks beside the CLI’s own, replacing only its own on the next launch, and turns Gemini’s tool sandbox off', () => {
    const own = { security: { auth: { selectedType: 'gemini-api-key' } }, hooks: { BeforeAgent: [{ hooks: [{ name: 'mine', type: 'command', command: 'true' }] }] }, ui: { theme: 'x' } };
    const once = withPaneHooks(gemini, own, 'pane hook --app gemini', { PANE_AGENT: 'gem' });
    const twice = withPaneHooks(gemini, once, 'pane hook --app gemini', { PANE_AGENT: 'gem' });
    expect(twice).toEqual(once);
    expect(once.security).toEqual({ auth: { selectedType: 'gemini-api-key' }, toolSandboxing: false });
    expect(once.ui).toEqual({ theme: 'x' });
    const hooks = once.hooks as Record<string, { matcher?: string; hooks: { name: string; command: string; timeout: number; env: Record<string, string> }[] }[]>;
    expect(Object.keys(hooks).sort()).toEqual(Object.keys(gemini.events).sort());
    expect(hooks.BeforeAgent!.map((g) => g.hooks[0]!.name)).toEqual(['mine', 'pane']);
    expect(hooks.BeforeTool![0]).toMatchObject({ matcher: '*', hooks: [{ name: 'pane', type: 'command', command: 'pane hook --app gemini', timeout: 5000, env: { PANE_AGENT: 'gem' } }] });
    expect(hooks.SessionStart![0]!.matcher).toBeUndefined();
  });

  it('refuses a dialect path that leaves the home', () => {
    expect(HookDialectSchema.safeParse({ ...gemini, install: { ...gemini.install, path: '../other/.gemini/settings.json' } }).success).toBe(false);
    expect(HookDialectSchema.safeParse({ ...gemini, install: { ...gemini.install, path: '/etc/gemini-cli/settings.json' } }).success).toBe(false);
  });
});

// ---- every CLI pane ships an app file for (issue 25) ----------------------------------------

import { applyHookPlan, codexTrust, HookFileRefused, planHookInstall, planHookUninstall } from '../../kits/node/hookFiles';
import { toolFiles, WRITE_TOOLS } from '../../server/awareness/hook';

const appOf = (id: string) => AppFileSchema.parse(JSON.parse(fs.readFileSync(path.join(root, `apps/${id}.json`), 'utf8')));
const dialectOf = (id: string) => appOf(id).agent!.hooks as HookDialect;
const recordedOf = (file: string) => JSON.parse(fs.readFileSync(path.join(__dirname, 'recorded', file), 'utf8')) as { source: string; events: Record<string, unknown>[] };
const PROMPT = 'refactor the auth module';

/** Per CLI: its recorded payloads, in order, and the pane event each becomes (null: ignored). */
const cases: { app: string; file: string; expect: (string | null)[]; tool?: string; file_path?: string }[] = [
  { app: 'codex', file: 'codex-0.169.0.json', expect: ['SessionStart', 'UserPromptSubmit', 'SessionEnd'] },
  { app: 'qwen', file: 'qwen-0.24.4.json', expect: ['SessionStart', 'Notification', 'UserPromptSubmit'] },
  { app: 'copilot', file: 'copilot-1.0.102.json', expect: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Notification', 'Stop', 'SessionEnd'], file_path: '/work/proj/src/auth.ts' },
  { app: 'cursor', file: 'cursor.json', expect: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'], file_path: '/work/proj/src/auth.ts' },
  { app: 'goose', file: 'goose.json', expect: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'], file_path: '/work/proj/src/auth.ts' },
  { app: 'opencode', file: 'opencode.json', expect: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Notification', 'Stop', 'SessionEnd'], file_path: '/work/proj/src/auth.ts' },
  { app: 'amp', file: 'amp.json', expect: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'], file_path: '/work/proj/src/auth.ts' },
  { app: 'aider', file: 'aider.json', expect: ['Stop'] },
];

describe('every shipped agent CLI’s dialect, driven by its recorded payloads', () => {
  it('each agent app file names a dialect the schema takes (claude, codex, gemini, copilot, cursor, qwen, goose, opencode, amp, aider)', () => {
    for (const id of ['claude', 'codex', 'gemini', 'copilot', 'cursor', 'qwen', 'goose', 'opencode', 'amp', 'aider']) expect(HookDialectSchema.parse(dialectOf(id)).dialect).toBe(id);
  });

  for (const c of cases) {
    it(`${c.app}: its events become pane’s, with the session id, the prompt’s text, the tool’s file and the states they mean`, () => {
      const d = dialectOf(c.app);
      const evs = recordedOf(c.file).events;
      const mapped = evs.map((e) => toPaneInput(d, e));
      expect(mapped.map((m) => (m === null ? null : m.hook_event_name))).toEqual(c.expect);
      const session = mapped.find((m) => m?.session_id !== undefined)?.session_id;
      if (c.app !== 'aider') {
        expect(typeof session).toBe('string');
        for (const m of mapped) if (m) expect(m.session_id).toBe(session);
        const prompt = mapped.find((m) => m?.hook_event_name === 'UserPromptSubmit')!;
        expect(prompt.prompt).toBe(PROMPT);
        expect(hookTransition(prompt)).toMatchObject({ state: 'working', reason: `prompt: ${PROMPT}` });
      }
      if (c.file_path) {
        for (const m of mapped.filter((x) => x?.hook_event_name === 'PreToolUse' || x?.hook_event_name === 'PostToolUse')) {
          expect((m!.tool_input as Record<string, unknown>).file_path).toBe(c.file_path);
          // Its write tool is pane's Edit: awareness claims the file, and warns another agent's edit into it.
          expect(m!.tool_name).toBe('Edit');
          expect(WRITE_TOOLS.has(m!.tool_name as string)).toBe(true);
          expect(toolFiles(m!)).toEqual([c.file_path]);
        }
      }
      const stop = mapped.find((m) => m?.hook_event_name === 'Stop');
      // A turn done: pane's state for it is the status machine's (server/agents/status.ts), never "working".
      if (stop) expect(hookTransition(stop)).toMatchObject({ reason: 'finished its turn' });
      if (stop) expect(hookTransition(stop)!.state).not.toBe('working');
      const end = mapped.find((m) => m?.hook_event_name === 'SessionEnd');
      if (end) expect(hookTransition(end)?.state).toBe('exited');
      const waiting = mapped.find((m) => m?.hook_event_name === 'Notification' && m.notification_type === 'permission_prompt');
      if (waiting) expect(hookTransition(waiting)?.state).toBe('waiting');
      if (c.app === 'cursor') expect(mapped[0]!.cwd).toBe('/work/proj');
      if (c.app === 'goose') expect(mapped[0]!.cwd).toBe('/work/proj');
    });
  }

  it('Qwen’s auth notification is not “needs you”; its permission prompt is', () => {
    const d = dialectOf('qwen');
    const auth = toPaneInput(d, recordedOf('qwen-0.24.4.json').events[1]!)!;
    expect(hookTransition(auth)?.state).not.toBe('waiting');
    expect(hookTransition(toPaneInput(d, { ...auth, hook_event_name: 'Notification', notification_type: 'permission_prompt', message: 'Qwen wants to run a shell command' })!)?.state).toBe('waiting');
  });

  it('pane’s answer is written in each CLI’s form, context only where it reads it', () => {
    const ctx = (event: string) => ({ hookSpecificOutput: { hookEventName: event, additionalContext: 'ada is on auth too' } });
    const deny = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'ada claims src/auth.ts' } };
    expect(toCliAnswer(dialectOf('codex'), 'UserPromptSubmit', ctx('UserPromptSubmit'))).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ada is on auth too' } });
    expect(toCliAnswer(dialectOf('codex'), 'PreToolUse', deny)).toEqual(deny);
    expect(toCliAnswer(dialectOf('qwen'), 'UserPromptSubmit', ctx('UserPromptSubmit'))).toEqual(ctx('UserPromptSubmit'));
    expect(toCliAnswer(dialectOf('copilot'), 'sessionStart', ctx('SessionStart'))).toEqual({ additionalContext: 'ada is on auth too' });
    expect(toCliAnswer(dialectOf('copilot'), 'userPromptSubmitted', ctx('UserPromptSubmit'))).toBeNull();
    expect(toCliAnswer(dialectOf('copilot'), 'preToolUse', deny)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'ada claims src/auth.ts' });
    expect(toCliAnswer(dialectOf('cursor'), 'preToolUse', deny)).toEqual({ permission: 'deny', user_message: 'ada claims src/auth.ts', agent_message: 'ada claims src/auth.ts' });
    expect(toCliAnswer(dialectOf('cursor'), 'sessionStart', ctx('SessionStart'))).toEqual({ additional_context: 'ada is on auth too' });
    for (const id of ['goose', 'aider']) expect(toCliAnswer(dialectOf(id), Object.keys(dialectOf(id).events)[0]!, ctx('SessionStart'))).toBeNull();
    // opencode's and Amp's plugins take no context: pane drops it rather than send what nobody reads.
    expect(toCliAnswer(dialectOf('opencode'), 'chat.message', ctx('UserPromptSubmit'))).toBeNull();
    for (const id of ['goose', 'aider', 'opencode', 'amp']) expect(dialectOf(id).context).toEqual([]);
  });

  it('Codex’s trust for pane’s entries is the hash Codex 0.169.0 computes (its hooks/list printed it)', () => {
    const rec = (recordedOf('codex-0.169.0.json') as unknown as { trust: { entry: { hooks: { command: string }[] }; currentHash: string; key: string } }).trust;
    const d: HookDialect = { ...dialectOf('codex'), events: { PreToolUse: 'PreToolUse' } };
    // The recorded entry runs a dump script; pane's trust is computed the same way for its own command.
    const settings = { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: rec.entry.hooks[0]!.command, timeout: 5 }] }] } };
    const paneLike = { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'pane hook', timeout: 5 }] }] } };
    expect(codexTrust(d, settings, '/tmp/cxrec/home/.codex/hooks.json')).toEqual([]); // not pane's: no trust
    const t = codexTrust(d, paneLike, '/h/.codex/hooks.json');
    expect(t).toHaveLength(1);
    expect(t[0]!.key).toBe('/h/.codex/hooks.json:pre_tool_use:0:0');
    // Same canonical form as the recorded one: swap in the recorded command and the hash is Codex's.
    const crypto = require('node:crypto') as typeof import('node:crypto');
    const canon = `{"event_name":"pre_tool_use","hooks":[{"async":false,"command":${JSON.stringify(rec.entry.hooks[0]!.command)},"timeout":5,"type":"command"}],"matcher":"*"}`;
    expect(`sha256:${crypto.createHash('sha256').update(canon).digest('hex')}`).toBe(rec.currentHash);
    const mine = `{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"pane hook","timeout":5,"type":"command"}],"matcher":"*"}`;
    expect(t[0]!.hash).toBe(`sha256:${crypto.createHash('sha256').update(mine).digest('hex')}`);
  });
});

describe('pane hook install|uninstall --agent: per process where the CLI allows it, else beside the person’s own', () => {
  const tmp = tempDirs('pane-hookinst-');
  const opts = (id: string, home: string, data: string) => ({ home, pane: 'pane', appId: id, dataDir: data, appFile: path.join(root, `apps/${id}.json`), perProcess: true, cliEnv: {} });
  const userFiles: Record<string, { rel: string; own: unknown }> = {
    codex: { rel: '.codex/hooks.json', own: { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] } } },
    gemini: { rel: '.gemini/settings.json', own: { ui: { theme: 'x' }, hooks: { AfterAgent: [{ hooks: [{ name: 'mine', type: 'command', command: 'true' }] }] } } },
    qwen: { rel: '.qwen/settings.json', own: { model: { name: 'q' }, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } } },
    cursor: { rel: '.cursor/hooks.json', own: { version: 1, hooks: { stop: [{ command: './audit.sh' }] } } },
  };

  for (const [id, u] of Object.entries(userFiles)) {
    it(`${id}: merges pane’s entries into ~/${u.rel} keeping the person’s, removes only pane’s, and refuses a file it cannot parse`, () => {
      const home = tmp();
      const data = tmp();
      const file = path.join(home, u.rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(u.own));
      const d = dialectOf(id);
      const printed = planHookInstall(d, opts(id, home, data));
      expect(fs.readFileSync(file, 'utf8')).toBe(JSON.stringify(u.own)); // --print changes nothing
      applyHookPlan(printed);
      const after = JSON.parse(fs.readFileSync(file, 'utf8'));
      expect(JSON.stringify(after)).toContain("pane hook --app '" + id + "'");
      expect(Object.keys(after.hooks)).toEqual(expect.arrayContaining(Object.keys(d.events)));
      for (const [k, v] of Object.entries(u.own as Record<string, unknown>)) if (k !== 'hooks') expect(after[k]).toEqual(v);
      const ownEvent = Object.keys((u.own as { hooks: Record<string, unknown[]> }).hooks)[0]!;
      expect(JSON.stringify(after.hooks[ownEvent])).toContain(JSON.stringify((u.own as { hooks: Record<string, unknown[]> }).hooks[ownEvent]![0]));
      // Twice is once.
      applyHookPlan(planHookInstall(d, opts(id, home, data)));
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(after);
      if (id === 'codex') expect(fs.readFileSync(path.join(home, '.codex/config.toml'), 'utf8')).toMatch(/\[hooks\.state\."[^"]+hooks\.json:session_start:0:0"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"/);
      applyHookPlan(planHookUninstall(d, opts(id, home, data)));
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(u.own);
      if (id === 'codex') expect(fs.readFileSync(path.join(home, '.codex/config.toml'), 'utf8')).not.toContain('pane');
      fs.writeFileSync(file, '{ "hooks": { oops');
      expect(() => planHookInstall(d, opts(id, home, data))).toThrow(HookFileRefused);
      expect(() => planHookUninstall(d, opts(id, home, data))).toThrow(HookFileRefused);
      expect(fs.readFileSync(file, 'utf8')).toBe('{ "hooks": { oops');
    });
  }

  it('codex: a person’s own trust table for pane’s key is left to them, and their config.toml is kept', () => {
    const home = tmp();
    fs.mkdirSync(path.join(home, '.codex'));
    fs.writeFileSync(path.join(home, '.codex/config.toml'), 'model = "gpt-5"\n');
    applyHookPlan(planHookInstall(dialectOf('codex'), opts('codex', home, tmp())));
    const toml = fs.readFileSync(path.join(home, '.codex/config.toml'), 'utf8');
    expect(toml.startsWith('model = "gpt-5"\n')).toBe(true);
    applyHookPlan(planHookUninstall(dialectOf('codex'), opts('codex', home, tmp())));
    expect(fs.readFileSync(path.join(home, '.codex/config.toml'), 'utf8')).toBe('model = "gpt-5"\n');
  });

  it('copilot and goose: pane’s own file in the directory the CLI reads whole; a file there that is not pane’s is refused', () => {
    for (const [id, rel] of [['copilot', '.copilot/hooks/pane.json'], ['goose', '.agents/plugins/pane/hooks/hooks.json']] as const) {
      const home = tmp();
      const d = dialectOf(id);
      applyHookPlan(planHookInstall(d, opts(id, home, tmp())));
      const f = JSON.parse(fs.readFileSync(path.join(home, rel), 'utf8'));
      if (id === 'copilot') {
        expect(f.version).toBe(1);
        expect(f.hooks.userPromptSubmitted).toEqual([{ type: 'command', bash: "pane hook --app 'copilot' --event 'userPromptSubmitted'", timeoutSec: 5 }]);
      } else expect(f.hooks.UserPromptSubmit[0].hooks[0].command).toBe("pane hook --app 'goose'");
      applyHookPlan(planHookUninstall(d, opts(id, home, tmp())));
      expect(fs.existsSync(path.join(home, rel))).toBe(false);
      fs.writeFileSync(path.join(home, rel), JSON.stringify({ version: 1, hooks: { sessionStart: [{ type: 'command', bash: 'mine', command: 'mine' }] } }));
      expect(() => planHookInstall(d, opts(id, home, tmp()))).toThrow(/not pane's/);
    }
  });

  it('claude and opencode: per process (a --settings file, an extra OPENCODE_CONFIG_DIR) with nothing in the home', () => {
    const home = tmp();
    const data = tmp();
    const claude = planHookInstall(dialectOf('claude'), opts('claude', home, data));
    expect(claude.run).toEqual([`--settings ${path.join(data, 'cli-hooks/claude/claude-settings.json')}`]);
    const oc = planHookInstall(dialectOf('opencode'), opts('opencode', home, data));
    expect(oc.run).toEqual([`OPENCODE_CONFIG_DIR=${path.join(data, 'cli-hooks/opencode')}`]);
    applyHookPlan(claude);
    applyHookPlan(oc);
    expect(fs.readdirSync(home)).toEqual([]);
    expect(fs.readFileSync(path.join(data, 'cli-hooks/opencode/plugins/pane.js'), 'utf8')).toContain("'hook', '--app', 'opencode'");
    expect(Object.keys(JSON.parse(fs.readFileSync(path.join(data, 'cli-hooks/claude/claude-settings.json'), 'utf8')).hooks)).toEqual(Object.keys(dialectOf('claude').events));
    applyHookPlan(planHookUninstall(dialectOf('opencode'), opts('opencode', home, data)));
    expect(fs.existsSync(path.join(data, 'cli-hooks/opencode/plugins/pane.js'))).toBe(false);
  });

  it('aider: nothing written, only the flag to start it with', () => {
    const p = planHookInstall(dialectOf('aider'), opts('aider', tmp(), tmp()));
    expect(p.changes).toEqual([]);
    expect(p.run).toEqual([`--notifications-command "pane hook --app 'aider' --event 'notification'"`]);
  });

  it('a link planted where the CLI’s file goes is never written through', () => {
    const home = tmp();
    const victim = path.join(tmp(), 'victim.json');
    fs.writeFileSync(victim, '{"mine":true}');
    fs.mkdirSync(path.join(home, '.qwen'));
    fs.symlinkSync(victim, path.join(home, '.qwen/settings.json'));
    expect(() => applyHookPlan(planHookInstall(dialectOf('qwen'), opts('qwen', home, tmp())))).toThrow(/link/);
    expect(fs.readFileSync(victim, 'utf8')).toBe('{"mine":true}');
  });
});
