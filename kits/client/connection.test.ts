// The one Connection against a scripted peer over the in-memory transport: the
// same core the CLI, window and tools use (kits/node/cli/reach.test.ts covers sockets).
import { describe, expect, it, vi } from 'vitest';
import { MAX_JSON_FRAME } from '../protocol/binary';
import { PaneFault } from '../protocol/fault';
import { checkResults } from './checkResults';
import { Connection } from './connection';
import { memoryPair } from './memoryTransport';
import { BaseTransport, type Transport, type WireFrame } from './transport';

const WELCOME = { protocol: 1, server: { host: 'box', version: '0', pid: 1 }, client: 'c1', capabilities: ['read'], user: 'ada' };

/** A peer that answers each request with `answer(method)`; null sends nothing. */
function peer(t: Transport, answer: (method: string, id: number | undefined) => object | null): void {
  t.onFrame((f) => {
    if (typeof f !== 'string') return;
    const req = JSON.parse(f) as { id?: number; method: string };
    const out = answer(req.method, req.id);
    if (out) t.send(JSON.stringify(out));
  });
}

describe('Connection', () => {
  it('hands each event to the catch-all listener and to the callbacks for its name', async () => {
    const [a, b] = memoryPair();
    peer(b, (method, id) => (method === 'hello' ? { t: 'res', id, ok: true, result: WELCOME } : null));
    const c = new Connection(a);
    await c.hello({ client: { name: 't', kind: 'test' }, capabilities: ['read'] });
    const any: string[] = [];
    const named: number[] = [];
    c.onEvent((event, rev) => any.push(`${event}@${rev}`));
    c.events.on('pane/closed', (_d, rev) => named.push(rev));
    b.send(JSON.stringify({ t: 'evt', event: 'pane/closed', rev: 4, data: { pane: 2 } }));
    b.send(JSON.stringify({ t: 'evt', event: 'focus/changed', rev: 5, data: { pane: 1 } }));
    await new Promise((r) => setTimeout(r, 0));
    expect(any).toEqual(['pane/closed@4', 'focus/changed@5']);
    expect(named).toEqual([4]);
    expect(c.host).toBe('box');
  });

  it('fails waiting calls with an unaddressed error before the welcome, and only reports one after it', async () => {
    const [a, b] = memoryPair();
    const c = new Connection(a);
    peer(b, () => ({ t: 'res', id: null, ok: false, error: { code: 'unauthorized', message: 'bad token' } }));
    await expect(c.hello({ client: { name: 't', kind: 'test' }, capabilities: ['read'] })).rejects.toMatchObject({ code: 'unauthorized', message: 'bad token' });

    const [x, y] = memoryPair();
    const d = new Connection(x);
    const reported: PaneFault[] = [];
    d.onError((e) => reported.push(e));
    let n = 0;
    peer(y, (method, id) => (method === 'hello' ? { t: 'res', id, ok: true, result: WELCOME } : n++ === 0 ? { t: 'res', id: null, ok: false, error: { code: 'bad-request', message: 'a note went wrong' } } : { t: 'res', id, ok: true, result: { sessions: [] } }));
    await d.hello({ client: { name: 't', kind: 'test' }, capabilities: ['read'] });
    d.notify('session/list', {});
    expect(await d.call('session/list', {})).toEqual({ sessions: [] });
    expect(reported.map((e) => [e instanceof PaneFault, e.code, e.message])).toEqual([[true, 'bad-request', 'a note went wrong']]);

    // A removed listener hears no later error; the others still do.
    const [u, v] = memoryPair();
    const e = new Connection(u);
    const kept: string[] = [];
    const dropped: string[] = [];
    e.onError((f) => kept.push(f.message));
    const off = e.onError((f) => dropped.push(f.message));
    let m = 0;
    peer(v, (method, id) => (method === 'hello' ? { t: 'res', id, ok: true, result: WELCOME } : { t: 'res', id: null, ok: false, error: { code: 'bad-request', message: `note ${++m}` } }));
    await e.hello({ client: { name: 't', kind: 'test' }, capabilities: ['read'] });
    e.notify('session/list', {});
    await vi.waitFor(() => expect(kept).toEqual(['note 1']));
    off();
    e.notify('session/list', {});
    await vi.waitFor(() => expect(kept).toEqual(['note 1', 'note 2']));
    expect(dropped).toEqual(['note 1']);
  });

  it('checks results only when given a check, naming the method of a malformed one', async () => {
    const [a, b] = memoryPair();
    peer(b, (method, id) => ({ t: 'res', id, ok: true, result: method === 'hello' ? WELCOME : { sessions: 'none' } }));
    const trusting = new Connection(a);
    expect(await trusting.call('session/list', {})).toEqual({ sessions: 'none' });
    const [x, y] = memoryPair();
    peer(y, (method, id) => ({ t: 'res', id, ok: true, result: method === 'hello' ? WELCOME : { sessions: 'none' } }));
    const checking = new Connection(x, { checkResult: checkResults });
    await expect(checking.call('session/list', {})).rejects.toMatchObject({ code: 'failed', message: expect.stringMatching(/^server sent a malformed session\/list result/) });
  });

  it('rejects waiting and later calls once closed, with the reason', async () => {
    const [a, b] = memoryPair();
    peer(b, () => null);
    const c = new Connection(a);
    const waiting = c.call('session/list', {});
    c.close();
    await expect(waiting).rejects.toMatchObject({ code: 'failed', message: 'connection closed: closed by the client' });
    await expect(c.call('session/list', {})).rejects.toBeInstanceOf(PaneFault);
  });

  it('fails the call a reply too large to read answers with too-large, instead of leaving it waiting', async () => {
    const [a, b] = memoryPair();
    const big = 'x'.repeat(MAX_JSON_FRAME + 1);
    peer(b, (method, id) => (method === 'hello' ? { t: 'res', id, ok: true, result: WELCOME } : { t: 'res', id, ok: true, result: { apps: [big], errors: [] } }));
    const c = new Connection(a);
    await c.hello({ client: { name: 't', kind: 'test' }, capabilities: ['read'] });
    const e = await c.call('apps/list', {}).then(
      () => null,
      (x: PaneFault) => x,
    );
    expect(e?.code).toBe('too-large');
    expect(e?.message).toMatch(/^the reply to apps\/list is \d+ characters, over the 4194304-byte frame limit; it was not read/);
    const unaddressed: PaneFault[] = [];
    c.onError((f) => unaddressed.push(f));
    b.send(JSON.stringify({ t: 'evt', event: 'apps/changed', rev: 9, data: { apps: [big] } }));
    await new Promise((r) => setTimeout(r, 0));
    expect(unaddressed.map((f) => f.code)).toEqual(['too-large']);
  });

  it('applies a reply in order with the frames read with it: inOrder runs before the event behind it, the promise after', async () => {
    /** Frames in, several within one synchronous turn, as one read of a stream brings them. */
    class OneRead extends BaseTransport {
      readonly kind = 'test';
      readonly sent: string[] = [];
      send(f: WireFrame): void {
        if (typeof f === 'string') this.sent.push(f);
      }
      close(): void {}
      read(...frames: object[]): void {
        for (const f of frames) this.deliver(JSON.stringify(f));
      }
    }
    const t = new OneRead();
    const c = new Connection(t, { checkResult: checkResults });
    const order: string[] = [];
    c.onEvent((event) => order.push(`event ${event}`));
    const listed = c.call('pane/list', {}, { inOrder: (r) => void order.push(`list of ${r.panes.length}`) }).then(() => order.push('then'));
    const plain = c.call('server/info', {}).then(() => order.push('plain then'));
    const [list, info] = t.sent.map((f) => (JSON.parse(f) as { id: number }).id);
    const INFO = { host: 'box', version: '0', protocol: 1, pid: 1, socket: null, startedAt: 0, rev: 1, panes: 0, sessions: 0, clients: 1, memory: { rss: 1, heapUsed: 1 } };
    t.read({ t: 'res', id: list, ok: true, result: { panes: [] } }, { t: 'evt', event: 'pane/closed', rev: 2, data: { pane: 7 } }, { t: 'res', id: info, ok: true, result: INFO }, { t: 'evt', event: 'pane/closed', rev: 3, data: { pane: 8 } });
    await Promise.all([listed, plain]);
    // The list at its place among the frames; a plain continuation only after every frame of the read (the hazard inOrder is for).
    expect(order).toEqual(['list of 0', 'event pane/closed', 'event pane/closed', 'then', 'plain then']);

    // A reply that fails its check is not handed to inOrder; a throw in inOrder rejects the call.
    let seen = 0;
    const bad = c.call('pane/list', {}, { inOrder: () => void seen++ });
    const thrown = c.call('pane/list', {}, {
      inOrder: () => {
        throw new Error('the list does not apply');
      },
    });
    const [b, th] = t.sent.slice(2).map((f) => (JSON.parse(f) as { id: number }).id);
    t.read({ t: 'res', id: b, ok: true, result: { panes: 'no' } }, { t: 'res', id: th, ok: true, result: { panes: [] } });
    await expect(bad).rejects.toThrow(/malformed/);
    await expect(thrown).rejects.toThrow('the list does not apply');
    expect(seen).toBe(0);
  });
});
