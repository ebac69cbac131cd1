// The stream adapter over a pair of pipes (a child's stdout and stdin, as stdio dials
// use it) and the stdio preamble reader: bytes read before the adapter took the stream
// come first, a broken length closes it naming why, the end of the input closes it,
// and the preamble is found even when cut across reads.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { WireFrame } from '../client/transport';
import { STDIO_MAGIC, stdioPreamble } from '../protocol/stdio';
import { encodeFrame, MAX_STREAM_FRAME } from './framing';
import { awaitPreamble } from './stdioPreamble';
import { streamTransport } from './streamTransport';

describe('streamTransport over a pipe pair', () => {
  it('hands on the head bytes first, then what the stream brings, and writes framed', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const first = encodeFrame('{"a":1}');
    const t = streamTransport(input, output, 'exec', { head: first.subarray(0, 7) });
    const got: WireFrame[] = [];
    t.onFrame((f) => got.push(typeof f === 'string' ? f : Buffer.from(f).toString('hex')));
    input.write(first.subarray(7));
    input.write(encodeFrame(new Uint8Array([1, 2, 3])));
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual(['{"a":1}', '010203']);
    t.send('{"b":2}');
    expect(output.read()).toEqual(encodeFrame('{"b":2}'));
    expect(t.kind).toBe('exec');
  });

  it('closes naming the bad framing, and when the input ends', async () => {
    const bad = new PassThrough();
    const t = streamTransport(bad, new PassThrough(), 'exec');
    const why = new Promise<string>((r) => t.onClose(r));
    const head = Buffer.alloc(4);
    head.writeUInt32BE(MAX_STREAM_FRAME + 1);
    bad.write(head);
    expect(await why).toBe(`bad framing: a frame of ${MAX_STREAM_FRAME + 1} bytes is over the ${MAX_STREAM_FRAME}-byte limit (MAX_STREAM_FRAME)`);
    const ending = new PassThrough();
    const u = streamTransport(ending, new PassThrough(), 'exec');
    const gone = new Promise<string>((r) => u.onClose(r));
    ending.end();
    ending.resume();
    expect(await gone).toBe('peer closed');
  });
});

describe('awaitPreamble', () => {
  it('finds the preamble cut across reads after a motd, and keeps what follows it', async () => {
    const s = new PassThrough();
    const p = awaitPreamble(s, { what: 'it' });
    const line = Buffer.from(`motd\r\n${stdioPreamble('1.2.3')}`);
    const cut = line.indexOf(STDIO_MAGIC) + 3;
    s.write(line.subarray(0, cut));
    await new Promise((r) => setImmediate(r));
    s.write(Buffer.concat([line.subarray(cut), Buffer.from('FRAMES')]));
    const got = await p;
    expect(got.version).toBe('1.2.3');
    expect(got.skipped).toBe(6);
    expect(got.head.toString()).toBe('FRAMES');
    expect(s.isPaused()).toBe(true);
  });

  it('refuses a preamble of another line version, naming both and the fix', async () => {
    const s = new PassThrough();
    const p = awaitPreamble(s, { what: 'it' });
    s.write(`${STDIO_MAGIC} v2 3.0.0\n`);
    await expect(p).rejects.toThrow('it runs pane 3.0.0, whose stdio preamble is v2; this pane speaks v1: install the same pane on both ends (`pane host install NAME` puts this one there)');
  });

  it('gives up after its time bound, saying what it saw', async () => {
    const s = new PassThrough();
    const p = awaitPreamble(s, { what: 'it', timeoutMs: 100 });
    s.write('Password: ');
    await expect(p).rejects.toThrow('it gave no pane preamble within 0.1 s; it is no `pane serve --stdio`');
    await expect(p).rejects.toThrow('It printed: "Password: "');
  });
});
