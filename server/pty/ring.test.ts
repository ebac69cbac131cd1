import { describe, expect, it } from 'vitest';
import { ByteRing, INITIAL_BYTES, DEFAULT_RING_BYTES } from './ring';

const bytes = (s: string) => Buffer.from(s, 'latin1');
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1');

describe('ByteRing', () => {
  it('reads back appended bytes by stream offset', () => {
    const r = new ByteRing(64);
    r.append(bytes('hello '));
    r.append(bytes('world'));
    expect(r.streamStart).toBe(0);
    expect(r.streamEnd).toBe(11);
    expect(text(r.read(6, 100).data)).toBe('world');
    const mid = r.read(2, 3);
    expect(mid).toMatchObject({ from: 2, to: 5, gap: false });
    expect(text(mid.data)).toBe('llo');
  });

  it('drops the oldest bytes past capacity and reports a gap to readers behind', () => {
    const r = new ByteRing(8);
    r.append(bytes('abcdef'));
    r.append(bytes('ghijkl'));
    expect(r.streamStart).toBe(4);
    expect(r.streamEnd).toBe(12);
    const old = r.read(0, 100);
    expect(old).toMatchObject({ from: 4, to: 12, gap: true });
    expect(text(old.data)).toBe('efghijkl');
    expect(r.read(4, 100).gap).toBe(false);
  });

  it('keeps only the tail of an append larger than the whole ring', () => {
    const r = new ByteRing(4);
    r.append(bytes('xy'));
    r.append(bytes('0123456789'));
    expect(r.streamStart).toBe(8);
    expect(r.streamEnd).toBe(12);
    expect(text(r.read(0, 100).data)).toBe('6789');
  });

  it('clamps reads past the end to an empty batch at streamEnd', () => {
    const r = new ByteRing(16);
    r.append(bytes('abc'));
    expect(r.read(10, 5)).toMatchObject({ from: 3, to: 3, gap: false });
    expect(r.read(10, 5).data.byteLength).toBe(0);
  });

  it('matches a reference copy across lazy growth and wrap-around', () => {
    // Capacity above the 64 KiB first allocation exercises growth, then wrapping.
    const cap = 200_000;
    const r = new ByteRing(cap);
    const all: number[] = [];
    let seed = 7;
    for (let i = 0; i < 400; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const n = seed % 3000;
      const chunk = Buffer.alloc(n);
      for (let j = 0; j < n; j++) chunk[j] = (all.length + j) % 251;
      r.append(chunk);
      for (const b of chunk) all.push(b);
    }
    expect(r.streamEnd).toBe(all.length);
    expect(r.streamStart).toBe(Math.max(0, all.length - cap));
    const from = r.streamStart + 12_345;
    const got = r.read(from, 100_000);
    expect(got.to - got.from).toBe(100_000);
    expect(Buffer.compare(got.data, Buffer.from(all.slice(from, from + 100_000)))).toBe(0);
  });

  it('starts at INITIAL_BYTES (4 KiB) and doubles only as output needs: a quiet pane holds what a prompt needs', () => {
    expect(INITIAL_BYTES).toBe(4 << 10);
    const r = new ByteRing();
    expect(r.allocated).toBe(INITIAL_BYTES);
    r.append(Buffer.alloc(3000, 0x61)); // a prompt and a command or two
    expect(r.allocated).toBe(INITIAL_BYTES);
    const more = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    r.append(more);
    expect(r.allocated).toBe(128 << 10); // 4 → 8 → … → 128 KiB: the first power of two holding 73,000 bytes
    expect(r.read(0, 1 << 20).data.subarray(3000).equals(more)).toBe(true); // every byte kept through the copies
    expect(r.read(0, 3000).data.every((b) => b === 0x61)).toBe(true);
  });

  it('defaults to 2 MiB', () => {
    expect(new ByteRing().capacity).toBe(DEFAULT_RING_BYTES);
    expect(DEFAULT_RING_BYTES).toBe(2 * 1024 * 1024);
  });

  it('shrinks to the newest bytes on request, reading older offsets as a gap, and grows again', () => {
    const r = new ByteRing(1 << 20);
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    r.append(bytes);
    expect(r.allocated).toBe(512 << 10);
    const keep = 64 << 10;
    r.shrink(keep);
    expect(r.allocated).toBe(keep);
    expect([r.streamStart, r.streamEnd]).toEqual([300_000 - keep, 300_000]);
    const back = r.read(0, 1 << 20);
    expect(back.gap).toBe(true);
    expect(back.data.equals(bytes.subarray(300_000 - keep))).toBe(true);
    r.shrink(keep); // already that small: nothing to do
    expect(r.allocated).toBe(keep);
    r.append(bytes);
    expect(r.read(300_000, 300_000).data.equals(bytes)).toBe(true);
  });
});
