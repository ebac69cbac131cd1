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
    expect(hookTransition(start)?.state).toBe('waiting');
    const prompt = toPaneInput(gemini, ev('BeforeAgent'))!;
    expect(prompt).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'refactor the auth module', session_id: start.session_id });
    expect(hookTransition(prompt)).toMatchObject({ state: 'working', reason: 'prompt: refactor the auth module' });
    expect(hookTransition(toPaneInput(gemini, ev('SessionEnd'))!)?.state).toBe('exited');
  });

  it('maps tool events with the file they name, permission notifications to needs-you, and AfterAgent to a turn done', () => {
    const before = toPaneInput(gemini, { ...base, hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { file_path: '/work/proj/src/auth.ts', content: 'x' } })!;
    expect(before).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'write_file', tool_input: { file_path: '/work/proj/src/auth.ts' } });
    // read_file names its file absolute_path in some versions: it becomes pane's file_path (claims).
    const read = toPaneInput(gemini, { ...base, hook_event_name: 'AfterTool', tool_name: 'read_file', tool_input: { absolute_path: '/work/proj/src/db.ts' }, tool_response: {} })!;
    expect(read).toMatchObject({ hook_event_name: 'PostToolUse', tool_input: { absolute_path: '/work/proj/src/db.ts', file_path: '/work/proj/src/db.ts' } });
    const perm = toPaneInput(gemini, { ...base, hook_event_name: 'Notification', notification_type: 'ToolPermission', message: 'Tool run_shell_command requires permission', details: {} })!;
    expect(hookTransition(perm)).toMatchObject({ state: 'waiting', notify: 'Tool run_shell_command requires permission' });
    expect(hookTransition(toPaneInput(gemini, { ...base, hook_event_name: 'AfterAgent', prompt: 'p', prompt_response: 'done' })!)).toMatchObject({ state: 'waiting', reason: 'finished its turn' });
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
