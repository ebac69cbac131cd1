// Awareness in a real server: two agent panes in known quadrants report Claude
// Code hook JSON through agent/hook; predictions, attrs, events, claims and the
// context each hook answer carries are checked through the protocol.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { agentHarness, type AgentHarness } from '../agents/helpers';

let h: AgentHarness;
let proj: string;
beforeEach(async () => {
  h = await agentHarness();
  proj = path.join(h.dir, 'shop');
  fs.mkdirSync(proj);
});
afterEach(async () => {
  await h.close();
});

/** The recorded session, aimed at this test's project dir. */
const recorded = (cwd: string) =>
  fs
    .readFileSync(path.resolve(__dirname, 'recorded/claude-hooks.jsonl'), 'utf8')
    .replaceAll('{{CWD}}', cwd)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

interface Agent {
  name: string;
  pane: number;
  c: Connection;
  hook(event: string, extra?: Record<string, unknown>): Promise<Record<string, unknown> | null>;
}

/** Where a 40×12 float sits in each quadrant of the default 160×48 view. */
const SPOT: Record<string, { x: number; y: number }> = {
  'top-left': { x: 0, y: 0 },
  'top-right': { x: 100, y: 0 },
  'bottom-left': { x: 0, y: 30 },
  'bottom-right': { x: 100, y: 30 },
};

async function agent(name: string, quadrant: string): Promise<Agent> {
  const c0 = await h.connect();
  await c0.call('agent/add', { name });
  // A float in that quadrant of the view: the server computes the quadrant from where the pane is.
  const { pane } = await c0.call('float/create', { kind: 'agent', attrs: { agent: name }, launch: { program: '/bin/cat', args: [] }, ...SPOT[quadrant]!, w: 40, h: 12 });
  const c = await h.as(name);
  const session = `${name}-session`;
  return {
    name,
    pane,
    c,
    async hook(event, extra = {}) {
      const r = await c.call('agent/hook', { input: { session_id: session, cwd: proj, hook_event_name: event, ...extra }, pane });
      return (r.output?.hookSpecificOutput as Record<string, unknown> | undefined) ?? null;
    },
  };
}

const DRIFT = ['refresh the jwt auth token on login', 'jwt login session expiry for auth', 'auth login: verify the jwt token signature', 'jwt auth login token rotation'];

async function converge(ada: Agent, bob: Agent) {
  await ada.hook('SessionStart', { source: 'startup' });
  await bob.hook('SessionStart', { source: 'startup' });
  await ada.hook('UserPromptSubmit', { prompt: 'style the settings page css layout' });
  await bob.hook('UserPromptSubmit', { prompt: 'database migration for the orders table' });
  for (const p of DRIFT) {
    await ada.hook('UserPromptSubmit', { prompt: p });
    await bob.hook('UserPromptSubmit', { prompt: p.replace('refresh', 'review') });
  }
}

describe('awareness in the server', () => {
  it('predicts two agents converging and says so by name and quadrant: event, attrs, and each one’s hook context', async () => {
    const ada = await agent('ada', 'top-left');
    const bob = await agent('bob', 'bottom-right');
    await converge(ada, bob);
    const predicted = h.events.filter((e) => e.event === 'awareness/predicted');
    expect(predicted.length).toBeGreaterThan(0);
    expect(predicted.map((e) => e.data.message)).toContainEqual(expect.stringMatching(/^ada \(top-left\) and bob \(bottom-right\) converge on .*(auth|jwt)/));
    expect(predicted[0]!.data.panes).toEqual(expect.arrayContaining([ada.pane, bob.pane]));
    // However many predictions and passes, a person is told through one notice for the pair.
    const noticed = h.events.filter((e) => e.event === 'awareness/notice').map((e) => e.data.notice as { id: string; updates: number });
    expect(new Set(noticed.map((n) => n.id))).toEqual(new Set(['ada+bob']));
    expect(noticed.map((n) => n.updates)).toEqual(noticed.map((_, i) => i));

    const c = await h.connect();
    const pa = await c.call('pane/get', { pane: ada.pane });
    const pb = await c.call('pane/get', { pane: bob.pane });
    expect(pa.attrs['awareness.converge']).toMatch(/^bob \(bottom-right\): /);
    expect(pb.attrs['awareness.converge']).toMatch(/^ada \(top-left\): /);
    expect(pa.attrs['awareness.topics']).toMatch(/jwt|auth|login/);
    expect(pa.attrs['agent.topics']).toMatch(/jwt|auth|login/);

    const out = await ada.hook('UserPromptSubmit', { prompt: 'jwt auth login again' });
    const ctx = String(out?.additionalContext);
    expect(ctx).toContain('you are ada (top-left)');
    expect(ctx).toMatch(/- bob \(bottom-right\), active .*: .*(jwt|auth)/);
    expect(ctx).toMatch(/Convergence:\n- ada \(top-left\) and bob \(bottom-right\)/);

    const preds = await c.call('awareness/predictions', {});
    expect(preds.active.map((p) => p.type)).toEqual(expect.arrayContaining(['approaching', 'mutual-deepening']));
    const { notices } = await c.call('awareness/notices', {});
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ id: 'ada+bob', agents: ['ada', 'bob'], panes: expect.arrayContaining([ada.pane, bob.pane]) });
    expect(notices[0]!.predictions.sort()).toEqual(preds.active.map((p) => p.id).sort());
    const peers = await c.call('awareness/agents', {});
    expect(peers.agents.map((a) => a.label)).toEqual(['ada (top-left)', 'bob (bottom-right)']);
    // The state `awareness agents` shows is finger's, not its own idea of idle (issue 34).
    for (const a of peers.agents) expect(a.state).toBe((await c.call('agent/get', { name: a.name })).state);

    // ada's pane moves: bob's warning names ada where she is now.
    await c.call('float/move', { pane: ada.pane, ...SPOT['bottom-left']! });
    expect((await c.call('pane/get', { pane: bob.pane })).attrs['awareness.converge']).toMatch(/^ada \(bottom-left\): /);
  });

  it('warns an Edit into a file another agent claims, naming holder, quadrant and reason; asks when the project says so', async () => {
    const ada = await agent('ada', 'top-left');
    const bob = await agent('bob', 'bottom-right');
    await ada.hook('SessionStart', { source: 'startup' });
    await bob.hook('SessionStart', { source: 'startup' });
    const r = await bob.c.call('awareness/claim', { resource: 'src/auth/', cwd: proj, reason: 'rewriting token refresh' });
    expect(r.status).toBe('granted');
    const file = path.join(proj, 'src/auth/jwt.ts');
    const warn = await ada.hook('PreToolUse', { tool_name: 'Edit', tool_input: { file_path: file, old_string: 'a', new_string: 'b' } });
    expect(warn?.permissionDecision).toBeUndefined();
    expect(String(warn?.additionalContext)).toContain(`${file} is claimed by bob (bottom-right) (exclusive: rewriting token refresh)`);
    // Reading is never warned about; bob's own edit is not either.
    expect(await ada.hook('PreToolUse', { tool_name: 'Read', tool_input: { file_path: file } })).toBeNull();
    expect(await bob.hook('PreToolUse', { tool_name: 'Edit', tool_input: { file_path: file } })).toBeNull();

    fs.mkdirSync(path.join(proj, '.pane'));
    fs.writeFileSync(path.join(proj, '.pane/awareness.json'), JSON.stringify({ claimConflict: 'ask' }));
    const ask = await ada.hook('PreToolUse', { tool_name: 'Write', tool_input: { file_path: file, content: 'x' } });
    expect(ask?.permissionDecision).toBe('ask');
    expect(String(ask?.permissionDecisionReason)).toContain('bob (bottom-right)');
    // The file's project decides, not where the agent happens to run from.
    const elsewhere = await ada.hook('PreToolUse', { cwd: h.dir, tool_name: 'Edit', tool_input: { file_path: file } });
    expect(elsewhere?.permissionDecision).toBe('ask');

    // The claim shows on bob's pane; the conflict, when ada writes anyway, is a collision event.
    const c = await h.connect();
    expect((await c.call('pane/get', { pane: bob.pane })).attrs['awareness.claims']).toBe('src/auth/');
    const post = await ada.hook('PostToolUse', { tool_name: 'Write', tool_input: { file_path: file } });
    expect(String(post?.additionalContext)).toContain('bob (bottom-right)');
    expect(h.events.some((e) => e.event === 'awareness/collided' && e.data.a === 'ada' && e.data.b === 'bob')).toBe(true);
  });

  it('contests a claim, with an event naming both agents by quadrant', async () => {
    const ada = await agent('ada', 'top-left');
    const bob = await agent('bob', 'bottom-right');
    await ada.hook('SessionStart', {});
    await bob.hook('SessionStart', {});
    await bob.c.call('awareness/claim', { resource: path.join(proj, 'a.ts'), reason: 'mine' });
    const r = await ada.c.call('awareness/claim', { resource: path.join(proj, 'a.ts'), contest: true });
    expect(r).toMatchObject({ status: 'conflict', labels: { bob: 'bob (bottom-right)' }, contestTimeoutMs: 120_000 });
    const ev = h.events.find((e) => e.event === 'awareness/claim-contested');
    expect(String(ev?.data.message)).toMatch(/^ada \(top-left\) contests bob \(bottom-right\)'s claim on a\.ts/);
  });

  it('passes a contested claim to the contester when the timeout runs out, on time and unasked; an answer keeps it instead', async () => {
    // A server whose contests time out in a second (awareness.json).
    await h.close();
    const config = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-aw-config-'));
    fs.writeFileSync(path.join(config, 'awareness.json'), JSON.stringify({ contestTimeoutSeconds: 1 }));
    h = await agentHarness({ configDir: config });
    proj = path.join(h.dir, 'shop');
    fs.mkdirSync(proj);
    const ada = await agent('ada', 'top-left');
    const bob = await agent('bob', 'bottom-right');
    const cy = await agent('cy', 'top-right');
    for (const a of [ada, bob, cy]) await a.hook('SessionStart', {});
    await bob.c.call('awareness/claim', { resource: 'src/', cwd: proj, reason: 'auth rewrite' });
    const r = await ada.c.call('awareness/claim', { resource: 'src/auth.ts', cwd: proj, contest: true });
    expect(r).toMatchObject({ status: 'conflict', contestTimeoutMs: 1000 });
    const contested = h.events.find((e) => e.event === 'awareness/claim-contested');
    expect(String(contested?.data.message)).toContain("it passes to ada in 1 s unless bob releases it or answers ada first");
    // Nobody lists claims: the server's own timer moves it, and ada's pane shows what she holds — the file, not bob's src/.
    const c = await h.connect();
    await expect.poll(async () => (await c.call('pane/get', { pane: ada.pane })).attrs['awareness.claims'], { timeout: 5000, interval: 50 }).toBe('src/auth.ts');
    expect(h.events.some((e) => e.event === 'awareness/claims-changed' && (e.data.claims as { holder: string }[]).every((x) => x.holder === 'ada'))).toBe(true);

    // cy contests ada's file; ada answers cy: the contest ends, ada keeps it.
    await cy.c.call('awareness/claim', { resource: path.join(proj, 'src/auth.ts'), contest: true });
    await ada.c.call('awareness/message', { to: { kind: 'agent', name: 'cy' }, type: 'answer', text: 'almost done, 5 minutes' });
    await new Promise((res) => setTimeout(res, 1500));
    const claims = await c.call('awareness/claims', { log: true });
    expect(claims.claims.map((x) => [x.holder, x.contestedBy])).toEqual([['ada', null]]);
    expect(claims.log.map((x) => x.action)).toContain('kept');
    fs.rmSync(config, { recursive: true, force: true });
  });

  it('delivers a message at the target’s next turn, once, and badges its pane meanwhile', async () => {
    const ada = await agent('ada', 'top-left');
    const bob = await agent('bob', 'bottom-right');
    await ada.hook('SessionStart', {});
    await bob.hook('SessionStart', {});
    await bob.c.call('awareness/message', { to: { kind: 'quadrant', quadrant: 'top-left' }, type: 'question', text: 'are you on auth.ts?' });
    const c = await h.connect();
    expect((await c.call('pane/get', { pane: ada.pane })).attrs['awareness.messages']).toBe('1');
    const out = await ada.hook('UserPromptSubmit', { prompt: 'carry on' });
    expect(String(out?.additionalContext)).toContain('[question] bob (bottom-right) → the top-left quadrant: are you on auth.ts?');
    expect((await c.call('pane/get', { pane: ada.pane })).attrs['awareness.messages']).toBeUndefined();
    const again = await ada.hook('UserPromptSubmit', { prompt: 'carry on' });
    expect(String(again?.additionalContext ?? '')).not.toContain('are you on auth.ts?');
  });

  it('puts a copy of each message in the target’s mailbox, filed as read once handed over, and reading it counts as handed over', async () => {
    const ada = await agent('ada', 'top-left');
    const bob = await agent('bob', 'bottom-right');
    await ada.hook('SessionStart', {});
    await bob.hook('SessionStart', {});
    const c = await h.connect();
    const sent = await bob.c.call('awareness/message', { to: { kind: 'agent', name: 'ada' }, type: 'question', priority: 'high', text: 'are you on auth.ts?\nI am about to rename it.' });
    const box = await c.call('agent/inbox', { name: 'ada', all: true, markRead: false });
    expect(box.messages).toEqual([expect.objectContaining({ from: 'bob', to: 'ada', subject: '[high question] are you on auth.ts?', seen: false, ref: sent.id })]);
    expect(box.messages[0]!.body).toMatch(/^are you on auth\.ts\?\nI am about to rename it\.\n\n-- \nquestion from bob \(bottom-right\), .*\nAnswer with: pane awareness message --type answer bob 'TEXT'\n$/);
    expect(h.events.some((e) => e.event === 'agent/mailed' && e.data.to === 'ada' && e.data.from === 'bob')).toBe(true);
    // One badge for one message: the pending count, not the mail count too.
    const attrs = (await c.call('pane/get', { pane: ada.pane })).attrs;
    expect([attrs['awareness.messages'], attrs['agent.unread']]).toEqual(['1', '0']);
    // Handed over at ada's next turn (by awareness, not a second time as "new mail"): the copy is read.
    const ctx = String((await ada.hook('UserPromptSubmit', { prompt: 'carry on' }))?.additionalContext);
    expect(ctx.match(/are you on auth\.ts\?/g)).toHaveLength(1);
    expect(ctx).not.toContain('in your pane mailbox');
    expect((await c.call('agent/inbox', { name: 'ada', all: true, markRead: false })).messages.map((m) => m.seen)).toEqual([true]);

    // bob reads ada's answer as mail: it is handed over, and not told again at bob's next turn.
    await ada.c.call('awareness/message', { to: { kind: 'agent', name: 'bob' }, type: 'answer', text: 'no, go ahead' });
    expect((await c.call('awareness/inbox', { agent: 'bob', markRead: false })).messages).toHaveLength(1);
    const read = await bob.c.call('agent/inbox', { markRead: true });
    expect(read.messages.map((m) => m.subject)).toEqual(['[answer] no, go ahead']);
    expect((await c.call('awareness/inbox', { agent: 'bob', markRead: false })).messages).toEqual([]);
    expect(String((await bob.hook('UserPromptSubmit', { prompt: 'rename auth.ts' }))?.additionalContext ?? '')).not.toContain('go ahead');

    // A broadcast reaches every other account's mailbox, not the sender's.
    await c.call('awareness/message', { agent: 'ada', to: { kind: 'all' }, type: 'done', text: 'auth.ts renamed' });
    const subjects = async (name: string) => (await c.call('agent/inbox', { name, all: true, markRead: false })).messages.map((m) => m.subject);
    expect(await subjects('bob')).toContain('[done] auth.ts renamed');
    expect(await subjects('ada')).not.toContain('[done] auth.ts renamed');
  });

  it('answers every recorded hook event, ignores unknown ones, and releases claims at SessionEnd', async () => {
    const ada = await agent('ada', 'top-left');
    await agent('bob', 'bottom-right').then((b) => b.hook('SessionStart', {}));
    const outs: (Record<string, unknown> | null)[] = [];
    for (const input of recorded(proj)) {
      if (input.hook_event_name === 'SessionEnd') await ada.c.call('awareness/claim', { resource: path.join(proj, 'x.ts') });
      const r = await ada.c.call('agent/hook', { input, pane: ada.pane });
      outs.push(r.output);
    }
    const events = recorded(proj).map((i) => i.hook_event_name);
    const withContext = events.filter((_, i) => (outs[i]?.hookSpecificOutput as { additionalContext?: string } | undefined)?.additionalContext);
    expect(withContext).toEqual(['SessionStart', 'UserPromptSubmit', 'UserPromptSubmit']);
    expect(outs[events.indexOf('PreCompact')]).toBeNull();
    const c = await h.connect();
    expect((await c.call('awareness/claims', {})).claims).toEqual([]);
    const a = (await c.call('awareness/agents', { all: true })).agents.find((x) => x.name === 'ada')!;
    expect(a).toMatchObject({ stale: true, promptCount: 2 });
    expect(a.window.flatMap((s) => s.files)).toContain(path.join(proj, 'src/auth/jwt.ts'));
  });

  it('publishes a prompt recorded while one of the agent\'s hooks is being handled with that hook, once', async () => {
    const ada = await agent('ada', 'top-left');
    await ada.hook('SessionStart', { source: 'startup' });
    // A contributor the test holds open: the UserPromptSubmit hook is mid-way (its changes held) until it is let go.
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    let letGo!: () => void;
    const gate = new Promise<void>((r) => (letGo = r));
    const remove = h.svc.addHookContributor(async (ev) => {
      if (ev.event !== 'UserPromptSubmit') return undefined;
      inside();
      await gate;
      return undefined;
    });
    try {
      const changes = () => h.events.filter((e) => e.event === 'agent/changed' && (e.data.agent as { name: string }).name === 'ada');
      const before = changes().length;
      const hook = ada.hook('UserPromptSubmit', { prompt: 'style the settings page css layout' });
      await entered;
      await ada.c.call('awareness/prompt', { agent: 'ada', text: 'database migration for the orders table' });
      await new Promise((r) => setImmediate(r));
      expect(changes().length - before).toBe(0);
      letGo();
      await hook;
      const after = changes().slice(before);
      expect(after).toHaveLength(1);
      expect(after[0]!.data.agent).toMatchObject({ state: 'working', lastPrompt: 'database migration for the orders table' });
      expect((after[0]!.data.agent as { topics: string[] }).topics).toEqual(expect.arrayContaining(['database', 'migration']));
    } finally {
      letGo();
      remove();
    }
  });

  it('refuses an agent speaking for another, and lets a person name the agent', async () => {
    const ada = await agent('ada', 'top-left');
    await expect(ada.c.call('awareness/prompt', { agent: 'bob', text: 'x' })).rejects.toThrow(/may record prompts only for itself/);
    const c = await h.connect();
    const r = await c.call('awareness/prompt', { agent: 'bob', text: 'jwt auth' });
    expect(r.topics).toEqual(['jwt', 'auth']);
  });
});
