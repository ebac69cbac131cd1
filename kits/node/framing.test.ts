// Stream framing: the reader that takes frames from a reused read buffer hands on
// every frame whole and in order wherever reads cut them, copying only cut frames.
import { describe, expect, it } from 'vitest';
import type { WireFrame } from '../client/transport';
import { BinaryKind, decodeBinary, encodeBinary } from '../protocol/binary';
import { encodeBinaryFrame, encodeFrame, FrameDecoder, ReusedFrameReader } from './framing';

/** What a frame says, copied out while it is valid (a binary frame is a view into the read buffer). */
const show = (f: WireFrame) => (typeof f === 'string' ? `json:${f}` : `bin:${Buffer.from(f).toString('hex')}`);

function frames(): { wire: Buffer; want: string[] } {
  const list: WireFrame[] = [];
  for (let i = 0; i < 60; i++) {
    if (i % 3 === 0) list.push(JSON.stringify({ t: 'req', id: i, method: 'pane/input', params: { data: 'é'.repeat(i * 37) } }));
    else list.push(Uint8Array.from({ length: (i * 977) % 70_000 }, (_, k) => (k * 31 + i) & 0xff));
  }
  return { wire: Buffer.concat(list.map(encodeFrame)), want: list.map(show) };
}

describe('ReusedFrameReader', () => {
  it('hands on every frame in order through one reused read buffer, whatever the read sizes', () => {
    const { wire, want } = frames();
    for (const size of [1, 3, 4, 5, 7, 4096, 65_536, 100_000]) {
      const reader = new ReusedFrameReader();
      const read = Buffer.alloc(size); // reused for every read, as the socket's own buffer is
      const got: string[] = [];
      for (let at = 0; at < wire.byteLength; at += size) {
        const n = wire.copy(read, 0, at, Math.min(at + size, wire.byteLength));
        reader.push(read.subarray(0, n), (f) => got.push(show(f)));
        read.fill(0xee); // the next read overwrites it: nothing kept may point into it
      }
      expect(got, `reads of ${size}`).toEqual(want);
    }
  });

  it('carries on a frame an earlier decoder had begun', () => {
    const { wire, want } = frames();
    const first = new FrameDecoder();
    const cut = 12_345;
    const early = first.push(wire.subarray(0, cut)).map(show);
    const reader = new ReusedFrameReader(first.pending());
    const got: string[] = [];
    reader.push(Buffer.from(wire.subarray(cut)), (f) => got.push(show(f)));
    expect([...early, ...got]).toEqual(want);
  });

  it('throws on a frame length the wire does not allow', () => {
    const reader = new ReusedFrameReader();
    expect(() => reader.push(Buffer.from([0, 0, 0, 0, 0]), () => {})).toThrow(/frame length 0/);
    expect(() => new ReusedFrameReader().push(Buffer.from([0xff, 0xff, 0xff, 0xff]), () => {})).toThrow(/over the/);
  });
});

describe('encodeBinaryFrame', () => {
  it('puts on the wire what encodeFrame of encodeBinary does, byte for byte, from a view into a larger buffer', () => {
    const backing = Uint8Array.from({ length: 70_000 }, (_, k) => (k * 7) & 0xff);
    for (const [start, len] of [[0, 0], [3, 1], [1000, 65_536], [17, 69_983]] as const) {
      const f = { kind: BinaryKind.OUTPUT, pane: 0x8000_0003, offset: 2 ** 40 + start, data: backing.subarray(start, start + len) };
      const one = encodeBinaryFrame(f);
      expect(Buffer.from(one).equals(encodeFrame(encodeBinary(f)))).toBe(true);
      const [back] = new FrameDecoder().push(Buffer.from(one));
      const decoded = decodeBinary(back as Uint8Array);
      expect(typeof decoded).not.toBe('string');
      expect(decoded).toMatchObject({ kind: BinaryKind.OUTPUT, pane: 0x8000_0003, offset: 2 ** 40 + start });
      expect(Buffer.from((decoded as { data: Uint8Array }).data).equals(Buffer.from(f.data))).toBe(true);
    }
  });

  it('encodes a JSON frame with any text (multi-byte, empty) as its UTF-8 bytes', () => {
    for (const text of ['', '{"t":"req"}', 'é'.repeat(3000), '😀 tab\there']) {
      const [back] = new FrameDecoder().push(encodeFrame(text));
      expect(back).toBe(text);
    }
  });
});
