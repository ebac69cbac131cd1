// RemoteStream's acknowledgements upstream (issue 26): a full chunk is acked at once,
// even while an idle-timer ack for a smaller run is pending; a run under a chunk
// waits ACK_IDLE_MS. Without the first, the remote heard one ack per ACK_IDLE_MS and
// kept its window at the floor (a 20 ms link streamed at a quarter of ssh's pace).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACK_CHUNK, ACK_IDLE_MS } from '../../kits/protocol/flow';
import type { HostLink } from './hostLink';
import { attachLie, LIVE_END_SLACK, LIVE_END_WAIT_MS, REMOTE_STREAM_BUFFER, RemoteStream } from './remoteStream';

function fakeLink(o: { liveEnd?: () => Promise<number>; inputAt?: number } = {}) {
  const acks: number[] = [];
  const attaches: unknown[] = [];
  const reads: unknown[] = [];
  const link = {
    name: 'box',
    generation: 1,
    streaming: new Set<number>(),
    listAsOf: null,
    panes: [],
    cut: vi.fn(),
    // Acks go as notifications (no reply to wait for); a call of pty/ack would fail the test.
    notify: vi.fn((method: string, params: { bytes?: number }) => {
      if (method === 'pty/ack') acks.push(params.bytes ?? 0);
    }),
    call: vi.fn(async (method: string, params: { bytes?: number; flowStart?: string }) => {
      if (method === 'pty/ack') throw new Error('pty/ack was sent as a call: acks are notifications');
      if (method === 'pty/attach') attaches.push(params);
      if (method === 'pty/attach') return { pane: 3, from: 0, gap: false, streamStart: 0, streamEnd: 0 };
      if (method === 'pty/read') {
        reads.push(params);
        const end = await (o.liveEnd ?? (async () => 0))();
        return { pane: 3, from: end, to: end, gap: false, streamStart: 0, streamEnd: end, data: '', encoding: 'utf8', ...(o.inputAt !== undefined ? { inputAt: o.inputAt } : {}) };
      }
      return {};
    }),
  };
  return { link: link as unknown as HostLink, acks, attaches, reads };
}

/** A local reader that records the offsets of what it is sent. */
function reader(id: string) {
  const got: { offset: number; bytes: number }[] = [];
  return { got, sink: { id, sendOutput: (_p: number, offset: number, data: Uint8Array) => void got.push({ offset, bytes: data.byteLength }), buffered: () => 0 } };
}

const sink = { id: 'c1', sendOutput: () => undefined, buffered: () => 0 };

afterEach(() => {
  vi.useRealTimers();
});

describe('RemoteStream acks upstream', () => {
  it('keeps what it owes the host when the link is said connected again on the same connection, and forgets it on a new one', async () => {
    vi.useFakeTimers();
    const { link, acks } = fakeLink();
    const s = new RemoteStream(link, 3, 0x8000_0001);
    await s.attach(sink, false, 'from', 0);
    s.take(0, new Uint8Array(1024)); // under a chunk: waits for the idle timer
    // The host service calls resume at every change of its hosts: a pane listed there, a stale link answering again.
    s.resume();
    await vi.advanceTimersByTimeAsync(ACK_IDLE_MS);
    expect(acks).toEqual([1024]);
    // A new connection: nothing is owed to it for what came on the old one.
    s.take(1024, new Uint8Array(512));
    (link as unknown as { generation: number }).generation = 2;
    s.resume();
    await vi.advanceTimersByTimeAsync(ACK_IDLE_MS);
    expect(acks).toEqual([1024]);
    s.dispose();
  });

  it('acks a full chunk at once, even while an idle ack for a smaller run is pending', async () => {
    vi.useFakeTimers();
    const { link, acks } = fakeLink();
    const s = new RemoteStream(link, 3, 0x8000_0001);
    await s.attach(sink, false, 'from', 0);
    s.take(0, new Uint8Array(1024)); // under a chunk: waits for the idle timer
    expect(acks).toEqual([]);
    s.take(1024, new Uint8Array(ACK_CHUNK)); // past a chunk: acked now, the pending small one with it
    await Promise.resolve();
    expect(acks).toEqual([1024 + ACK_CHUNK]);
    s.take(1024 + ACK_CHUNK, new Uint8Array(10));
    await vi.advanceTimersByTimeAsync(ACK_IDLE_MS - 1);
    expect(acks).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2);
    expect(acks).toEqual([1024 + ACK_CHUNK, 10]);
    s.dispose();
  });

  it("attaches upstream flow-controlled with the window open from the start (flowStart 'max'): it buffers and acks as bytes come", async () => {
    const { link, attaches } = fakeLink();
    const s = new RemoteStream(link, 3, 0x8000_0001);
    await s.attach(sink, false, 'from', 0);
    expect(attaches).toEqual([{ pane: 3, mode: 'from', from: 0, flowControl: true, flowStart: 'max' }]);
    s.dispose();
  });
});

describe('RemoteStream resumes a reader at the live end', () => {
  // A window's Ctrl-C in a flood in a remote pane (decision 042) re-attaches past the end. What
  // is still on its way over the link was printed before the interrupt: it is not drawn.
  it('asks the host where its stream ends and sends that reader nothing before it, while another reader gets every byte', async () => {
    const { link, reads } = fakeLink({ liveEnd: async () => 3000 });
    const s = new RemoteStream(link, 3, 0x8000_0001);
    const follower = reader('follower');
    const window = reader('window');
    await s.attach(follower.sink, false, 'from', 0);
    await s.attach(window.sink, false, 'from', 0);
    s.take(0, new Uint8Array(1000));
    const r = await s.attach(window.sink, false, 'from', Number.MAX_SAFE_INTEGER);
    expect(reads).toEqual([{ pane: 3, from: Number.MAX_SAFE_INTEGER, maxBytes: 1 }]);
    expect(r.from).toBe(3000);
    window.got.length = 0;
    s.take(1000, new Uint8Array(1500)); // on its way when the key was typed
    s.take(2500, new Uint8Array(1000)); // straddles the end the host named
    expect(window.got).toEqual([{ offset: 3000, bytes: 500 }]);
    expect(follower.got.reduce((n, g) => n + g.bytes, 0)).toBe(3500);
    s.dispose();
  });

  it('sends a reader waiting for the host’s answer nothing, and does not hold back acks for it', async () => {
    vi.useFakeTimers();
    let answer: (end: number) => void = () => undefined;
    const { link, acks } = fakeLink({ liveEnd: () => new Promise<number>((r) => (answer = r)) });
    const s = new RemoteStream(link, 3, 0x8000_0001);
    const window = reader('window');
    await s.attach(window.sink, false, 'from', 0);
    const resumed = s.attach(window.sink, false, 'from', Number.MAX_SAFE_INTEGER);
    await Promise.resolve();
    window.got.length = 0;
    s.take(0, new Uint8Array(ACK_CHUNK));
    expect(window.got).toEqual([]);
    expect(acks).toEqual([ACK_CHUNK]);
    answer(ACK_CHUNK + 10);
    expect((await resumed).from).toBe(ACK_CHUNK + 10);
    s.take(ACK_CHUNK, new Uint8Array(20));
    expect(window.got).toEqual([{ offset: ACK_CHUNK + 10, bytes: 10 }]);
    s.dispose();
  });

  it('acks what a reader held back as soon as it waits for the live end, before the host answers', async () => {
    let answer: (end: number) => void = () => undefined;
    const { link, acks, reads } = fakeLink({ liveEnd: () => new Promise<number>((r) => (answer = r)) });
    const s = new RemoteStream(link, 3, 0x8000_0001);
    // A window's reader under flow control that stopped acknowledging (a flood it parses slowly).
    const window = reader('window');
    await s.attach(window.sink, true, 'from', 0);
    let at = 0;
    for (let i = 0; i < (REMOTE_STREAM_BUFFER / ACK_CHUNK) * 2; i++, at += ACK_CHUNK) s.take(at, new Uint8Array(ACK_CHUNK));
    const ackedBefore = acks.reduce((a, b) => a + b, 0);
    expect(ackedBefore).toBeLessThan(at); // the slow reader held the rest back: the host is paused at its window
    const resumed = s.attach(window.sink, true, 'from', Number.MAX_SAFE_INTEGER);
    await vi.waitFor(() => expect(reads).toHaveLength(1));
    // Before the host's answer: everything received is acknowledged.
    expect(acks.reduce((a, b) => a + b, 0)).toBe(at);
    answer(at);
    expect((await resumed).from).toBe(at);
    s.dispose();
  });

  it('resumes a reader atInput where the host says the keys reached the program, and at what arrived when it names no such point', async () => {
    for (const inputAt of [600, undefined]) {
      const { link } = fakeLink({ liveEnd: async () => 1000, ...(inputAt !== undefined ? { inputAt } : {}) });
      const s = new RemoteStream(link, 3, 0x8000_0001);
      const window = reader('window');
      await s.attach(window.sink, false, 'from', 0);
      s.take(0, new Uint8Array(1000));
      // The window had taken 400 bytes; the host read past the keys (its answer) before it was asked.
      expect((await s.attach(window.sink, false, 'from', 400, true)).from).toBe(inputAt ?? 400);
      s.dispose();
    }
  });

  it('resumes at what arrived when the host names an end further than can be on its way (LIVE_END_SLACK)', async () => {
    const { link } = fakeLink({ liveEnd: async () => 1000 + LIVE_END_SLACK + 1 });
    const s = new RemoteStream(link, 3, 0x8000_0001);
    const window = reader('window');
    await s.attach(window.sink, false, 'from', 0);
    s.take(0, new Uint8Array(1000));
    expect((await s.attach(window.sink, false, 'from', Number.MAX_SAFE_INTEGER)).from).toBe(1000);
    window.got.length = 0;
    s.take(1000, new Uint8Array(10));
    expect(window.got).toEqual([{ offset: 1000, bytes: 10 }]);
    expect(link.cut).not.toHaveBeenCalled();
    s.dispose();
  });

  it(`resumes at what arrived when the host does not answer within LIVE_END_WAIT_MS`, async () => {
    vi.useFakeTimers();
    const { link } = fakeLink({ liveEnd: () => new Promise<number>(() => undefined) });
    const s = new RemoteStream(link, 3, 0x8000_0001);
    const window = reader('window');
    await s.attach(window.sink, false, 'from', 0);
    s.take(0, new Uint8Array(1000));
    const resumed = s.attach(window.sink, false, 'from', Number.MAX_SAFE_INTEGER);
    await vi.advanceTimersByTimeAsync(LIVE_END_WAIT_MS - 1);
    window.got.length = 0;
    s.take(1000, new Uint8Array(10));
    expect(window.got).toEqual([]);
    await vi.advanceTimersByTimeAsync(2);
    expect((await resumed).from).toBe(1000);
    expect(window.got).toEqual([{ offset: 1000, bytes: 10 }]);
    s.dispose();
  });

  it('takes a first attach asked past the end at the end the host names, and still calls a start before what was asked a lie', () => {
    expect(attachLie({ from: 500, streamStart: 0, streamEnd: 500 }, Number.MAX_SAFE_INTEGER)).toBeNull();
    expect(attachLie({ from: 400, streamStart: 0, streamEnd: 500 }, Number.MAX_SAFE_INTEGER)).toMatch(/before/);
    expect(attachLie({ from: 100, streamStart: 0, streamEnd: 500 }, 200)).toMatch(/before 200/);
  });
});
