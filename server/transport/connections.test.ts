import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_JSON_FRAME } from '../../kits/protocol/binary';
import { EventBus } from '../model/bus';
import type { ClientConn } from './clientConn';
import { Connections, type ConnectionsHost } from './connections';
import type { Principal } from '../../kits/protocol/principal';
import { isStoppedFault, PaneFault, type PaneError } from '../../kits/protocol/error';

/** The few members of a ClientConn the registry uses, recording what it is sent. */
function conn(id: string, families: string[] | null, principal: Principal = { kind: 'person' }, helloed = true) {
  const sent: string[] = [];
  const c = {
    id,
    principal,
    readOnly: false,
    helloed,
    name: `n-${id}`,
    sink: { id: `s-${id}` },
    closed: null as string | null,
    /** The error frame it was told before closing (closeSaying). */
    said: null as PaneError | null,
    wantsEvent: (f: string) => families !== null && (families.length === 0 || families.includes(f)),
    sendRaw: (frame: string) => void sent.push(frame),
    close: (reason: string) => void (c.closed = reason),
    closeSaying: (f: PaneFault) => {
      c.said = f.toError();
      c.closed = f.message;
    },
  };
  return { c, sent, conn: c as unknown as ClientConn };
}

function host() {
  const stops: (() => void)[] = [];
  const stopped: (() => void)[] = [];
  const h = {
    bus: new EventBus(),
    panes: new Map<number, { session: string }>([[3, { session: 's' }], [4, { session: 'other' }]]),
    describeSink: (_id: string) => undefined as string | undefined,
    onDisconnect: (cb: () => void) => void stops.push(cb),
    onStopped: (cb: () => void) => void stopped.push(cb),
  };
  return { h: h as ConnectionsHost & typeof h, stop: () => stops.forEach((f) => f()), stopped: () => stopped.forEach((f) => f()) };
}

afterEach(() => vi.restoreAllMocks());

describe('Connections', () => {
  it('frames each event once for all the clients that asked for its family, and skips the rest', () => {
    const { h } = host();
    const reg = new Connections(h);
    const all = conn('a', []);
    const panes = conn('b', ['pane']);
    const layout = conn('c', ['layout']);
    const none = conn('d', null);
    for (const x of [all, panes, layout, none]) reg.add(x.conn);
    const stringify = vi.spyOn(JSON, 'stringify');
    h.bus.publish('pane/closed', { pane: 3, session: 's', id: 'h:3' });
    expect(stringify).toHaveBeenCalledTimes(1);
    expect(all.sent).toEqual([JSON.stringify({ t: 'evt', event: 'pane/closed', rev: 1, data: { pane: 3, session: 's', id: 'h:3' } })]);
    expect(panes.sent).toEqual(all.sent);
    expect(layout.sent).toEqual([]);
    expect(none.sent).toEqual([]);
  });

  it("gives a grant's guest the events of its session's panes alone, nothing of grants or clients", () => {
    const { h } = host();
    const reg = new Connections(h);
    const guest = conn('g', [], { kind: 'grant', id: 'g00000001', mode: 'ro', session: 's' });
    reg.add(guest.conn);
    h.bus.publish('pane/tag-changed', { pane: 3, tag: { name: 'mine', commands: [], user: '' } });
    h.bus.publish('pane/tag-changed', { pane: 4, tag: { name: 'SECRET', commands: [], user: '' } });
    h.bus.publish('pane/closed', { pane: 9, session: 'other', id: 'h:9' });
    h.bus.publish('client/attached', { client: 'x', name: 'someone' });
    h.bus.publish('grant/changed', { id: 'g00000002', change: 'issued' });
    expect(guest.sent).toHaveLength(1);
    expect(guest.sent[0]).toContain('"mine"');
  });

  it('tells an agent of the grants it issued alone; the person hears of every grant', () => {
    const { h } = host();
    const reg = new Connections(h);
    const ada = conn('a', [], { kind: 'agent', name: 'ada' });
    const person = conn('p', []);
    reg.add(ada.conn);
    reg.add(person.conn);
    h.bus.publish('grant/changed', { id: 'g00000001', change: 'issued', mode: 'ro', session: 's', by: 'agent:ada' });
    h.bus.publish('grant/changed', { id: 'g00000002', change: 'issued', mode: 'rw', session: 's' });
    h.bus.publish('grant/changed', { id: 'g00000003', change: 'revoked', closed: 0, by: 'agent:bob' });
    expect(ada.sent).toHaveLength(1);
    expect(ada.sent[0]).toContain('g00000001');
    expect(person.sent).toHaveLength(3);
  });

  it('sends a too-large error frame in place of an event past the frame limit', () => {
    const { h } = host();
    const reg = new Connections(h);
    const a = conn('a', []);
    reg.add(a.conn);
    h.bus.publish('client/refused', { door: 'd', reason: 'x'.repeat(MAX_JSON_FRAME) });
    const f = JSON.parse(a.sent[0]!) as { t: string; error: { code: string; subject: string } };
    expect(f.t).toBe('res');
    expect(f.error).toMatchObject({ code: 'too-large', subject: 'client/refused' });
  });

  it('names a sink by its client for the model, and closes every connection when the server stops, the one that asked for the stop once it is done', () => {
    const { h, stop, stopped } = host();
    const reg = new Connections(h);
    const a = conn('a', []);
    const b = conn('b', []);
    const asker = conn('asker', []);
    reg.add(a.conn);
    reg.add(b.conn);
    reg.add(asker.conn);
    expect(h.describeSink('s-b')).toBe('client n-b');
    expect(h.describeSink('s-zz')).toBeUndefined();
    reg.holdUntilStopped(asker.conn);
    stop();
    const word = 'the pane server was stopped by the person (pane stop); its panes have ended';
    expect([a.c.closed, b.c.closed, asker.c.closed]).toEqual([word, word, null]);
    stopped();
    expect(asker.c.closed).toBe('server stopped');
    expect(reg.delete(a.conn)).toBe(true);
    expect(reg.delete(a.conn)).toBe(false);
  });

  it('tells every other client that a client stopped the server, naming who, before it closes them (a stop asked for is for good)', () => {
    const { h, stop, stopped } = host();
    const reg = new Connections(h);
    const watcher = conn('w', null);
    const asker = conn('ada', null, { kind: 'agent', name: 'ada' });
    const late = conn('p', null);
    const guest = conn('g', null, { kind: 'grant', id: 'g1', mode: 'ro', session: 's' } as Principal);
    const link = conn('h', null, { kind: 'host', name: 'box' } as Principal);
    // A connection still before its hello (a TLS or WebSocket peer not yet let in) holds the person's default principal: it is no one yet.
    const early = conn('e', null, { kind: 'person' }, false);
    for (const x of [watcher, asker, late, guest, link, early]) reg.add(x.conn);
    reg.holdUntilStopped(asker.conn);
    // A second stop asked while the first runs names the first asker still.
    reg.holdUntilStopped(late.conn);
    stop();
    expect(watcher.c.said).toMatchObject({ code: 'failed', reason: 'stopped', subject: 'server/stop' });
    expect(watcher.c.said?.message).toBe('the pane server was stopped by agent ada (pane stop); its panes have ended');
    expect(isStoppedFault(new PaneFault(watcher.c.said!.code, watcher.c.said!.message, watcher.c.said!))).toBe(true);
    // A grant's guest, a joined host's link and a connection before its hello are told it was stopped, not who did it.
    expect([guest.c.closed, link.c.closed, early.c.closed]).toEqual(Array(3).fill('the pane server was stopped (pane stop); its panes have ended'));
    expect(isStoppedFault(new PaneFault(guest.c.said!.code, guest.c.said!.message, guest.c.said!))).toBe(true);
    expect([asker.c.closed, late.c.closed]).toEqual([null, null]);
    stopped();
    expect([asker.c.said, late.c.said, asker.c.closed]).toEqual([null, null, 'server stopped']);
  });

  it('says nothing of a stop nobody asked for through server/stop (a signal: systemd stopping it, perhaps to start it again)', () => {
    const { h, stop, stopped } = host();
    const reg = new Connections(h);
    const a = conn('a', null);
    reg.add(a.conn);
    stop();
    expect([a.c.closed, a.c.said]).toEqual(['server stopping', null]);
    stopped();
  });
});
