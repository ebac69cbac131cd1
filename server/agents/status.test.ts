import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compilePatterns, PromptLibrary } from './prompts';
import { foldStates, hookTransition, observeScreen } from './status';

const rec = path.resolve(__dirname, '../../test/agents/recorded');

describe('hook transitions', () => {
  it('walks a recorded Claude Code session through ready, working, needs you, done, needs you (idle prompt) and exited', () => {
    const events = fs.readFileSync(path.join(rec, 'claude-session.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const want = JSON.parse(fs.readFileSync(path.join(rec, 'claude-session.states.json'), 'utf8')) as (string | null)[];
    expect(events.map((e) => hookTransition(e)?.state ?? null)).toEqual(want);
  });

  it('ends a turn an API error cut short (Claude Code’s StopFailure) as done, naming the error, and tells the person', () => {
    const t = hookTransition({ hook_event_name: 'StopFailure', error: 'rate_limit_error: 429 Too Many Requests' });
    expect(t?.state).toBe('done');
    expect(t?.reason).toBe('its turn ended on an error: rate_limit_error: 429 Too Many Requests');
    expect(t?.notify).toMatch(/429/);
    expect(hookTransition({ hook_event_name: 'StopFailure' })?.reason).toBe('its turn ended on an error: an API error');
  });

  it('ignores unknown events and notifications that do not ask the human', () => {
    expect(hookTransition({ hook_event_name: 'PreCompact' })).toBeNull();
    expect(hookTransition({ hook_event_name: 'SomethingNew', x: 1 })).toBeNull();
    expect(hookTransition({})).toBeNull();
    expect(hookTransition({ hook_event_name: 'Notification', message: 'Compacting conversation' })).toBeNull();
    expect(hookTransition({ hook_event_name: 'Notification', message: 'x', notification_type: 'auth_success' })).toBeNull();
  });

  it('marks the transitions worth a notification: needs-you ones only (a finished turn is done, not a call for the person)', () => {
    expect(hookTransition({ hook_event_name: 'Stop' })).toMatchObject({ state: 'done', reason: 'finished its turn' });
    expect(hookTransition({ hook_event_name: 'Stop' })?.notify).toBeUndefined();
    expect(hookTransition({ hook_event_name: 'Notification', notification_type: 'idle_prompt', message: 'Claude is waiting for your input' })).toMatchObject({ state: 'waiting' });
    expect(hookTransition({ hook_event_name: 'Notification', message: 'Claude needs your permission to use Bash' })?.notify).toMatch(/permission/);
    expect(hookTransition({ hook_event_name: 'UserPromptSubmit', prompt: 'x' })?.notify).toBeUndefined();
  });
});

describe('observation by prompt patterns', () => {
  const lib = new PromptLibrary(null);
  const screen = (f: string) => fs.readFileSync(path.join(rec, 'screens', f), 'utf8');
  const cases: [string, string, string][] = [
    ['claude', 'claude-working.txt', 'working'],
    ['claude', 'claude-waiting.txt', 'done'],
    ['claude', 'claude-permission.txt', 'waiting'],
    ['aider', 'aider-waiting.txt', 'done'],
    ['aider', 'aider-question.txt', 'waiting'],
    ['aider', 'aider-idle.txt', 'idle'],
    ['codex', 'codex-working.txt', 'working'],
    ['codex', 'codex-waiting.txt', 'waiting'], // its approval question: needs you
    ['gemini', 'gemini-working.txt', 'working'],
    ['gemini', 'gemini-waiting.txt', 'done'],
  ];
  for (const [cli, file, state] of cases) {
    it(`reads ${file} as ${state} with the ${cli} patterns`, () => {
      expect(observeScreen(screen(file), lib.get(cli)).state).toBe(state);
    });
  }

  it('falls back to the default patterns for an unknown CLI: a question needs you, a shell prompt is done, plain output is idle', () => {
    expect(observeScreen('building...\n$ ', lib.get('nosuchcli')).state).toBe('done');
    expect(observeScreen('overwrite config.json?', lib.get('nosuchcli')).state).toBe('waiting');
    expect(observeScreen('compiled 12 files\n', lib.get(null)).state).toBe('idle');
  });

  it('loads a user pattern file that overrides a built-in one, and reports bad ones by file and field', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-prompts-'));
    fs.writeFileSync(path.join(dir, 'claude.json'), JSON.stringify({ name: 'claude', waiting: ['READY'] }));
    fs.writeFileSync(path.join(dir, 'broken.json'), '{ not json');
    fs.writeFileSync(path.join(dir, 'badre.json'), JSON.stringify({ name: 'badre', waiting: ['(unclosed'] }));
    const user = new PromptLibrary(dir);
    expect(observeScreen('READY', user.get('claude')).state).toBe('waiting');
    expect(user.errors.some((e) => e.includes('broken.json') && e.includes('not valid JSON'))).toBe(true);
    expect(user.errors.some((e) => e.includes('badre.json') && e.includes('waiting.0'))).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('rejects a pattern file with an unknown field', () => {
    expect(compilePatterns({ name: 'x', wating: [] }, 'f').errors[0]).toMatch(/Unrecognized key/);
  });
});

describe('folding several panes into one badge', () => {
  it('shows the state that needs the human most, the oldest of its kind', () => {
    expect(foldStates([{ state: 'working', since: 1 }, { state: 'waiting', since: 5 }, { state: 'waiting', since: 3 }])).toEqual({ state: 'waiting', since: 3 });
    expect(foldStates([{ state: 'exited', since: 1 }, { state: 'idle', since: 9 }])).toEqual({ state: 'idle', since: 9 });
    expect(foldStates([])).toBeNull();
  });
});
