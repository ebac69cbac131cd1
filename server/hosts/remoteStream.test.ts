// RemoteStream's acknowledgements upstream (issue 26): a full chunk is acked at once,
// even while an idle-timer ack for a smaller run is pending; a run under a chunk
// waits ACK_IDLE_MS. Without the first, the remote heard one ack per ACK_IDLE_MS and
// kept its window at the floor (a 20 ms link streamed at a quarter of ssh's pace).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACK_CHUNK, ACK_IDLE_MS } from '../../kits/protocol/flow';
import type { HostLink } from './hostLink';
import { RemoteStream } from './remoteStream';

function fakeLink() {
  const acks: number[] = [];
  const attaches: unknown[] = [];
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
      return {};
    }),
  };
  return { link: link as unknown as HostLink, acks, attaches };
}

const sink = { id: 'c1', sendOutput: () => undefined, buffered: () => 0 };

afterEach(() => {
  vi.useRealTimers();
});

describe('RemoteStream acks upstream', () => {
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
