// Per-client flow control sized from the client's measured drain rate, driven
// by an injected clock so no figure depends on how loaded the machine is.
import { describe, expect, it } from 'vitest';
import { FLOW_HIGH_MAX, FLOW_HIGH_MIN, FLOW_TARGET_MS } from '../../kits/protocol/flow';
import { Fanout, RATE_MIN_ACK, flowHigh, type StreamSink } from './fanout';
import { ByteRing } from './ring';

const KiB = 1024;

function setup() {
  const clock = { ms: 10_000 };
  const ring = new ByteRing(8 << 20);
  const sent: number[] = [];
  const sink: StreamSink = { id: 'c', sendOutput: (_p, _o, d) => sent.push(d.byteLength), buffered: () => 0 };
  const f = new Fanout(1, ring, () => {}, { now: () => clock.ms });
  const s = f.add(sink, true);
  f.start(s, 0);
  /** The PTY produced `n` bytes and they were released as one batch. */
  const output = (n: number) => {
    ring.append(Buffer.alloc(n, 0x61));
    f.release(ring.streamEnd);
  };
  const unacked = () => s.sent - s.acked;
  return { clock, f, s, output, unacked, sent };
}

/** Ms per 64 KiB ack of a client whose window lands midway between the bounds. */
const MID_MS = (64 * KiB * FLOW_TARGET_MS) / ((FLOW_HIGH_MIN + FLOW_HIGH_MAX) / 2);

/** Streams `chunks` chunks of 64 KiB, the client acking each `msPer` ms after the previous one. */
function drain(t: ReturnType<typeof setup>, chunks: number, msPer: number) {
  for (let i = 0; i < chunks; i++) {
    t.output(64 * KiB);
    t.clock.ms += msPer;
    t.f.ack('c', 64 * KiB);
  }
}

describe('Fanout flow window', () => {
  it('gives a client not yet measured the smallest window: it pauses just past FLOW_HIGH_MIN and resumes below half', () => {
    const t = setup();
    expect(t.s.high).toBe(FLOW_HIGH_MIN);
    while (!t.f.holding) t.output(16 * KiB);
    expect(t.unacked()).toBe(FLOW_HIGH_MIN + 16 * KiB);
    t.clock.ms += 60_000; // a slow client: its acks keep the window at the floor
    t.f.ack('c', t.unacked() - FLOW_HIGH_MIN / 2);
    expect(t.s.high).toBe(FLOW_HIGH_MIN);
    expect(t.f.holding).toBe(true);
    t.f.ack('c', 1);
    expect(t.f.holding).toBe(false);
  });

  it("opens a relay's window at FLOW_HIGH_MAX before any ack (flowStart 'max'), then follows its measured rate down", () => {
    const t = setup();
    const relay: StreamSink = { id: 'r', sendOutput: () => undefined, buffered: () => 0 };
    const r = t.f.add(relay, true, 'max');
    t.f.start(r, t.f.limit);
    expect(r.high).toBe(FLOW_HIGH_MAX);
    t.f.remove('c'); // only the relay paces the pane now
    let n = 0;
    while (!t.f.holding && n++ < 1000) t.output(16 * KiB);
    expect(r.sent - r.acked).toBeGreaterThan(FLOW_HIGH_MAX); // the floor would have paused it at FLOW_HIGH_MIN
    expect(r.sent - r.acked).toBeLessThanOrEqual(FLOW_HIGH_MAX + 16 * KiB);
    // A relay that turns out slow (a 64 KiB ack each second) is sized down like any client.
    for (let i = 0; i < 40; i++) {
      t.clock.ms += 1000;
      t.f.ack('r', 64 * KiB);
      t.output(64 * KiB);
    }
    expect(r.high).toBe(FLOW_HIGH_MIN);
  });

  it('sizes the window to FLOW_TARGET_MS of the rate the client acks at', () => {
    const t = setup();
    drain(t, 40, MID_MS);
    expect(t.s.rate).toBeCloseTo((64 * KiB) / MID_MS, 0);
    expect(t.s.high).toBeCloseTo((FLOW_HIGH_MIN + FLOW_HIGH_MAX) / 2, -2);
    expect(t.s.high).toBeGreaterThan(FLOW_HIGH_MIN);
    expect(t.s.high).toBeLessThan(FLOW_HIGH_MAX);
    // It now holds that much before pausing.
    while (!t.f.holding) t.output(16 * KiB);
    expect(t.unacked()).toBeGreaterThan(t.s.high);
    expect(t.unacked()).toBeLessThanOrEqual(t.s.high + 16 * KiB);
  });

  it('keeps the window within FLOW_HIGH_MIN..FLOW_HIGH_MAX however fast or slow the client is', () => {
    const fast = setup();
    drain(fast, 20, 0); // acks arrive in the same instant
    expect(fast.s.high).toBe(FLOW_HIGH_MAX);
    const slow = setup();
    drain(slow, 4, 2_000); // 32 bytes/ms
    expect(slow.s.high).toBe(FLOW_HIGH_MIN);
    for (const rate of [0, 1e-6, 1, 1e3, 1e9, Infinity]) {
      expect(flowHigh(rate)).toBeGreaterThanOrEqual(FLOW_HIGH_MIN);
      expect(flowHigh(rate)).toBeLessThanOrEqual(FLOW_HIGH_MAX);
    }
  });

  it('follows a client that slows down, and shrinks its window toward the floor', () => {
    const t = setup();
    drain(t, 16, 0);
    expect(t.s.high).toBe(FLOW_HIGH_MAX);
    drain(t, 24, 4 * FLOW_TARGET_MS); // now slow: 16 KiB per target period
    expect(t.s.high).toBeLessThan(FLOW_HIGH_MIN + 16 * KiB);
    expect(t.s.high).toBeGreaterThanOrEqual(FLOW_HIGH_MIN);
  });

  it('does not count the time a client owed nothing as slowness', () => {
    const t = setup();
    drain(t, 4, MID_MS);
    const before = t.s.rate;
    expect(t.unacked()).toBe(0);
    t.clock.ms += 60_000; // a minute with no output
    drain(t, 1, MID_MS / 2); // then faster: the estimate rises, it does not collapse
    expect(t.s.rate).toBeGreaterThan(before);
    expect(t.s.high).toBe(flowHigh(t.s.rate));
  });

  it('grows the window at most a quarter per ack, so acks that arrive bunched do not open it wide', () => {
    const t = setup();
    drain(t, 20, 2 * FLOW_TARGET_MS); // 64 KiB per 2 target periods: below the floor's rate
    expect(t.s.high).toBe(FLOW_HIGH_MIN);
    t.output(128 * KiB);
    t.clock.ms += 2 * FLOW_TARGET_MS;
    t.f.ack('c', 64 * KiB);
    t.f.ack('c', 64 * KiB); // the second in the same instant
    expect(t.s.high).toBeLessThanOrEqual(FLOW_HIGH_MIN * 1.25);
    // A client that really is fast still reaches the top within a megabyte (16× at 1.25× an ack).
    drain(t, 14, 0);
    expect(t.s.high).toBe(FLOW_HIGH_MAX);
  });

  it('ignores small acks (idle-timer tails) for the rate, so typing does not shrink a measured window', () => {
    const t = setup();
    drain(t, 4, MID_MS);
    const high = t.s.high;
    for (let i = 0; i < 50; i++) {
      t.output(1); // an echoed key
      t.clock.ms += 10; // acked by the client's idle timer
      t.f.ack('c', 1);
    }
    expect(RATE_MIN_ACK).toBeGreaterThan(1);
    expect(t.s.high).toBe(high);
  });

  it('resumes below half of the window measured for the client', () => {
    const t = setup();
    drain(t, 40, MID_MS);
    const { high, rate } = t.s;
    while (!t.f.holding) t.output(16 * KiB);
    const ack = (n: number) => {
      t.clock.ms += n / rate; // acking at the same pace keeps the window as it is
      t.f.ack('c', n);
    };
    ack(t.unacked() - high / 2); // exactly half left: still paused
    expect(t.s.high).toBe(high);
    expect(t.f.holding).toBe(true);
    ack(1);
    expect(t.f.holding).toBe(false);
  });
});

describe('Fanout stall bound', () => {
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const STALL = 40;
  const COOL = 400;

  function silent() {
    const ring = new ByteRing(8 << 20);
    const sink: StreamSink = { id: 'c', sendOutput: () => {}, buffered: () => 0 };
    const f = new Fanout(1, ring, () => {}, { stallMs: STALL, cooldownMs: COOL });
    const attach = () => {
      const s = f.add(sink, true);
      f.start(s, ring.streamEnd);
      return s;
    };
    const flood = () => {
      ring.append(Buffer.alloc(FLOW_HIGH_MIN * 2, 0x61));
      f.release(ring.streamEnd);
    };
    return { f, attach, flood };
  }

  it('lets a client that never acks hold the pane only ACK_STALL_MS', async () => {
    const t = silent();
    t.attach();
    t.flood();
    expect(t.f.holding).toBe(true);
    await wait(STALL * 3);
    expect(t.f.holding).toBe(false);
  });

  it('gives a client that stalled no fresh hold for STALL_COOLDOWN_MS, by acking everything or by attaching again', async () => {
    const t = silent();
    const s = t.attach();
    t.flood();
    await wait(STALL * 3);
    expect(s.stalled).toBe(true);
    // Caught up at once (acks are the client's word): still no pause.
    t.f.ack('c', Number.MAX_SAFE_INTEGER);
    t.flood();
    expect(t.f.holding).toBe(false);
    // Detached and attached again: the same.
    t.f.remove('c');
    t.attach();
    t.flood();
    expect(t.f.holding).toBe(false);
    // After the cooldown, caught up, it paces the pane again.
    await wait(COOL + STALL);
    t.f.ack('c', Number.MAX_SAFE_INTEGER);
    t.flood();
    expect(t.f.holding).toBe(true);
  });
});
