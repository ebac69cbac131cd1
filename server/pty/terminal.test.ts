// Terminal logic against the fake PTY and a stub screen: batching, offsets,
// attach, flow control, slow clients, exit and restart.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScreenSnapshot } from '../../kits/protocol/pty';
import { FLOW_HIGH_MIN } from '../../kits/protocol/flow';
import { SINK_BUFFER_CAP, type StreamSink } from './fanout';
import { FakePtyPort } from '../../test/fakes/fakePty';
import type { ScreenHost, ScreenPaneOptions } from './screenHost';
import { ATTACH_HISTORY, BATCH_BYTES, BATCH_MS, RING_IDLE_KEEP, RING_IDLE_MS, SCREEN_DEFER_MS, SCREEN_INFLIGHT, SIGNAL_ANSWER_MS, Terminal, type TerminalOptions } from './terminal';

/** A screen host stand-in whose snapshots resolve when the test says. */
class StubScreen {
  sent = new Map<number, number>();
  backlogs = new Map<number, number>();
  opts = new Map<number, ScreenPaneOptions>();
  resizes: [number, number, number][] = [];
  writes: { from: number; to: number }[] = [];
  hold = false;
  private waiting: (() => void)[] = [];
  open(n: number, o: ScreenPaneOptions) {
    this.opts.set(n, o);
    this.sent.set(n, o.offset ?? 0);
  }
  write(n: number, data: Uint8Array, from?: number) {
    const at = from ?? this.sent.get(n)!;
    this.sent.set(n, at + data.byteLength);
    this.writes.push({ from: at, to: at + data.byteLength });
  }
  resize(n: number, cols: number, rows: number) {
    this.resizes.push([n, cols, rows]);
  }
  backlog(n: number) {
    return this.backlogs.get(n) ?? 0;
  }
  histories: (number | undefined)[] = [];
  snapshot(n: number, o: { history?: number } = {}): Promise<ScreenSnapshot> {
    this.histories.push(o.history);
    const offset = this.sent.get(n)!;
    const snap = { pane: n, offset, cols: 80, rows: 24, text: `at ${offset}`, serialized: '', cursor: { x: 0, y: 0 }, title: '' };
    if (!this.hold) return Promise.resolve(snap);
    return new Promise((r) => this.waiting.push(() => r(snap)));
  }
  release() {
    for (const w of this.waiting.splice(0)) w();
  }
  close() {}
}

class TestSink implements StreamSink {
  frames: { offset: number; data: Buffer }[] = [];
  queued = 0;
  constructor(readonly id: string) {}
  sendOutput(_pane: number, offset: number, data: Uint8Array) {
    this.frames.push({ offset, data: Buffer.from(data) });
  }
  buffered() {
    return this.queued;
  }
  bytes() {
    return Buffer.concat(this.frames.map((f) => f.data));
  }
  /** Frames must follow each other exactly: no byte lost, none twice. */
  expectContiguous(from: number) {
    let at = from;
    for (const f of this.frames) {
      expect(f.offset).toBe(at);
      at += f.data.byteLength;
    }
    return at;
  }
}

const terms: Terminal[] = [];
function setup(extra: Partial<TerminalOptions> = {}) {
  const port = new FakePtyPort();
  const screen = new StubScreen();
  const events = { exits: [] as { code: number | null; signal: number | null }[], spawns: [] as number[], outputs: [] as number[] };
  const t = new Terminal({
    n: 7,
    launch: { program: 'sh', args: ['-i'], env: { FROM_LAUNCH: '1' } },
    cwd: '/tmp',
    env: { HOME: '/home/x', PANE_SOCKET: '/run/pane.sock', TERM: 'dumb' },
    cols: 80,
    rows: 24,
    port,
    screen: screen as unknown as ScreenHost,
    onExit: (s) => events.exits.push(s),
    onSpawn: (pid) => events.spawns.push(pid),
    onOutput: (end) => events.outputs.push(end),
    ...extra,
  });
  terms.push(t);
  return { t, port, screen, events };
}

/** A started terminal with one client attached from offset 0, without flow control. */
async function attachedPlain(id: string, extra: Partial<TerminalOptions> = {}) {
  const r = setup(extra);
  r.t.start();
  const sink = new TestSink(id);
  await r.t.attach(sink, { mode: 'from', from: 0, flowControl: false });
  await tick();
  return { ...r, sink };
}

const tick = () => new Promise((r) => setImmediate(r));
const settle = () => new Promise((r) => setTimeout(r, 15)); // past one 5 ms batch

afterEach(() => {
  for (const t of terms.splice(0)) t.dispose();
  vi.useRealTimers();
});

describe('Terminal (fake pty)', () => {
  it('spawns with the caller’s env plus PANE_ID, PANE_SOCKET, TERM and COLORTERM', () => {
    const { t, port, events } = setup();
    t.start();
    const o = port.last.opts;
    expect(o).toMatchObject({ file: 'sh', args: ['-i'], cwd: '/tmp', cols: 80, rows: 24 });
    expect(o.env).toMatchObject({ HOME: '/home/x', FROM_LAUNCH: '1', PANE_ID: '7', PANE_SOCKET: '/run/pane.sock', TERM: 'xterm-256color', COLORTERM: 'truecolor' });
    expect(events.spawns).toEqual([port.last.pid]);
    expect(t.pid).toBe(port.last.pid);
    expect(t.running).toBe(true);
  });

  it('throws the port’s error when the program cannot be spawned', () => {
    const { t, port } = setup();
    port.failNext = new Error('cannot start sh: not found in PATH');
    expect(() => t.start()).toThrow(/not found in PATH/);
    expect(t.running).toBe(false);
  });

  it('sends the first output after a quiet spell at once, without waiting for the batch timer', async () => {
    let clock = 1_000;
    const { t, port, sink } = await attachedPlain('a', { now: () => clock });
    port.last.output('a'); // a keystroke's echo: nothing pending, nothing sent before
    expect(sink.frames.map((f) => f.data.toString())).toEqual(['a']);
    clock += BATCH_MS; // quiet for a whole batch period since that flush
    port.last.output('b');
    expect(sink.frames.map((f) => f.data.toString())).toEqual(['a', 'b']);
    sink.expectContiguous(0);
  });

  it('sends the first output after input at once, however recent the last flush (an echo typed fast)', async () => {
    let clock = 1_000;
    const { t, port, sink } = await attachedPlain('a', { now: () => clock });
    port.last.output('a');
    clock += 1; // the next key 1 ms after the last echo: within a batch period
    t.write('b');
    port.last.output('b');
    expect(sink.frames.map((f) => f.data.toString())).toEqual(['a', 'b']);
    // Only the first read after it: what follows within the period is batched again.
    clock += 0.5;
    port.last.output('c');
    expect(sink.frames).toHaveLength(2);
    await settle();
    expect(sink.frames.map((f) => f.data.toString())).toEqual(['a', 'b', 'c']);
    sink.expectContiguous(0);
  });

  it('sends every read at once for SIGNAL_ANSWER_MS after a typed ^C (a flood’s last bytes, then the prompt), and batches again after', async () => {
    let clock = 1_000;
    const { t, port, sink } = await attachedPlain('a', { now: () => clock });
    port.last.output('y'); // a flood under way: its reads within BATCH_MS batch
    clock += 0.5;
    port.last.output('y');
    expect(sink.frames).toHaveLength(1);
    t.write('\x03');
    for (const out of ['y', 'y', '^C\r\n$ ']) {
      clock += 0.5;
      port.last.output(out);
    }
    // The held 'y', then each read as it came: nothing waits for the batch timer.
    expect(sink.frames.map((f) => f.data.toString())).toEqual(['y', 'yy', 'y', '^C\r\n$ ']);
    clock += SIGNAL_ANSWER_MS;
    port.last.output('z');
    clock += 0.5;
    port.last.output('z');
    expect(sink.frames).toHaveLength(5); // past the window the second read is batched again
    await settle();
    expect(sink.frames.map((f) => f.data.toString()).at(-1)).toBe('z');
    sink.expectContiguous(0);
  });

  it('takes only a typed signal key as one: a paste holding ^C is batched as any input’s answer', async () => {
    let clock = 1_000;
    const { t, port, sink } = await attachedPlain('a', { now: () => clock });
    port.last.output('x');
    t.write('line one\x03line two\n');
    port.last.output('a'); // the input's answer: at once
    clock += 0.5;
    port.last.output('b'); // batched
    expect(sink.frames.map((f) => f.data.toString())).toEqual(['x', 'a']);
    await settle();
    sink.expectContiguous(0);
  });

  it('keeps coalescing a burst into one frame per batch, and flushes at once past 64 KiB', async () => {
    let clock = 1_000;
    const { t, port, sink } = await attachedPlain('a', { now: () => clock });
    port.last.output('x'); // the burst's first read goes out at once
    for (let i = 0; i < 9; i++) {
      clock += 0.5; // reads keep coming within BATCH_MS of that flush
      port.last.output('x');
    }
    expect(sink.frames.map((f) => f.data.toString())).toEqual(['x']);
    await settle();
    expect(sink.frames.map((f) => f.data.toString())).toEqual(['x', 'xxxxxxxxx']);
    clock += BATCH_MS - 1; // the timer's flush was under BATCH_MS ago: still a burst
    port.last.output('y');
    expect(sink.frames).toHaveLength(2);
    port.last.output(Buffer.alloc(BATCH_BYTES, 0x61));
    expect(sink.frames).toHaveLength(3); // no timer needed
    sink.expectContiguous(0);
  });

  it('reads by offset, and reports a gap once the ring has dropped the asked bytes', () => {
    const { t, port } = setup({ ringBytes: 16 });
    t.start();
    port.last.output('0123456789');
    expect(t.read(4, 3)).toMatchObject({ from: 4, to: 7, gap: false, streamStart: 0, streamEnd: 10 });
    expect(t.read(4, 3).data.toString()).toBe('456');
    port.last.output('abcdefghij');
    const r = t.read(0, 100);
    expect(r).toMatchObject({ from: 4, to: 20, gap: true, streamStart: 4, streamEnd: 20 });
    expect(r.data.toString()).toBe('456789abcdefghij');
    expect(t.read(undefined, 2).data.toString()).toBe('45');
  });

  it('attaches from an offset and streams exactly from there', async () => {
    const { t, port } = setup();
    t.start();
    port.last.output('hello world');
    const sink = new TestSink('a');
    const r = await t.attach(sink, { mode: 'from', from: 6, flowControl: false });
    expect(r).toMatchObject({ from: 6, gap: false, streamEnd: 11 });
    expect(sink.frames).toHaveLength(0); // the reply goes out first
    await settle();
    port.last.output('!');
    await settle();
    expect(sink.bytes().toString()).toBe('world!');
    sink.expectContiguous(6);
  });

  it('sends nothing to a snapshot attacher until its snapshot resolved, then exactly from the snapshot offset', async () => {
    const { t, port, screen } = setup();
    t.start();
    port.last.output('before|');
    screen.hold = true;
    const sink = new TestSink('a');
    const pending = t.attach(sink, { mode: 'snapshot', flowControl: false });
    port.last.output('during|');
    await settle();
    expect(sink.frames).toHaveLength(0);
    screen.release();
    const r = await pending;
    expect(r.snapshot!.offset).toBe(7); // everything read before the attach was flushed into it
    expect(screen.histories).toEqual([ATTACH_HISTORY]);
    expect(r.from).toBe(7);
    port.last.output('after');
    await settle();
    const end = sink.expectContiguous(r.snapshot!.offset);
    expect(end).toBe(t.streamEnd);
    // snapshot prefix + streamed bytes = the whole stream
    expect(Buffer.concat([t.read(0, r.snapshot!.offset).data, sink.bytes()]).toString()).toBe('before|during|after');
  });

  it('pauses the PTY when a flow-controlled client stops acking, and resumes when it catches up', async () => {
    let clock = 1_000;
    const { t, port } = setup({ now: () => clock });
    t.start();
    const sink = new TestSink('fc');
    await t.attach(sink, { mode: 'from', from: 0, flowControl: true });
    await tick();
    const chunk = Buffer.alloc(BATCH_BYTES, 0x79);
    while (!t.paused) port.last.output(chunk);
    expect(port.last.pauseCalls).toBe(1);
    const sent = sink.bytes().byteLength;
    // A client not yet measured gets the smallest window (see fanout.test.ts for its sizing).
    expect(sent).toBeGreaterThan(FLOW_HIGH_MIN);
    expect(sent).toBeLessThanOrEqual(FLOW_HIGH_MIN + 2 * BATCH_BYTES);
    // Output the child writes while paused waits in the "kernel".
    port.last.output('queued');
    expect(sink.bytes().byteLength).toBe(sent);
    const low = FLOW_HIGH_MIN / 2;
    clock += 60_000; // a slow client's acks keep its window at the floor
    expect(t.ack('fc', sent - low)).toBe(low);
    expect(t.paused).toBe(true); // not below the low mark yet
    expect(t.ack('fc', 1)).toBe(low - 1);
    expect(t.paused).toBe(false);
    expect(port.last.resumeCalls).toBe(1);
    await settle();
    expect(sink.bytes().subarray(-6).toString()).toBe('queued');
  });

  it('never pauses for a client without flow control', async () => {
    const { t, port, sink } = await attachedPlain('plain');
    for (let i = 0; i < 40; i++) port.last.output(Buffer.alloc(BATCH_BYTES));
    expect(t.paused).toBe(false);
    expect(port.last.pauseCalls).toBe(0);
    expect(sink.bytes().byteLength).toBe(40 * BATCH_BYTES);
  });

  it('releases the pause at once when the holding client detaches, re-attaches, or another client attaches', async () => {
    const { t, port } = setup();
    t.start();
    const flood = async (id: string) => {
      const sink = new TestSink(id);
      await t.attach(sink, { mode: 'from', from: t.streamEnd, flowControl: true });
      await tick();
      while (!t.paused) port.last.output(Buffer.alloc(BATCH_BYTES));
      return sink;
    };
    await flood('a');
    t.detach('a');
    expect(t.paused).toBe(false);

    await flood('b');
    await t.attach(new TestSink('b'), { mode: 'from', from: t.streamEnd, flowControl: true }); // same id again
    expect(t.paused).toBe(false);
    t.detach('b');

    await flood('c');
    await t.attach(new TestSink('d'), { mode: 'from', flowControl: false });
    expect(t.paused).toBe(true); // an unrelated client does not release c's hold
    t.detach('c');
    expect(t.paused).toBe(false);
  });

  it('holds a pause only while any flow-controlled client is over the mark', async () => {
    const { t, port } = setup();
    t.start();
    const a = new TestSink('a');
    const b = new TestSink('b');
    await t.attach(a, { mode: 'from', from: 0, flowControl: true });
    await t.attach(b, { mode: 'from', from: 0, flowControl: true });
    await tick();
    while (!t.paused) port.last.output(Buffer.alloc(BATCH_BYTES));
    t.ack('a', a.bytes().byteLength);
    expect(t.paused).toBe(true); // b still behind
    t.ack('b', b.bytes().byteLength);
    expect(t.paused).toBe(false);
  });

  it('stops sending to a client whose connection stopped draining, and resumes it from its own position', async () => {
    const { t, port } = setup({ ringBytes: 1 << 20 });
    t.start();
    const slow = new TestSink('slow');
    const other = new TestSink('other');
    await t.attach(slow, { mode: 'from', from: 0, flowControl: false });
    await t.attach(other, { mode: 'from', from: 0, flowControl: false });
    await tick();
    port.last.output('a'.repeat(100));
    await settle();
    slow.queued = SINK_BUFFER_CAP + 1; // its socket stopped reading
    port.last.output('b'.repeat(100));
    await settle();
    expect(slow.bytes().byteLength).toBe(100);
    expect(other.bytes().byteLength).toBe(200);
    slow.queued = 0; // drained; the poll timer notices without new output
    await new Promise((r) => setTimeout(r, 120));
    expect(slow.bytes().toString()).toBe('a'.repeat(100) + 'b'.repeat(100));
    slow.expectContiguous(0);

    // If the ring moves on meanwhile, it resumes at the oldest byte still held.
    slow.queued = SINK_BUFFER_CAP + 1;
    for (let i = 0; i < 24; i++) port.last.output(Buffer.alloc(BATCH_BYTES, 0x63));
    slow.queued = 0;
    t.ack('slow', 0); // any ack also re-checks
    const jump = slow.frames.find((f, i) => i > 0 && f.offset !== slow.frames[i - 1]!.offset + slow.frames[i - 1]!.data.byteLength);
    expect(jump?.offset).toBe(t.streamStart);
    expect(slow.frames[slow.frames.length - 1]!.offset + slow.frames[slow.frames.length - 1]!.data.byteLength).toBe(t.streamEnd);
  });

  it('keeps a flooding pane’s pause to itself', async () => {
    const a = setup({ n: 1 });
    const b = setup({ n: 2 });
    a.t.start();
    b.t.start();
    const sa = new TestSink('client');
    const sb = new TestSink('client'); // the same client attached to both panes
    await a.t.attach(sa, { mode: 'from', from: 0, flowControl: true });
    await b.t.attach(sb, { mode: 'from', from: 0, flowControl: true });
    await tick();
    while (!a.t.paused) a.port.last.output(Buffer.alloc(BATCH_BYTES));
    b.port.last.output('still here');
    await settle();
    expect(b.t.paused).toBe(false);
    expect(sb.bytes().toString()).toBe('still here');
  });

  it('lets the screen model lag in the ring, then skips ahead rather than pausing the PTY when a flood outruns it', async () => {
    const ring = 1 << 20;
    const { t, port, screen } = setup({ ringBytes: ring, now: () => 0 }); // all in one instant: after the first read, a burst
    t.start();
    screen.backlogs.set(7, SCREEN_INFLIGHT); // the worker is busy: nothing more is handed over
    for (let i = 0; i < 24; i++) port.last.output(Buffer.alloc(32 << 10)); // 3/4 of the ring: a burst the ring absorbs
    expect(t.paused).toBe(false);
    expect(t.screenSkipped).toBe(0); // a burst is parsed in full, later
    for (let i = 0; i < 96; i++) port.last.output(Buffer.alloc(32 << 10)); // a flood: 3 more rings' worth
    expect(t.paused).toBe(false); // only flow-controlled clients pause a PTY
    expect(t.screenSkipped).toBeGreaterThan(0);
    await settle(); // the last batch's timer
    screen.backlogs.set(7, 0); // the worker caught up
    screen.opts.get(7)!.onBacklog!(0);
    // Every write hands bytes still in the ring, in order; after the last skip it
    // is contiguous to the end, and at least half a ring of the newest bytes is kept.
    let at = 0;
    let lastJump = 0;
    for (const w of screen.writes) {
      expect(w.from).toBeGreaterThanOrEqual(at);
      if (w.from > at) lastJump = w.from;
      at = w.to;
    }
    expect(at).toBe(t.streamEnd);
    expect(t.streamEnd - lastJump).toBeGreaterThanOrEqual(ring / 2);
  });

  it('defers the screen model while a window streams the pane, and catches up after quiet or for a read', async () => {
    let clock = 1_000;
    const { t, port, screen } = setup({ now: () => clock });
    t.start();
    port.last.output('no window yet|');
    expect(screen.sent.get(7)).toBe(14); // nobody streams: parsed at once, as before
    const sink = new TestSink('w');
    await t.attach(sink, { mode: 'from', from: 0, flowControl: true });
    await settle();
    clock += 10;
    port.last.output('streamed|');
    await settle();
    expect(sink.bytes().toString()).toBe('no window yet|streamed|'); // the window has it at once
    expect(screen.sent.get(7)).toBe(14); // the screen model waits
    const snap = await t.snapshot(); // a read catches it up first
    expect(snap.offset).toBe(23);
    clock += 10;
    port.last.output('more');
    await settle();
    expect(screen.sent.get(7)).toBe(23);
    // After quiet, on its own (bounded polling).
    for (const end = Date.now() + SCREEN_DEFER_MS * 50; screen.sent.get(7) !== 27 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
    expect(screen.sent.get(7)).toBe(27);
  });

  it('hands the screen everything before a resize, so earlier output is parsed at the earlier size', () => {
    const { t, port, screen } = setup();
    t.start();
    screen.backlogs.set(7, SCREEN_INFLIGHT);
    port.last.output(Buffer.alloc(BATCH_BYTES * 3));
    expect(screen.sent.get(7)).toBe(0);
    t.resize(90, 20);
    expect(screen.sent.get(7)).toBe(t.streamEnd);
  });

  it('reports exit only after the final output reached the ring and the clients', async () => {
    const { t, port, events, sink } = await attachedPlain('a');
    let atExit = -1;
    port.last.onExit(() => (atExit = sink.bytes().byteLength)); // runs after Terminal's own handler
    port.last.output('last words');
    port.last.exit(3);
    expect(events.exits).toEqual([{ code: 3, signal: null }]);
    expect(atExit).toBe(10);
    expect(t.running).toBe(false);
    expect(t.pid).toBeNull();
  });

  it('restarts with offsets carrying on, and without reporting the old program’s exit', async () => {
    const { t, port, events } = setup();
    t.start();
    const first = port.last;
    first.output('one');
    t.restart();
    expect(first.kills).toEqual(['SIGHUP']);
    const second = port.last;
    expect(second).not.toBe(first);
    second.output('two');
    await settle();
    expect(events.exits).toEqual([]); // the first one's exit was the restart's doing
    expect(events.spawns).toEqual([first.pid, second.pid]);
    const all = t.read(0, 1000).data.toString();
    expect(all.startsWith('one')).toBe(true);
    expect(all.endsWith('two')).toBe(true);
    expect(t.streamEnd).toBe(Buffer.byteLength(all));
  });

  it('restarts a program that has exited', () => {
    const { t, port, events } = setup();
    t.start();
    port.last.exit(1);
    expect(t.running).toBe(false);
    t.restart();
    expect(t.running).toBe(true);
    expect(events.spawns).toHaveLength(2);
  });

  it('kills a program that ignores SIGHUP after a grace period when closed, and the close resolves at its exit', async () => {
    vi.useFakeTimers();
    const { t, port } = setup();
    t.start();
    port.last.exitOnKill = false;
    let ended = false;
    void t.dispose().then(() => (ended = true));
    expect(port.last.kills).toEqual(['SIGHUP']);
    await vi.advanceTimersByTimeAsync(1_900);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(600);
    expect(port.last.kills).toEqual(['SIGHUP', 'SIGKILL']);
    expect(ended).toBe(false); // killed, its exit not yet heard
    port.last.exit(null, 9);
    await vi.advanceTimersByTimeAsync(0);
    expect(ended).toBe(true);
  });

  it('a close resolves at the exit of a program that takes its time over SIGHUP, and gives up on one that never reports', async () => {
    vi.useFakeTimers();
    const { t, port } = setup();
    t.start();
    const first = port.last;
    first.exitOnKill = false;
    t.restart(); // the old program is retired, the new one runs
    const second = port.last;
    second.exitOnKill = false;
    let ended = false;
    void t.dispose().then(() => (ended = true));
    await vi.advanceTimersByTimeAsync(500);
    second.exit(null, 1);
    await vi.advanceTimersByTimeAsync(0);
    expect(ended).toBe(false); // the restart's retired program still runs
    await vi.advanceTimersByTimeAsync(2_000 + 1_000 + 10); // KILL_GRACE_MS, then EXIT_AFTER_KILL_MS
    expect(first.kills).toEqual(['SIGHUP', 'SIGKILL']);
    expect(ended).toBe(true);
  });

  it('reaches the PTY and the screen on resize, flushing earlier output first', () => {
    const { t, port, screen } = setup();
    t.start();
    port.last.output('abc');
    t.resize(100, 30);
    expect(port.last.resizes).toEqual([[100, 30]]);
    expect(screen.resizes).toEqual([[7, 100, 30]]);
    expect(screen.sent.get(7)).toBe(3);
    expect(() => t.resize(0, 10)).toThrow(/positive integers/);
  });

  it('gives back its ring once quiet with every reader caught up, and not while a client still owes acks', async () => {
    vi.useFakeTimers();
    const { t, port } = setup();
    t.start();
    const sink = new TestSink('w');
    await t.attach(sink, { mode: 'from', from: 0, flowControl: true });
    const big = 'x'.repeat(100_000);
    for (let i = 0; i < 5; i++) port.last.output(big);
    vi.advanceTimersByTime(BATCH_MS + 1);
    expect(sink.expectContiguous(0)).toBe(500_000);
    vi.advanceTimersByTime(RING_IDLE_MS + 1);
    // The window has not acked what it was sent: it may still need the ring.
    expect(t.read(0, 1).gap).toBe(false);
    t.ack('w', 500_000);
    vi.advanceTimersByTime(RING_IDLE_MS + 1);
    const r = t.read(0, 1 << 20);
    expect(r.gap).toBe(true);
    expect(r.to - r.from).toBe(RING_IDLE_KEEP);
    expect(r.data.toString()).toBe('x'.repeat(RING_IDLE_KEEP));
    // Output after it shrank is appended as ever.
    port.last.output('more');
    vi.advanceTimersByTime(BATCH_MS + 1);
    expect(t.read(500_000, 10).data.toString()).toBe('more');
    expect(sink.expectContiguous(0)).toBe(500_004);
  });

  it('passes input through as bytes', () => {
    const { t, port } = setup();
    t.start();
    t.write('ls\r');
    t.write(new Uint8Array([0x03]));
    expect(port.last.written()).toBe('ls\r\x03');
  });

  it('drops a client whose connection throws, and keeps the pane’s output going', async () => {
    const { t, port } = setup();
    t.start();
    const bad = new TestSink('bad');
    bad.sendOutput = () => {
      throw new Error('socket gone');
    };
    const good = new TestSink('good');
    await t.attach(bad, { mode: 'from', from: 0, flowControl: true });
    await t.attach(good, { mode: 'from', from: 0, flowControl: false });
    await tick();
    for (let i = 0; i < 12; i++) expect(() => port.last.output(Buffer.alloc(BATCH_BYTES))).not.toThrow();
    expect(t.paused).toBe(false);
    expect(good.bytes().byteLength).toBe(12 * BATCH_BYTES);
    expect(t.ack('bad', 1)).toBe(0); // it is gone
  });
});

describe('Terminal after its program ended (fake pty)', () => {
  it('writes nothing once its program ended, and reports that it no longer runs (model/input.ts answers those keys)', async () => {
    const { t, port } = await attachedPlain('d');
    t.write('ls\r');
    expect(t.running).toBe(true);
    port.last.exit(null, 9);
    await settle();
    expect(t.running).toBe(false);
    expect(() => t.write('\r')).not.toThrow();
    t.write(new TextEncoder().encode('x'));
    expect(port.last.written()).toBe('ls\r');
  });
});
