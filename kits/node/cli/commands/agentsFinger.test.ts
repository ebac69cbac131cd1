import { describe, expect, it } from 'vitest';
import type { AgentInfo } from '../../../protocol/agent';
import { ago } from '../format';
import { fingerAll, fingerLong, fingerShort } from './agentsFinger';

const now = new Date(2026, 10, 21, 14, 30, 0).getTime();
const base: AgentInfo = {
  name: 'ada',
  account: true,
  home: '/data/agents/ada',
  app: 'claude',
  project: '/src/shop',
  state: 'working',
  since: now - 90_000,
  source: 'hooks',
  panes: [{ pane: 3, id: 'devbox:3', quadrant: 'top-left', state: 'working', since: now - 90_000, cwd: '/src/shop', worktree: null }],
  sessions: [],
  lastPrompt: 'fix the login redirect',
  lastPromptAt: now - 95_000,
  topics: ['auth', 'jwt'],
  claims: ['src/auth/login.ts'],
  unread: 2,
  plan: 'Fixing login.\nThen tests.\n',
};

describe('finger', () => {
  it('prints an agent at work like finger(1): login, directory, state, pane with quadrant, prompt, topics, claims, mail, plan', () => {
    expect(fingerLong(base, now).split('\n')).toEqual([
      'Login: ada                              App: claude',
      'Directory: /data/agents/ada             Project: /src/shop',
      'State: working since 14:28 (1m), reported through hooks',
      'On pane devbox:3 (top-left): working since 14:28 (1m), cwd /src/shop',
      'Last prompt (14:28): fix the login redirect',
      'Topics: auth, jwt',
      'Claims: src/auth/login.ts',
      '2 unread mails.',
      'Plan:',
      '  Fixing login.',
      '  Then tests.',
    ]);
  });

  it('names whom the agent converges with, strongest first, from the open predictions; never for a joined host’s agent', () => {
    const p = (b: string, confidence: number, topics: string[]) => ({ id: `p-${b}`, type: 'approaching' as const, a: 'ada', b, topics, domain: null, confidence, distance: 0, createdAt: now, message: '' });
    const predictions = [p('gem', 0.3, ['token']), p('qwen', 0.73, ['token', 'refresh', 'token.ts']), p('bob', 0.5, ['css'])] as never[];
    expect(fingerLong(base, now, predictions).split('\n')).toContain('Converging with: qwen 73% on token, refresh, token.ts (approaching); bob 50% on css (approaching); gem 30% on token (approaching)');
    expect(fingerLong({ ...base, host: 'box' }, now, predictions)).not.toMatch(/Converging/);
    expect(fingerLong(base, now)).not.toMatch(/Converging/);
  });

  it('says "needs you (observed)" for an agent waiting for the person, and where that state came from', () => {
    const w = { ...base, state: 'waiting' as const, source: 'observed' as const, panes: [{ ...base.panes[0]!, state: 'waiting' as const, stateSource: 'observed' as const }] };
    expect(fingerLong(w, now)).toMatch(/State: needs you \(observed\) since/);
    expect(fingerLong(w, now)).toMatch(/On pane devbox:3 \(top-left\): needs you \(observed\) since/);
    const d = { ...base, state: 'done' as const, panes: [{ ...base.panes[0]!, state: 'done' as const, stateSource: 'reported' as const }] };
    expect(fingerLong(d, now)).toMatch(/State: done \(reported\) since/);
  });

  it('shows an idle agent with no panes, no mail and no plan', () => {
    const text = fingerLong({ ...base, state: 'idle', source: 'none', panes: [], lastPrompt: null, lastPromptAt: null, topics: [], claims: [], unread: 0, plan: '' }, now);
    expect(text).toMatch(/State: idle since 14:28 \(1m\)\n/);
    expect(text).toMatch(/No panes\./);
    expect(text).toMatch(/No unread mail\.\nNo Plan\.$/);
  });

  it('shows an exited agent observed from its output', () => {
    const text = fingerLong({ ...base, state: 'exited', source: 'observed', panes: [{ ...base.panes[0]!, state: 'exited' }] }, now);
    expect(text).toMatch(/State: exited since .*observed from its output/);
    expect(text).toMatch(/\(top-left\): exited since/);
  });

  it('lists a hook-only agent by its session, without account lines', () => {
    const text = fingerLong({ ...base, account: false, home: null, app: null, panes: [], sessions: [{ id: '9b1c2d3e-0000-4000', cwd: '/src/x', state: 'waiting', since: now }] }, now);
    expect(text).toMatch(/Directory: \(no account: known from hooks\)/);
    expect(text).toMatch(/Hook session 9b1c2d3e-000 \(no pane\): needs you/);
    expect(text).not.toMatch(/mail/);
  });

  it('prints one line per agent with the short form, and a hint when there are none', () => {
    const rows = fingerShort([base, { ...base, name: 'bob', state: 'waiting', panes: [], unread: 0 }], now);
    expect(rows[0]).toMatch(/^Login\s+State\s+Since\s+Panes\s+Mail\s+Topics\s+Last prompt$/);
    expect(rows[1]).toMatch(/^ada\s+● working\s+1m\s+3 top-left\s+2\s+auth,jwt\s+fix the login redirect$/);
    expect(rows[2]).toMatch(/^bob\s+◆ needs you/);
    expect(fingerAll([])).toMatch(/No agents\. Add one with/);
    // A guest sees no agent by design: it is not told to add one.
    expect(fingerAll([], Date.now(), [], true)).toBe('No agents here for a guest: an attach grant shows one session’s panes, not its agents.');
  });

  it('writes durations short', () => {
    expect([ago(4000), ago(125_000), ago(3 * 3600_000 + 5 * 60_000), ago(50 * 3600_000)]).toEqual(['4s', '2m', '3h05m', '2d']);
  });
});
