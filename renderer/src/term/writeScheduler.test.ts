// The page's write scheduler: round-robin between panes, at most two slices per
// pane inside xterm, slices sized to the pane's parse rate, and a frame budget that
// binds only while several panes want writing. xterm is played by a fake that
// "parses" when the test says so; the clock is the test's.
import { describe, expect, it } from 'vitest';
import { ECHO_WAIT_MS, FLOOD_BATCH, FRAME_MS, MAX_INFLIGHT, SLICE_MAX, SLICE_MIN, SLICE_MIN_TYPING, SLICE_MS_TYPING, TASK_MS, TASK_MS_TYPING, TYPING_MS, WriteScheduler, type SchedulerClock } from './writeScheduler';

function rig() {
  let t = 0;
  const timers: { at: number; fn: () => void }[] = [];
  const ends: (() => void)[] = [];
  const clock: SchedulerClock = { now: () => t, later: (fn, ms) => void timers.push({ at: t + ms, fn }), soon: (fn) => void timers.push({ at: t, fn }), afterTask: (fn) => void ends.push(fn) };
  const s = new WriteScheduler(clock);
  /** Slices handed to "xterm", in order, each with its parsed() callback. */
  const log: { pane: number; bytes: number; done: () => void }[] = [];
  const writer = (pane: number) => (data: Uint8Array, done: () => void) => void log.push({ pane, bytes: data.byteLength, done });
  return {
    s,
    log,
    writer,
    advance(ms: number) {
      t += ms;
      for (const x of timers.splice(0).sort((a, b) => a.at - b.at)) if (x.at <= t) x.fn();
        else timers.push(x);
    },
    /** xterm parses the oldest unparsed slice, taking `ms`, in the current page task. */
    parse(ms = 1) {
      const next = log.find((l) => !(l as { parsed?: boolean }).parsed);
      if (!next) throw new Error('nothing to parse');
      (next as { parsed?: boolean }).parsed = true;
      t += ms;
      next.done();
    },
    /** The page task ends. */
    endTask() {
      for (const f of ends.splice(0)) f();
    },
  };
}

const bytes = (n: number) => new Uint8Array(n);

describe('WriteScheduler', () => {
  it('writes a quiet pane’s output at once, whole', () => {
    const r = rig();
    r.s.write(1, bytes(10), r.writer(1));
    expect(r.log.map((l) => [l.pane, l.bytes])).toEqual([[1, 10]]);
  });

  it('keeps at most two slices of a flood inside xterm and hands the next as one is parsed', () => {
    const r = rig();
    r.s.write(1, bytes(1 << 20), r.writer(1));
    expect(r.log).toHaveLength(MAX_INFLIGHT);
    expect(r.log.every((l) => l.bytes >= SLICE_MIN && l.bytes <= SLICE_MAX)).toBe(true);
    r.parse();
    expect(r.log).toHaveLength(MAX_INFLIGHT + 1);
    expect(r.s.queued(1)).toBe((1 << 20) - r.log.reduce((n, l) => n + l.bytes, 0));
  });

  it('gives another pane’s echo the very next turn beside a flood, ahead of the flood’s queue', () => {
    const r = rig();
    r.s.write(1, bytes(1 << 20), r.writer(1));
    r.s.write(2, bytes(3), r.writer(2));
    // The echo is handed to xterm at once: behind at most the flood's two slices already there.
    expect(r.log.map((l) => l.pane)).toEqual([1, 1, 2]);
  });

  it('serves several flooding panes round-robin, in equal shares', () => {
    const r = rig();
    for (const p of [1, 2, 3, 4]) r.s.write(p, bytes(1 << 20), r.writer(p));
    for (let i = 0; i < 200; i++) {
      r.parse(0.1);
      r.advance(FRAME_MS);
    }
    // Once each pane's rate is measured (the first slices are sized before it is), bytes are shared alike.
    const share = [1, 2, 3, 4].map((p) => r.log.slice(-100).filter((l) => l.pane === p).reduce((n, l) => n + l.bytes, 0));
    const min = Math.min(...share);
    const max = Math.max(...share);
    expect(min).toBeGreaterThan(0);
    expect(max / min).toBeLessThan(1.3);
    // Round-robin: no pane gets two slices in a row while others wait.
    const order = r.log.slice(8).map((l) => l.pane);
    for (let i = 1; i < order.length; i++) expect(order[i]).not.toBe(order[i - 1]);
  });

  it('while two panes want writing, stops at the frame budget and resumes on the next frame; a lone flood is never held back', () => {
    const r = rig();
    // Slow parsing (10 ms a slice) of two floods: the budget is spent after a few slices.
    r.s.write(1, bytes(1 << 20), r.writer(1));
    r.s.write(2, bytes(1 << 20), r.writer(2));
    const handed = r.log.length;
    for (let i = 0; i < handed; i++) {
      r.parse(10);
      r.endTask();
      r.advance(0);
    }
    const inFrame = r.log.length;
    r.parse(0);
    expect(r.log.length).toBeLessThanOrEqual(inFrame + 1);
    r.advance(FRAME_MS);
    expect(r.log.length).toBeGreaterThan(inFrame);
    // Alone, a flood keeps two slices in xterm however long parsing takes.
    const a = rig();
    a.s.write(1, bytes(1 << 20), a.writer(1));
    for (let i = 0; i < 20; i++) {
      a.parse(10);
      a.endTask();
      a.advance(0);
      expect(a.log.length - (i + 1)).toBe(MAX_INFLIGHT);
    }
  });

  it('parses in shorter tasks while someone types, and in long ones again after TYPING_MS', () => {
    const typing = rig();
    typing.s.keyed(2);
    typing.advance(ECHO_WAIT_MS + 1); // past the echo's hold, still typing
    typing.s.write(1, bytes(1 << 20), typing.writer(1));
    typing.parse(TASK_MS_TYPING + 0.5);
    expect(typing.log).toHaveLength(MAX_INFLIGHT); // past the typing task length: the next slice waits for a new task
    const quiet = rig();
    quiet.s.keyed(2);
    quiet.advance(TYPING_MS);
    quiet.s.write(1, bytes(1 << 20), quiet.writer(1));
    quiet.parse(TASK_MS_TYPING + 0.5);
    expect(quiet.log).toHaveLength(MAX_INFLIGHT + 1); // nobody typed for TYPING_MS: the task goes on to TASK_MS
  });

  it('cuts a flood into smaller slices while someone types, below the quiet minimum', () => {
    const typing = rig();
    typing.s.keyed(2);
    typing.advance(ECHO_WAIT_MS + 1);
    typing.s.write(1, bytes(1 << 20), typing.writer(1));
    // At the starting rate (1 KiB/ms, a loaded machine's `yes`) a typing slice is SLICE_MS_TYPING of parse: under SLICE_MIN.
    expect(typing.log.map((l) => l.bytes)).toEqual(Array(MAX_INFLIGHT).fill(Math.max(SLICE_MIN_TYPING, 1024 * SLICE_MS_TYPING)));
    expect(typing.log.every((l) => l.bytes < SLICE_MIN)).toBe(true);
    const quiet = rig();
    quiet.s.write(1, bytes(1 << 20), quiet.writer(1));
    expect(quiet.log.every((l) => l.bytes >= SLICE_MIN)).toBe(true);
  });

  it('hands the next slice in a new page task once xterm has parsed TASK_MS in this one', () => {
    const r = rig();
    r.s.write(1, bytes(1 << 20), r.writer(1));
    r.parse(TASK_MS / 2);
    expect(r.log).toHaveLength(MAX_INFLIGHT + 1); // still young: fed at once, xterm goes straight on
    r.parse(TASK_MS / 2 + 1);
    expect(r.log).toHaveLength(MAX_INFLIGHT + 1); // past TASK_MS: nothing more in this task
    r.parse(1);
    r.endTask(); // the page takes a key, a message or a frame here
    expect(r.log).toHaveLength(MAX_INFLIGHT + 1);
    r.advance(0);
    expect(r.log).toHaveLength(MAX_INFLIGHT + 3); // a new task: two slices again
  });

  it('sizes slices to the parse rate it measures, within bounds', () => {
    const fast = rig();
    fast.s.write(1, bytes(4 << 20), fast.writer(1));
    for (let i = 0; i < 40; i++) fast.parse(0.05);
    expect(fast.log.at(-1)!.bytes).toBe(SLICE_MAX);
    const slow = rig();
    slow.s.write(1, bytes(4 << 20), slow.writer(1));
    for (let i = 0; i < 40; i++) {
      slow.parse(50);
      slow.endTask();
      slow.advance(0);
    }
    expect(slow.log.at(-1)!.bytes).toBe(SLICE_MIN);
  });

  it('never holds output back to gather: what arrives after a flood’s batch is handed over at once, as an echo is', () => {
    const r = rig();
    const parseAll = () => {
      while (r.log.some((l) => !(l as { parsed?: boolean }).parsed)) r.parse(0.1);
    };
    // A flood's batch, parsed: the pane is idle in xterm again.
    r.s.write(1, bytes(FLOOD_BATCH), r.writer(1));
    parseAll();
    // More trickles in right after: each piece goes into xterm as it comes.
    for (let i = 0; i < 4; i++) {
      const handed = r.log.length;
      r.advance(2);
      r.s.write(1, bytes(4096), r.writer(1));
      expect(r.log.length).toBe(handed + 1);
      expect(r.s.queued(1)).toBe(0);
      parseAll();
    }
    // Small outputs (an echo after an echo) likewise, however close together.
    const e = rig();
    for (let i = 0; i < 5; i++) {
      e.s.write(2, bytes(1), e.writer(2));
      e.parse(0.1);
      expect(e.log).toHaveLength(i + 1);
    }
  });

  it('after a key, holds other panes’ floods until the echo is parsed and a frame drawn, or ECHO_WAIT_MS', () => {
    const r = rig();
    r.s.write(1, bytes(1 << 20), r.writer(1)); // pane 1 floods
    r.s.keyed(2); // a key typed into pane 2
    r.parse(1);
    r.parse(1); // the flood's slices already inside xterm finish; no new ones go in
    expect(r.log.filter((l) => l.pane === 1)).toHaveLength(MAX_INFLIGHT);
    r.advance(5);
    r.s.write(2, bytes(1), r.writer(2)); // the echo: handed over at once
    expect(r.log.at(-1)!.pane).toBe(2);
    r.parse(1);
    expect(r.log.filter((l) => l.pane === 1)).toHaveLength(MAX_INFLIGHT); // still held: the frame is not drawn yet
    r.advance(FRAME_MS);
    expect(r.log.filter((l) => l.pane === 1).length).toBeGreaterThan(MAX_INFLIGHT);
    // A key whose echo never comes holds the flood ECHO_WAIT_MS, no longer.
    const n = r.log.length;
    r.s.keyed(2);
    while (r.log.some((l) => !(l as { parsed?: boolean }).parsed)) r.parse(0.1);
    expect(r.log.length).toBe(n);
    r.advance(ECHO_WAIT_MS);
    expect(r.log.length).toBeGreaterThan(n);
  });

  it('drops a pane’s queue on re-attach: nothing more of it is written', () => {
    const r = rig();
    r.s.write(1, bytes(1 << 20), r.writer(1));
    expect(r.s.drop(1)).toBeGreaterThan(0);
    r.parse();
    expect(r.log).toHaveLength(MAX_INFLIGHT);
    expect(r.s.queued(1)).toBe(0);
  });

  it('tells a pane once per batch that grows to a flood’s size, never for an echo', () => {
    const r = rig();
    let floods = 0;
    r.s.write(1, bytes(10), r.writer(1), () => floods++);
    r.parse();
    expect(floods).toBe(0);
    r.s.write(1, bytes(4 * FLOOD_BATCH), r.writer(1), () => floods++);
    for (let i = 0; i < 20 && r.log.some((l) => !(l as { parsed?: boolean }).parsed); i++) r.parse();
    expect(floods).toBe(1);
  });
});
