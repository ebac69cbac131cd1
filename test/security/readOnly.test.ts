// Attack class: a read-only client acting. A client whose hello asked for `read`
// alone may look at everything it is shown and change nothing: no mail or message
// of any agent's (its own included) is handed over by its reading, no namespace
// file is written or intercepted, no pane is focused, typed into or paused. One
// case per way mail and messages are read, and per other door that acts.
// (Pausing, through flow control, is held in flowHold.test.ts against a real server.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { agentHarness, type AgentHarness } from '../agents/helpers';

let h: AgentHarness;
let human: Connection;
beforeEach(async () => {
  h = await agentHarness();
  human = await h.connect();
  await human.call('agent/add', { name: 'ada' });
  await human.call('agent/mail', { to: 'ada', subject: 'task', body: 'do it' });
  await human.call('awareness/message', { to: { kind: 'agent', name: 'ada' }, text: 'ping' });
});
afterEach(async () => {
  await h.close();
});

const refusal = (p: Promise<unknown>) => p.then(() => ({ code: 'none', message: 'it succeeded' }), (e: { code: string; message: string }) => e);
/** What ada has not been handed yet: unread mail, pending awareness messages. */
const owed = () => ({ unread: h.svc.info('ada').unread, pending: h.running.services.awareness!.aw.pending('ada').map((m) => m.id) });

describe('a read-only client only looks', () => {
  it('reads another agent’s mail (agent/inbox, markRead by default) without handing it over', async () => {
    const before = owed();
    expect(before.unread).toBeGreaterThan(0);
    const ro = await h.connect(['read'], 'viewer');
    const r = await ro.call('agent/inbox', { name: 'ada' });
    expect(r.messages.map((m) => m.subject)).toContain('task');
    expect(owed()).toEqual(before);
    // A client with write (the person) does hand it over: the case above is not vacuous.
    await human.call('agent/inbox', { name: 'ada' });
    expect(owed().unread).toBe(0);
  });

  it('reads another agent’s awareness messages (awareness/inbox, awareness/context) without handing them over', async () => {
    const before = owed();
    expect(before.pending.length).toBeGreaterThan(0);
    const ro = await h.connect(['read'], 'viewer');
    expect((await ro.call('awareness/inbox', { agent: 'ada' })).messages.map((m) => m.id)).toEqual(before.pending);
    expect((await ro.call('awareness/context', { agent: 'ada' })).text).toMatch(/ping/);
    expect(owed()).toEqual(before);
  });

  it('hands nothing over when the agent itself reads through a read-only connection', async () => {
    const before = owed();
    const ada = await h.as('ada', ['read']);
    expect((await ada.call('agent/inbox', {})).messages.map((m) => m.subject)).toContain('task');
    expect((await ada.call('awareness/inbox', {})).messages.length).toBe(before.pending.length);
    expect(owed()).toEqual(before);
    // Its read-write connection does.
    const rw = await h.as('ada');
    await rw.call('agent/inbox', {});
    await rw.call('awareness/inbox', {});
    expect(owed()).toEqual({ unread: 0, pending: [] });
  });

  it('writes, intercepts and creates nothing through the namespace', async () => {
    const ro = await h.connect(['read'], 'viewer');
    const pane = [...h.running.server.panes.values()][0]!.n;
    for (const [path, mode] of [[`/${pane}/ctl`, 'w'], [`/${pane}/event`, 'rw'], [`/${pane}/input`, 'w'], ['/new/ctl', 'rw']] as const) {
      const e = await refusal(ro.call('ns/open', { path, mode }));
      expect(e.code, `${path} ${mode}`).not.toBe('none');
    }
    expect(h.running.services.namespace.interceptorOf(pane)).toBeUndefined();
    expect((await refusal(ro.call('ns/write', { path: `/${pane}/ctl`, data: 'name pwned' }))).code).toBe('denied');
    // Reading /new/ctl makes no pane.
    const panes = h.running.server.panes.size;
    await ro.call('ns/read', { path: '/new/ctl', count: 100 });
    expect(h.running.server.panes.size).toBe(panes);
    expect([...h.running.server.panes.values()].map((p) => p.tag.name)).not.toContain('pwned');
  });

  it('focuses, types into, resizes and marks nothing', async () => {
    const ro = await h.connect(['read'], 'viewer');
    const pane = [...h.running.server.panes.values()][0]!.n;
    for (const [method, params] of [
      ['pane/focus', { pane }],
      ['pane/input', { pane, data: 'echo pwned\r' }],
      ['pty/resize', { pane, cols: 20, rows: 5 }],
      ['pty/attach', { pane, flowControl: true }],
      ['pty/ack', { pane, bytes: 1 }],
      ['agent/plan', { name: 'ada', text: 'pwned' }],
      ['awareness/claim', { resource: '/etc/passwd' }],
    ] as const) {
      const e = await refusal(ro.call(method as 'pane/focus', params as never));
      expect(e.code, method).toBe('denied');
    }
    // Binary input frames too: refused in words, nothing typed.
    const errors: string[] = [];
    ro.onError((e) => errors.push(e.message));
    ro.sendInput(pane, new TextEncoder().encode('echo pwned\r'));
    await new Promise((r) => setTimeout(r, 200));
    expect(errors.join('\n')).toMatch(/may not write to panes/);
  });
});
