// Attack class: a read-only client acting. A client whose hello asked for `read`
// alone may look at screens and events and change nothing: it is refused every
// agent's mail and messages (its own included; the principal table), so none is handed over, no namespace
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
  it('is refused another agent’s mail (agent/inbox), and hands nothing over', async () => {
    const before = owed();
    expect(before.unread).toBeGreaterThan(0);
    const ro = await h.connect(['read'], 'viewer');
    const e = await refusal(ro.call('agent/inbox', { name: 'ada' }));
    expect(e.message).toMatch(/refused: the person may not call agent\/inbox: a read-only client sees screens and events, not mail or messages/);
    expect(owed()).toEqual(before);
    // A client with write (the person) does read and hand it over: the case above is not vacuous.
    await human.call('agent/inbox', { name: 'ada' });
    expect(owed().unread).toBe(0);
  });

  it('is refused another agent’s awareness messages (awareness/inbox, awareness/context, awareness/messages)', async () => {
    const before = owed();
    expect(before.pending.length).toBeGreaterThan(0);
    const ro = await h.connect(['read'], 'viewer');
    for (const [m, p] of [['awareness/inbox', { agent: 'ada' }], ['awareness/context', { agent: 'ada' }], ['awareness/messages', {}]] as const) {
      const e = await refusal(ro.call(m, p as never));
      expect(e.message, m).toMatch(/read-only client sees screens and events, not mail or messages/);
    }
    expect(owed()).toEqual(before);
    expect((await human.call('awareness/context', { agent: 'ada' })).text).toMatch(/ping/);
  });

  it('hands nothing over when the agent itself asks through a read-only connection; its read-write one reads', async () => {
    const before = owed();
    const ada = await h.as('ada', ['read']);
    expect((await refusal(ada.call('agent/inbox', {}))).message).toMatch(/refused: agent ada may not call agent\/inbox/);
    expect((await refusal(ada.call('awareness/inbox', {}))).message).toMatch(/refused: agent ada may not call awareness\/inbox/);
    expect(owed()).toEqual(before);
    const rw = await h.as('ada');
    expect((await rw.call('agent/inbox', {})).messages.map((m) => m.subject)).toContain('task');
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
