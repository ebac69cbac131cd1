// `output --follow` against a scripted client: every byte written once and in
// order whether frames overtake the attach reply, stdout is slower than the pane,
// or the ring drops bytes while we catch up (then a note says which).
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CommandContext } from '../context';
import type { Connection } from '../../../client/connection';
import { FOLLOW_CHECK_MS, follow } from './follow';

/** A pane whose whole output is `ring[start..]`, pushed as frames by the test. */
class FakeServer {
  data = Buffer.alloc(0);
  start = 0;
  private outputCbs: ((p: number, o: number, d: Buffer) => void)[] = [];
  private eventCbs: ((e: string, r: number, d: unknown) => void)[] = [];
  host = 'h';
  /** Bytes pushed as frames, and bytes the follower acked (pty/ack). */
  framed = 0;
  acked = 0;
  attachParams: Record<string, unknown> = {};
  private attachedCb: () => void = () => {};
  /** Resolves once the attach reply has been handed back. */
  readonly attached = new Promise<void>((r) => (this.attachedCb = r));

  /** Appends output and pushes it as one frame. */
  emit(bytes: string): void {
    const at = this.data.byteLength;
    this.data = Buffer.concat([this.data, Buffer.from(bytes)]);
    this.push(at, Buffer.from(bytes));
  }
  push(at: number, bytes: Buffer): void {
    this.framed += bytes.byteLength;
    for (const cb of this.outputCbs) cb(1, at, bytes);
  }
  /** How the pane's program ended, as pane/get says once it has (null: still running). */
  ended: { code: number | null; signal: number | null; signalName: string | null; at: number } | null = null;
  exit(how: { code?: number | null; signal?: number; signalName?: string } = { code: 0 }): void {
    this.ended = { code: how.code ?? null, signal: how.signal ?? null, signalName: how.signalName ?? null, at: Date.UTC(2026, 11, 6, 14, 3, 7) };
    for (const cb of this.eventCbs) cb('pane/exited', 1, { pane: 1 });
  }
  close(): void {
    for (const cb of this.eventCbs) cb('pane/closed', 1, { pane: 1 });
  }

  client(): Connection {
    const fake = {
      host: this.host,
      onOutput: (cb: (p: number, o: number, d: Buffer) => void) => this.outputCbs.push(cb),
      onEvent: (cb: (e: string, r: number, d: unknown) => void) => this.eventCbs.push(cb),
      onClose: () => {},
      call: async (method: string, params: { from?: number; maxBytes?: number; bytes?: number }) => {
        await new Promise((r) => setImmediate(r));
        if (method === 'pty/ack') {
          this.acked += params.bytes ?? 0;
          return { pane: 1, unacked: this.framed - this.acked };
        }
        if (method === 'pane/get') return { n: 1, launch: { program: '/usr/bin/make', args: [] }, tag: { name: 'make' }, state: this.ended ? 'exited' : 'running', exit: this.ended };
        if (method === 'events/subscribe') return { rev: 0, host: 'h', sessions: [], panes: [{ n: 1, host: 'h', state: 'running' }] };
        if (method === 'pty/attach') {
          this.attachParams = params;
          // Like the real server, the backlog goes out as a frame; here it overtakes the reply.
          const from = params.from ?? this.start;
          const backlog = this.data.subarray(from);
          if (backlog.byteLength > 0) this.push(from, Buffer.from(backlog));
          setImmediate(() => this.attachedCb());
          return { pane: 1, from, gap: false, streamStart: this.start, streamEnd: this.data.byteLength };
        }
        if (method === 'pty/read') {
          const want = params.from ?? this.start;
          const from = Math.max(want, this.start);
          const to = Math.min(this.data.byteLength, from + (params.maxBytes ?? 1 << 20));
          return { pane: 1, from, to, gap: want < this.start, streamStart: this.start, streamEnd: this.data.byteLength, data: this.data.subarray(from, to).toString('base64'), encoding: 'base64' };
        }
        throw new Error(`unexpected ${method}`);
      },
    };
    return fake as unknown as Connection;
  }
}

/** stdout that takes `delayMs` per write, with a small buffer, so backpressure is real. */
function slowOut(delayMs: number): { stream: Writable; text: () => string; flushed: () => Promise<void> } {
  let got = '';
  const stream = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _enc, cb) {
      got += chunk.toString();
      setTimeout(cb, delayMs);
    },
  });
  // writeBytes resolves once the stream accepts a chunk; the test reads after the stream has written them all.
  const flushed = () => new Promise<void>((r) => stream.end(r));
  return { stream, text: () => got, flushed };
}

function ctxWith(stdout: Writable): { ctx: CommandContext; err: () => string } {
  let err = '';
  const stderr = new Writable({
    write(c: Buffer, _e, cb) {
      err += c.toString();
      cb();
    },
  });
  const ctx = new CommandContext({ stdout, stderr, stdin: process.stdin, env: {} }, '/nowhere', 'output', false);
  return { ctx, err: () => err };
}

describe('follow', () => {
  it('keeps frames that overtake the attach reply, and reads what is left after the exit', async () => {
    const srv = new FakeServer();
    srv.data = Buffer.from('held-');
    const out = slowOut(0);
    const { ctx, err } = ctxWith(out.stream);
    const running = follow(ctx, srv.client(), 1, 0);
    await srv.attached;
    srv.emit('live-');
    // Bytes the server held but had not pushed when the exit came.
    srv.data = Buffer.concat([srv.data, Buffer.from('tail')]);
    srv.exit();
    expect(await running).toBe(0);
    await out.flushed();
    expect(out.text()).toBe('held-live-tail');
    // How the program ended, on stderr (stdout stays the program's bytes); it had ended without a word.
    expect(err()).toMatch(/^pane: \[make exited 0 at \d\d:\d\d:\d\d\]\n$/);
  });

  it('with --status ends with the program\'s status: its code, 128+N for a signal, 1 for a pane closed first', async () => {
    for (const [how, code, said] of [
      [{ code: 2 }, 2, /\[make exited 2 at /],
      [{ code: 0 }, 0, /\[make exited 0 at /],
      [{ signal: 9, signalName: 'SIGKILL' }, 137, /\[make killed \(SIGKILL\) at /],
    ] as const) {
      const srv = new FakeServer();
      const out = slowOut(0);
      const { ctx, err } = ctxWith(out.stream);
      const running = follow(ctx, srv.client(), 1, undefined, { status: true });
      await srv.attached;
      srv.emit('building\n');
      srv.exit(how);
      expect(await running).toBe(code);
      await out.flushed();
      expect(out.text()).toBe('building\n');
      expect(err()).toMatch(said);
    }
    const srv = new FakeServer();
    const { ctx, err } = ctxWith(slowOut(0).stream);
    const running = follow(ctx, srv.client(), 1, undefined, { status: true });
    await srv.attached;
    srv.close();
    expect(await running).toBe(1);
    expect(err()).toBe('pane: pane 1 was closed\n');
    // Without --status the read went well: 0, whatever the program did.
    const srv2 = new FakeServer();
    const second = ctxWith(slowOut(0).stream);
    const r2 = follow(second.ctx, srv2.client(), 1, undefined);
    await srv2.attached;
    srv2.exit({ code: 2 });
    expect(await r2).toBe(0);
  });

  it('ends when the pane exits between subscribing and the attach reply', async () => {
    const srv = new FakeServer();
    srv.data = Buffer.from('bye');
    const out = slowOut(0);
    const { ctx } = ctxWith(out.stream);
    const c = srv.client();
    const call = c.call.bind(c);
    // The exit event lands while the attach request is in flight.
    (c as unknown as { call: typeof call }).call = ((m: string, p: never) => {
      if (m === 'pty/attach') srv.exit();
      return call(m as 'pty/attach', p);
    }) as typeof call;
    expect(await follow(ctx, c, 1, undefined)).toBe(0);
    await out.flushed();
    expect(out.text()).toBe('bye');
  });

  it('starts at an offset and skips bytes it was sent twice', async () => {
    const srv = new FakeServer();
    srv.data = Buffer.from('0123456789');
    const out = slowOut(0);
    const { ctx } = ctxWith(out.stream);
    const c = srv.client();
    const running = follow(ctx, c, 1, 4);
    await srv.attached;
    srv.emit('ab');
    // A duplicate of bytes already written (e.g. a resend after a reattach) is trimmed by offset.
    srv.push(8, Buffer.from('89abc'));
    srv.data = Buffer.concat([srv.data, Buffer.from('c')]);
    srv.exit();
    expect(await running).toBe(0);
    await out.flushed();
    expect(out.text()).toBe('456789abc');
  });

  it('writes every byte once, in order, when stdout is slower than the pane', async () => {
    const srv = new FakeServer();
    const out = slowOut(1);
    const { ctx, err } = ctxWith(out.stream);
    const running = follow(ctx, srv.client(), 1, undefined, { maxQueued: 4096 });
    await srv.attached;
    let want = '';
    for (let i = 0; i < 400; i++) {
      const line = `line ${i} ${'x'.repeat(200)}\n`;
      want += line;
      srv.emit(line);
    }
    srv.exit();
    expect(await running).toBe(0);
    await out.flushed();
    expect(out.text()).toBe(want);
    expect(err()).toMatch(/^pane: \[make exited 0 at [0-9:]+\]\n$/);
  });

  it('asks for flow control and acks every byte a frame brought: written once stdout took it, dropped (duplicates, frames while catching up) at once', async () => {
    const srv = new FakeServer();
    const out = slowOut(1);
    const { ctx } = ctxWith(out.stream);
    const running = follow(ctx, srv.client(), 1, undefined, { maxQueued: 2048 });
    await srv.attached;
    expect(srv.attachParams.flowControl).toBe(true);
    for (let i = 0; i < 40; i++) srv.emit(`${i} ${'y'.repeat(300)}\n`);
    // A resend of bytes already written: trimmed, and acked all the same.
    srv.push(0, srv.data.subarray(0, 500));
    srv.exit();
    expect(await running).toBe(0);
    await out.flushed();
    // Acks are coalesced (ACK_IDLE_MS): wait out the last timer.
    await new Promise((r) => setTimeout(r, 50));
    expect(srv.acked).toBe(srv.framed);
  });

  it('notes the bytes the ring dropped while it was catching up, and loses nothing else', async () => {
    const srv = new FakeServer();
    const out = slowOut(2);
    const { ctx, err } = ctxWith(out.stream);
    const running = follow(ctx, srv.client(), 1, undefined, { maxQueued: 1024 });
    await srv.attached;
    const chunk = (c: string) => c.repeat(2048);
    srv.emit(chunk('a'));
    srv.emit(chunk('b'));
    // The ring forgets everything but the last 2048 bytes while stdout is still busy.
    srv.emit(chunk('c'));
    srv.start = srv.data.byteLength - 2048;
    srv.exit();
    expect(await running).toBe(0);
    await out.flushed();
    expect(out.text().endsWith(chunk('c'))).toBe(true);
    expect(out.text().startsWith('a')).toBe(true);
    expect(err()).toMatch(/^pane: note: pane 1 output from \d+ to 4096 was dropped from its ring; continuing from 4096\npane: \[make exited 0 at [0-9:]+\]\n$/);
    // Whatever was dropped, no byte appears twice: the text is a's, then maybe b's, then c's.
    expect(out.text()).toMatch(/^a+b*c+$/);
  });

  it('keeps following when a catch-up read fails: the check reads the ring again (it used to drop every later frame)', async () => {
    const srv = new FakeServer();
    const out = slowOut(1);
    const { ctx } = ctxWith(out.stream);
    const c = srv.client();
    const call = c.call.bind(c);
    let failed = 0;
    (c as unknown as { call: typeof call }).call = ((m: string, p: { maxBytes?: number }) => {
      // The first catch-up read (a full batch, not the check's 1 byte) fails.
      if (m === 'pty/read' && p.maxBytes !== 1 && failed++ === 0) return Promise.reject(new Error('busy'));
      return call(m as 'pty/read', p as never);
    }) as typeof call;
    const running = follow(ctx, c, 1, undefined, { maxQueued: 1024 });
    await srv.attached;
    srv.emit('a'.repeat(4096)); // past the backlog: catch up from the ring, whose first read fails
    await new Promise((r) => setTimeout(r, 50));
    srv.emit('b'.repeat(100));
    // The pane runs on (no exit to rescue the reader): everything arrives within a check or two.
    const deadline = Date.now() + 3 * FOLLOW_CHECK_MS + 2000;
    while (out.text().length < 4196 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(failed).toBeGreaterThan(0);
    expect(out.text()).toBe('a'.repeat(4096) + 'b'.repeat(100));
    srv.exit();
    expect(await running).toBe(0);
  });

  it('reads from the ring what no frame brought, within FOLLOW_CHECK_MS', async () => {
    const srv = new FakeServer();
    const out = slowOut(0);
    const { ctx } = ctxWith(out.stream);
    const running = follow(ctx, srv.client(), 1, undefined);
    await srv.attached;
    srv.emit('sent-');
    // Output the server holds and has not pushed (a frame that never comes).
    srv.data = Buffer.concat([srv.data, Buffer.from('held')]);
    const deadline = Date.now() + 3 * FOLLOW_CHECK_MS + 2000;
    while (out.text() !== 'sent-held' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(out.text()).toBe('sent-held');
    srv.exit();
    expect(await running).toBe(0);
  });
});
