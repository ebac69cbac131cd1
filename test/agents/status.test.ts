// Live agent status on a real server: from recorded hook JSON through agent/hook
// (with and without a pane), and from observing a real program's output in a PTY.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../server/harness';
import { agentHarness, type AgentHarness } from './helpers';

let h: AgentHarness;
beforeEach(async () => {
  h = await agentHarness();
});
afterEach(async () => {
  await h.close();
});

const recorded = fs
  .readFileSync(path.resolve(__dirname, 'recorded/claude-session.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('status from hooks', () => {
  it('moves an agent pane through the recorded session and mirrors it in the pane attrs', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    const { pane } = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'ada' }, launch: { program: '/bin/cat', args: [] } });
    const ada = await h.as('ada');
    const seen: (string | null)[] = [];
    for (const input of recorded) {
      const r = await ada.call('agent/hook', { input, pane });
      expect(r.agent).toBe('ada');
      seen.push(r.state);
    }
    expect(seen).toEqual(['ready', 'working', 'working', 'working', 'waiting', 'working', 'working', 'done', 'waiting', 'waiting', 'exited']);
    const changes = h.events.filter((e) => e.event === 'agent/state-changed' && e.data.name === 'ada').map((e) => e.data.state);
    expect(changes).toEqual(['ready', 'working', 'waiting', 'working', 'done', 'waiting', 'exited']);
    // Needs you: the permission, then the idle prompt; the finished turn (Stop) is done, not a call.
    const waits = h.events.filter((e) => e.event === 'agent/waiting');
    expect(waits.length).toBe(2);
    expect(waits[0]!.data).toMatchObject({ name: 'ada', pane, id: `testhost:${pane}` });
    expect(String(waits[0]!.data.message)).toMatch(/permission to use Edit/);
    const p = await c.call('pane/get', { pane });
    expect(p.attrs).toMatchObject({ agent: 'ada', 'agent.state': 'exited', 'agent.source': 'hooks' });
    expect(p.signature).toBe('com.pane.ai.agent.ada');
    const info = await c.call('agent/get', { name: 'ada' });
    expect(info.lastPrompt).toBe('fix the login redirect so it keeps the query string');
  });

  it('lists an agent that reports through hooks with no pane, under a name from its project', async () => {
    const c = await h.connect();
    const r = await c.call('agent/hook', { input: recorded[0]! });
    expect(r).toMatchObject({ agent: 'claude-shop', state: 'ready' });
    // SessionStart tells the agent who it is and how the human writes to it.
    const ctx = (r.output as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput;
    expect(ctx.hookEventName).toBe('SessionStart');
    expect(ctx.additionalContext).toMatch(/You are the agent "claude-shop" in pane[\s\S]*answer them by running `pane write 'your answer'`/);
    await c.call('agent/hook', { input: recorded[1]! });
    const info = await c.call('agent/get', { name: 'claude-shop' });
    expect(info).toMatchObject({ account: false, state: 'working', source: 'hooks', panes: [] });
    expect(info.sessions).toEqual([expect.objectContaining({ id: recorded[0]!.session_id, cwd: '/home/me/src/shop', state: 'working' })]);
    // A second session in the same project is a second agent, not a merge.
    const other = await c.call('agent/hook', { input: { ...recorded[0]!, session_id: 'another' } });
    expect(other.agent).toBe('claude-shop-2');
    expect((await c.call('agent/list', {})).agents.map((a) => a.name)).toEqual(['claude-shop', 'claude-shop-2']);
    // Another CLI's hooks (`pane hook --app gemini`) name it after that CLI, not Claude Code (it read claude-shop-3).
    const gemini = await c.call('agent/hook', { app: 'gemini', input: { hook_event_name: 'SessionStart', session_id: 'g1', cwd: '/home/me/src/shop' } });
    expect(gemini.agent).toBe('gemini-shop');
    expect((await c.call('agent/get', { name: 'gemini-shop' })).app).toBe('gemini');
    // An app id that cannot start a name (digits, dots) keeps what can; none left: Claude Code's.
    expect((await c.call('agent/hook', { app: '9.Odd_App', input: { hook_event_name: 'SessionStart', session_id: 'o1', cwd: '/home/me/src/shop' } })).agent).toBe('odd-app-shop');
    expect((await c.call('agent/hook', { app: '42', input: { hook_event_name: 'SessionStart', session_id: 'n1', cwd: '/srv/x' } })).agent).toBe('claude-x');
  });

  it('treats an ordinary pane as the agent’s while a CLI started there by hand reports, and lets it go at SessionEnd', async () => {
    const c = await h.connect();
    const shell = (await c.call('pane/list', {})).panes[0]!;
    const r = await c.call('agent/hook', { pane: shell.n, input: recorded[0]! });
    expect(r.agent).toBe('claude-shop');
    await c.call('agent/hook', { pane: shell.n, input: recorded[1]! });
    expect((await c.call('pane/get', { pane: shell.n })).attrs).toMatchObject({ agent: 'claude-shop', 'agent.state': 'working' });
    expect((await c.call('agent/get', { name: 'claude-shop' })).panes.map((p) => p.pane)).toEqual([shell.n]);
    await c.call('agent/hook', { pane: shell.n, input: recorded.at(-1)! });
    const after = await c.call('pane/get', { pane: shell.n });
    expect(Object.keys(after.attrs).filter((k) => k.startsWith('agent'))).toEqual([]);
    expect(after.signature).toBe('com.pane.terminal');
    expect((await c.call('agent/get', { name: 'claude-shop' })).state).toBe('exited');
  });

  it('answers unknown events gracefully, with no output and no state change', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    const r = await c.call('agent/hook', { agent: 'ada', input: { hook_event_name: 'FutureEvent', session_id: 'x', anything: [1, 2] } });
    expect(r).toEqual({ agent: 'ada', state: 'idle', output: null });
  });

  it('adds what hook contributors say: context joined, the strongest permission decision', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    h.svc.addHookContributor((ev) => (ev.event === 'PreToolUse' ? { additionalContext: 'bob (top-right) holds src/auth', permission: { decision: 'ask', reason: 'bob holds it' } } : undefined));
    h.svc.addHookContributor((ev) => (ev.event === 'PreToolUse' ? { permission: { decision: 'allow', reason: 'fine' } } : undefined));
    h.svc.addHookContributor(() => new Promise(() => undefined)); // never answers: left out after its budget
    const r = await c.call('agent/hook', { agent: 'ada', input: { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Edit' } });
    expect(r.output).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'bob holds it', additionalContext: 'bob (top-right) holds src/auth' } });
  });
});

describe('status from observation', () => {
  it('sees output as working, its first prompt after silence as ready (no turn yet), a question as needs you (observed), silence without a prompt as idle, and the exit', async () => {
    const c = await h.connect();
    // A stand-in agent CLI: busy output, then the demo prompt; after input, output, then silence.
    const script = 'for i in 1 2 3 4 5 6; do echo "thinking $i"; sleep 0.15; done; printf "demo> "; read x; printf "overwrite it? [y/n] "; read y; echo "ok $x"; sleep 4; exit 0';
    const { pane } = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'obs', 'agent.prompts': 'demo-agent' }, launch: { program: '/bin/bash', args: ['-c', script] } });
    const state = async () => (await c.call('agent/get', { name: 'obs' })).state;
    await until('working', async () => (await state()) === 'working');
    await until('ready at its first prompt', async () => (await state()) === 'ready');
    expect(h.events.some((e) => e.event === 'agent/waiting' && e.data.name === 'obs')).toBe(false);
    expect((await c.call('agent/get', { name: 'obs' })).source).toBe('observed');
    await c.call('pane/input', { pane, data: 'go\r' });
    await until('needs you at its question', async () => (await state()) === 'waiting');
    expect(h.events.some((e) => e.event === 'agent/waiting' && e.data.name === 'obs')).toBe(true);
    expect((await c.call('agent/get', { name: 'obs' })).panes[0]).toMatchObject({ state: 'waiting', stateSource: 'observed' });
    await c.call('pane/input', { pane, data: 'y\r' });
    await until('idle after silence with no prompt', async () => (await state()) === 'idle');
    await until('exited', async () => (await state()) === 'exited');
    const seq = h.events.filter((e) => e.event === 'agent/state-changed' && e.data.name === 'obs').map((e) => e.data.state);
    expect(seq.slice(0, 2)).toEqual(['working', 'ready']);
    expect(seq.at(-1)).toBe('exited');
    expect(seq).toContain('idle');
  });

  it('says done at its prompt only after a turn: ready at the first prompt, working on the line typed, done at the next prompt', async () => {
    const c = await h.connect();
    const script = 'echo banner; printf "demo> "; read x; for i in 1 2 3 4; do echo "working on $x $i"; sleep 0.15; done; printf "demo> "; read y';
    const { pane } = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'turns', 'agent.prompts': 'demo-agent' }, launch: { program: '/bin/bash', args: ['-c', script] } });
    const state = async () => (await c.call('agent/get', { name: 'turns' })).state;
    await until('ready at its first prompt', async () => (await state()) === 'ready');
    await c.call('pane/input', { pane, data: 'the task\r' });
    await until('done at its prompt after the turn', async () => (await state()) === 'done');
    const seq = h.events.filter((e) => e.event === 'agent/state-changed' && e.data.name === 'turns').map((e) => e.data.state);
    expect(seq.slice(seq.indexOf('ready'))).toEqual(['ready', 'working', 'done']);
  });

  it('stops guessing once the pane reports through hooks', async () => {
    const c = await h.connect();
    const { pane } = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'coop' }, launch: { program: '/bin/cat', args: [] } });
    await c.call('agent/hook', { agent: 'coop', pane, input: { hook_event_name: 'Stop', session_id: 's' } });
    await c.call('pane/input', { pane, data: 'lots of output\r' });
    await new Promise((r) => setTimeout(r, 300));
    expect((await c.call('agent/get', { name: 'coop' })).state).toBe('done');
    expect((await c.call('agent/get', { name: 'coop' })).panes[0]!.stateSource).toBe('reported');
  });

  it('marks the agent exited when its last pane closes', async () => {
    const c = await h.connect();
    const { pane } = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'gone' }, launch: { program: '/bin/cat', args: [] } });
    await c.call('pane/close', { pane });
    const info = await c.call('agent/get', { name: 'gone' });
    expect(info).toMatchObject({ state: 'exited', panes: [] });
  });
});
