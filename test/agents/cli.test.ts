// The agent commands end to end: a real `pane serve`, the built CLI as child
// processes, agent tokens in the environment as an agent pane has them, and
// `pane hook` with and without a server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, collect, servePerFile, until } from '../cli/harness';

const s = servePerFile();

const dataDir = () => path.join(s.dir, '.local', 'share', 'pane');
/** The environment an agent pane gives its programs. */
const agentEnv = (name: string) =>
  cleanEnv({ PANE_AGENT: name, PANE_TOKEN: fs.readFileSync(path.join(dataDir(), 'agents', name, '.token'), 'utf8').trim(), PANE_SOCKET: s.socket });

/** The agent/changed events for `name` among a `pane watch`'s JSON lines. */
function agentChanges(out: string, name: string) {
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { event: string; data: { agent: { name: string; lastPrompt?: string; state?: string; topics: string[] } } })
    .filter((e) => e.event === 'agent/changed' && e.data.agent.name === name);
}

describe('pane agent / finger / access / mail on the command line', () => {
  it('adds, lists and fingers an agent, and refuses a bad name as a usage error', () => {
    const add = s.pane(['agent', 'add', 'ada', '--plan', 'Reviewing PR 12', '--project', s.dir]);
    expect(add.stderr).toBe('');
    expect(add.stdout).toMatch(/^ada: home .*agents\/ada\n$/);
    expect(s.pane(['agent', 'ls']).stdout).toMatch(/^Login\s+State.*\nada\s+○ idle/);
    const f = s.pane(['finger', 'ada']);
    expect(f.status).toBe(0);
    expect(f.stdout).toMatch(/^Login: ada\s+App: -\n/);
    expect(f.stdout).toMatch(/No panes\.\nNo unread mail\.\nPlan:\n {2}Reviewing PR 12\n$/);
    expect(s.pane(['access', 'ada']).stdout).toMatch(/write panes: {2}self/);
    const bad = s.pane(['agent', 'add', 'Bad Name']);
    expect([bad.status, bad.stderr]).toEqual([2, expect.stringMatching(/agent name is a lowercase letter/)]);
  });

  it('mails from stdin and shows the unread count in finger', () => {
    const r = s.pane(['mail', '-s', 'review this PR', 'ada'], { input: 'PR 12, please\n' });
    expect(r.stdout).toBe('mailed ada (1 unread)\n');
    expect(s.pane(['finger', 'ada']).stdout).toMatch(/1 unread mail\./);
    const inbox = s.pane(['mail'], { env: agentEnv('ada') });
    expect(inbox.stdout).toMatch(/^From \S+ .*\nSubject: review this PR\n\nPR 12, please\n/);
    expect(s.pane(['finger', 'ada']).stdout).toMatch(/No unread mail\./);
  });

  it('refuses, as the agent, what its .access forbids: exit 1, a denied message and a line in its log', () => {
    const r = s.pane(['close', '-t', '1'], { env: agentEnv('ada') });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^pane: denied: ada's \.access panes\.write does not include pane 1; agent ada may not write pane 1 \(com\.pane\.terminal\) with pane\/close/);
    expect(s.pane(['ls']).stdout).toMatch(/com\.pane\.terminal/);
    expect(fs.readFileSync(path.join(dataDir(), 'agents', 'ada', 'log'), 'utf8')).toMatch(/denied pane\/close/);
    const stop = s.pane(['server', 'stop'], { env: agentEnv('ada') });
    expect(stop.status).not.toBe(0);
    expect(s.pane(['ls']).status).toBe(0);
  });

  it('edits and prints a plan, as the agent for itself', () => {
    expect(s.pane(['plan', 'ada', 'Done', 'with', 'PR', '12'], { env: agentEnv('ada') }).status).toBe(0);
    expect(s.pane(['plan', 'ada']).stdout).toBe('Done with PR 12\n');
  });
});

describe('pane peers', () => {
  it('opens a live peers pane that lists every agent and redraws when one changes state', async () => {
    s.pane(['agent', 'add', 'zed']);
    const r = s.pane(['peers']);
    expect(r.status).toBe(0);
    const id = r.stdout.trim();
    const screen = () => s.pane(['screen', '-t', id]).stdout;
    await until('the peers list', () => /pane peers — \d+ agents?\b/.test(screen()) && /zed\s+○ idle/.test(screen()), 20_000);
    s.pane(['hook'], { env: agentEnv('zed'), input: JSON.stringify({ hook_event_name: 'Stop', session_id: 'zz', cwd: s.dir }) });
    await until('zed shown done', () => /zed\s+✓ done/.test(screen()), 20_000);
    expect(screen()).toMatch(/j\/k move · f finger/);
    // What awareness knows of zed joins the view as it learns it.
    expect(s.pane(['awareness', 'prompt', 'zed', 'jwt auth for the login page']).status).toBe(0);
    await until('zed’s topics in the peers view', () => /awareness — topics by trajectory[\s\S]*zed: .*(jwt|auth|login)/.test(screen()), 20_000);
  });
});

describe('pane awareness prompt', () => {
  it('shows the prompt it records as the agent’s last prompt in finger and /agents, as a UserPromptSubmit hook would, and only for the agent itself', async () => {
    s.pane(['agent', 'add', 'uma']);
    s.pane(['agent', 'add', 'vic']);
    const r = s.pane(['awareness', 'prompt', 'uma', 'refactor the \x1b[31mtoken\x1b[0m cache'], { env: agentEnv('uma') });
    expect([r.status, r.stderr]).toEqual([0, '']);
    // Escaped where it is shown: the agent's words never drive the person's terminal.
    expect(s.pane(['finger', 'uma']).stdout).toMatch(/^Last prompt \(.*\): refactor the \\e\[31mtoken\\e\[0m cache$/m);
    const line = () => s.pane(['cat', '/agents']).stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((a) => a.name === 'uma');
    expect(line().prompt).toBe('refactor the \x1b[31mtoken\x1b[0m cache');
    // Another agent cannot put words in uma's mouth: refused, and uma's last prompt stands.
    const forged = s.pane(['awareness', 'prompt', 'uma', 'delete everything'], { env: agentEnv('vic') });
    expect(forged.status).not.toBe(0);
    expect(forged.stderr).toMatch(/vic/);
    expect(line().prompt).toBe('refactor the \x1b[31mtoken\x1b[0m cache');
  });

  it('publishes one agent/changed per prompt, carrying the prompt and the topics it moved', async () => {
    s.pane(['agent', 'add', 'wes']);
    const w = s.spawnPane(['watch', '--state', 'agent']);
    const got = collect(w);
    try {
      await until('the watch to subscribe', () => got.out().includes('"event":"state"'));
      const changes = () => agentChanges(got.out(), 'wes');
      // The first moves wes's topics (awareness publishes the agent for them); the second, the same words, moves none.
      for (const [i, text] of ['migrate the billing ledger to postgres', 'migrate the billing ledger to postgres'].entries()) {
        expect(s.pane(['awareness', 'prompt', 'wes', text], { env: agentEnv('wes') }).status).toBe(0);
        await until(`prompt ${i + 1}'s agent/changed`, () => changes().length >= i + 1);
        await new Promise((r) => setTimeout(r, 300)); // a second one would be on its way by now
        expect(changes()).toHaveLength(i + 1);
        expect(changes()[i]!.data.agent.lastPrompt).toBe(text);
      }
      expect(changes()[0]!.data.agent.topics.join(' ')).toMatch(/billing|ledger|postgres/);
    } finally {
      w.kill('SIGINT');
      await got.exit;
    }
  });
  it('publishes one agent/changed per prompt through the UserPromptSubmit hook too, with its state and the topics it moved', async () => {
    s.pane(['agent', 'add', 'xan']);
    const w = s.spawnPane(['watch', '--state', 'agent']);
    const got = collect(w);
    try {
      await until('the watch to subscribe', () => got.out().includes('"event":"state"'));
      const changes = () => agentChanges(got.out(), 'xan');
      const hook = (input: Record<string, unknown>) => s.pane(['hook'], { env: agentEnv('xan'), input: JSON.stringify({ session_id: 'xan-1', cwd: '/tmp', ...input }) });
      expect(hook({ hook_event_name: 'SessionStart', source: 'startup' }).status).toBe(0);
      await until('the session start published', () => changes().length >= 1);
      await new Promise((r) => setTimeout(r, 300));
      const before = changes().length;
      // The first moves xan's topics and its state (working); the second, the same words, moves neither.
      for (const [i, text] of ['migrate the billing ledger to postgres', 'migrate the billing ledger to postgres'].entries()) {
        expect(hook({ hook_event_name: 'UserPromptSubmit', prompt: text }).status).toBe(0);
        await until(`prompt ${i + 1}'s agent/changed`, () => changes().length >= before + i + 1);
        await new Promise((r) => setTimeout(r, 300)); // a second one would be on its way by now
        expect(changes()).toHaveLength(before + i + 1);
        const last = changes()[before + i]!.data.agent;
        expect(last.lastPrompt).toBe(text);
        expect(last.state).toBe('working');
      }
      expect(changes()[before]!.data.agent.topics.join(' ')).toMatch(/billing|ledger|postgres/);
    } finally {
      w.kill('SIGINT');
      await got.exit;
    }
  });
});

describe('pane hook', () => {
  const events = fs.readFileSync(path.resolve(__dirname, 'recorded/claude-session.jsonl'), 'utf8').trim().split('\n');

  it('reports a hook event and prints the documented answer (mail handed over as context)', () => {
    s.pane(['mail', '-s', 'next', 'ada'], { input: 'write the changelog\n' });
    const r = s.pane(['hook'], { env: agentEnv('ada'), input: events[1]! });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(out.hookSpecificOutput.additionalContext).toMatch(/write the changelog/);
    expect(s.pane(['finger', 'ada']).stdout).toMatch(/State: working .*reported through hooks/);
    const stop = s.pane(['hook'], { env: agentEnv('ada'), input: events[7]! });
    expect([stop.status, stop.stdout]).toEqual([0, '']);
    expect(s.pane(['finger', 'ada']).stdout).toMatch(/State: done/);
  });

  it('exits 0 printing nothing, quickly, when no server is reachable, on junk, and on unknown events', () => {
    const t0 = Date.now();
    const none = spawnSync(BIN, ['--socket', path.join(s.dir, 'nobody.sock'), 'hook'], { input: events[1], encoding: 'utf8', env: cleanEnv() });
    expect([none.status, none.stdout, none.stderr]).toEqual([0, '', '']);
    expect(Date.now() - t0).toBeLessThan(5000);
    for (const input of ['not json', '[1,2]', '', '{"hook_event_name":"FutureThing"}']) {
      const r = s.pane(['hook'], { input });
      expect([r.status, r.stdout]).toEqual([0, '']);
    }
  });
});
