// Mail on a real server: delivery into the Maildir, unread counts in finger and the
// pane's attrs, mail handed over as hook context, and --deliver typing into a waiting pane.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitForOutput } from '../server/harness';
import { agentHarness, type AgentHarness } from './helpers';

let h: AgentHarness;
beforeEach(async () => {
  h = await agentHarness();
});
afterEach(async () => {
  await h.close();
});

describe('mail', () => {
  it('raises the unread count in finger and in the agent pane’s attrs, and lowers it when read', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    const { pane } = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'ada' }, launch: { program: '/bin/cat', args: [] } });
    const r1 = await c.call('agent/mail', { to: 'ada', subject: 'review', body: 'PR 12 please' });
    const r2 = await c.call('agent/mail', { to: 'ada', body: 'and PR 13' });
    expect([r1.unread, r2.unread, r2.typed]).toEqual([1, 2, 'no']);
    expect((await c.call('agent/get', { name: 'ada' })).unread).toBe(2);
    expect((await c.call('pane/get', { pane })).attrs['agent.unread']).toBe('2');
    expect(h.events.filter((e) => e.event === 'agent/mailed').map((e) => e.data.unread)).toEqual([1, 2]);
    const ada = await h.as('ada');
    const inbox = await ada.call('agent/inbox', {});
    const me = h.running.server.user;
    expect(inbox.messages.map((m) => [m.from, m.subject, m.body])).toEqual([
      [me, 'review', 'PR 12 please\n'],
      [me, '', 'and PR 13\n'],
    ]);
    expect((await c.call('pane/get', { pane })).attrs['agent.unread']).toBe('0');
    expect((await ada.call('agent/inbox', { all: true })).messages.every((m) => m.seen)).toBe(true);
  });

  it("lists an agent's fellow agents with nothing said of other hosts when none is joined", async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    await c.call('agent/add', { name: 'bob' });
    const r = await (await h.as('ada')).call('agent/list', { hosts: true });
    expect(r.agents.map((a) => a.name).sort()).toEqual(['ada', 'bob']);
    expect(r.unreached ?? []).toEqual([]);
  });

  it('hands new mail to the agent as context at its next turn, once', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    await c.call('agent/mail', { to: 'ada', subject: 'review this PR', body: 'PR 12 please' });
    const ada = await h.as('ada');
    const first = await ada.call('agent/hook', { input: { hook_event_name: 'UserPromptSubmit', session_id: 's', prompt: 'hi' } });
    const ctx = (first.output as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(ctx).toMatch(/You have 1 new message/);
    expect(ctx).toMatch(/review this PR:\nPR 12 please/);
    expect((await c.call('agent/get', { name: 'ada' })).unread).toBe(0);
    const second = await ada.call('agent/hook', { input: { hook_event_name: 'UserPromptSubmit', session_id: 's', prompt: 'again' } });
    expect(second.output).toBeNull();
  });

  it('types --deliver mail into the pane at once when the agent waits, and queues it until it waits otherwise', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    const { pane } = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'ada' }, launch: { program: '/bin/cat', args: [] } });
    await c.call('agent/hook', { agent: 'ada', pane, input: { hook_event_name: 'Stop', session_id: 's' } });
    expect((await c.call('agent/mail', { to: 'ada', subject: 'now', body: 'first task', deliver: true })).typed).toBe('now');
    await waitForOutput(c, pane, '[mail from');
    await waitForOutput(c, pane, 'now: first task');
    await c.call('agent/hook', { agent: 'ada', pane, input: { hook_event_name: 'UserPromptSubmit', session_id: 's', prompt: 'x' } });
    expect((await c.call('agent/mail', { to: 'ada', body: 'second task', deliver: true })).typed).toBe('queued');
    await new Promise((r) => setTimeout(r, 200));
    expect((await c.call('pty/read', { pane })).data).not.toMatch(/second task/);
    await c.call('agent/hook', { agent: 'ada', pane, input: { hook_event_name: 'Stop', session_id: 's' } });
    await waitForOutput(c, pane, 'second task');
  });

  it('types --deliver mail once the pane has stopped drawing, not into a screen still being drawn after its hook', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    // A CLI that reports at once and draws for most of a second after (as Claude Code's SessionStart comes before its screen).
    const script = 'for i in 1 2 3 4 5 6 7 8; do echo drawing $i; sleep 0.1; done; exec cat';
    const { pane } = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'ada' }, launch: { program: '/bin/sh', args: ['-c', script] } });
    // It reports once it runs (its first line out), then goes on drawing.
    await waitForOutput(c, pane, 'drawing 1');
    await c.call('agent/hook', { agent: 'ada', pane, input: { hook_event_name: 'SessionStart', session_id: 's' } });
    expect((await c.call('agent/mail', { to: 'ada', subject: 'early', body: 'the task', deliver: true })).typed).toBe('now');
    const out = await waitForOutput(c, pane, 'early: the task');
    expect(out.indexOf('drawing 8')).toBeGreaterThan(-1);
    expect(out.indexOf('drawing 8')).toBeLessThan(out.indexOf('[mail from'));
  });

  it('refuses mail to a hook-only agent (no mailbox) and to nobody, saying why', async () => {
    const c = await h.connect();
    await c.call('agent/hook', { input: { hook_event_name: 'SessionStart', session_id: 's', cwd: '/x/proj' } });
    await expect(c.call('agent/mail', { to: 'claude-proj', body: 'x' })).rejects.toThrow(/known only from hooks and has no account/);
    await expect(c.call('agent/mail', { to: 'nobody', body: 'x' })).rejects.toThrow(/no agent named nobody/);
  });
});
