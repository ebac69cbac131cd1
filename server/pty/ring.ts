// A bounded byte ring addressed by monotonically increasing stream offsets: the
// memory of a terminal pane, from which late readers and lagging clients catch up.
// One circular buffer (grown lazily up to capacity), so appending copies only the new bytes.

/**
 * Default bytes kept per pane, sized to what reads from the ring need now that the
 * screen model keeps the history (compactly, issue 14) and the ring no longer has
 * to. A flow-controlled client's window (up to FLOW_HIGH_MAX, 2 MiB, kits/protocol/flow.ts) is bytes
 * already sent, not read back; what is read back is a client's unsent tail: a
 * stalled or blocked one resuming from its own position finds up to 2 MiB of it
 * without a gap (farther behind, it is told of the gap); a late
 * attach needs only the bytes its snapshot has not parsed (≤ SCREEN_INFLIGHT, 512
 * KiB); the screen model's flood skip (3/4 of this) sits 3× above that; and 2 MiB
 * still holds ~20,000 lines of typical output for `pty/read` by offset. A busy pane
 * holds at most this (half the former 4 MiB, against tmux's ~5 MiB for a whole pane);
 * an idle one far less: the buffer grows lazily from INITIAL_BYTES.
 */
export const DEFAULT_RING_BYTES = 2 << 20;

/**
 * First allocation, doubled as output comes: a prompt and a few short commands fit.
 * Small because every pane holds it from its start and most sit quiet: at 64 KiB,
 * 200 panes of a quiet `cat` held 27 MiB of glibc heap against 16 at 4 KiB (the
 * buffer is zeroed when allocated, so a reused chunk is resident at once, printed
 * into or not). A flood's growth to the ring's 2 MiB costs four more doublings,
 * each a copy of what is held. A quiet pane that grew past RING_IDLE_KEEP shrinks back to it.
 */
export const INITIAL_BYTES = 4 << 10;

export interface RingRead {
  /** Offset of the first byte of `data` (streamStart when the asked offset was dropped). */
  from: number;
  /** Offset one past the last byte of `data`. */
  to: number;
  /** True when the asked offset was older than streamStart, so bytes were skipped. */
  gap: boolean;
  data: Buffer;
}

export class ByteRing {
  private buf: Uint8Array;
  private start = 0;
  private end = 0;

  constructor(readonly capacity: number = DEFAULT_RING_BYTES) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`ring capacity must be a positive integer, not ${capacity}`);
    this.buf = new Uint8Array(Math.min(capacity, INITIAL_BYTES));
  }

  /** The oldest offset still held. */
  get streamStart(): number {
    return this.start;
  }

  /** One past the newest byte appended. */
  get streamEnd(): number {
    return this.end;
  }

  append(data: Uint8Array): void {
    const n = data.byteLength;
    if (n === 0) return;
    const newEnd = this.end + n;
    const held = Math.min(newEnd - this.start, this.capacity);
    if (held > this.buf.byteLength) this.grow(held);
    const size = this.buf.byteLength;
    // Only the last `size` bytes of a huge append can survive it.
    const src = n > size ? data.subarray(n - size) : data;
    this.put(newEnd - src.byteLength, src);
    this.end = newEnd;
    this.start = Math.max(this.start, newEnd - size);
  }

  /** Up to `maxBytes` from `from` (clamped into [streamStart, streamEnd]). */
  read(from: number, maxBytes: number): RingRead {
    let at = Math.max(0, Math.floor(from));
    const gap = at < this.start;
    if (gap) at = this.start;
    if (at > this.end) at = this.end;
    const to = Math.min(this.end, at + Math.max(0, Math.floor(maxBytes)));
    const data = Buffer.allocUnsafe(to - at);
    const size = this.buf.byteLength;
    let done = 0;
    while (done < data.byteLength) {
      const p = (at + done) % size;
      const len = Math.min(data.byteLength - done, size - p);
      data.set(this.buf.subarray(p, p + len), done);
      done += len;
    }
    return { from: at, to, gap, data };
  }

  /**
   * Keeps only the newest `keep` bytes (at least INITIAL_BYTES' worth of buffer) and
   * gives the rest of the buffer back: for a pane gone quiet whose readers all have
   * everything (Terminal's RING_IDLE_MS). Older offsets then read as a gap, as they
   * would once pushed out by newer output.
   */
  shrink(keep: number): void {
    let size = Math.min(this.capacity, INITIAL_BYTES);
    while (size < keep && size < this.capacity) size *= 2;
    size = Math.min(size, this.capacity);
    if (size < this.buf.byteLength) this.realloc(size);
  }

  /** Bytes of buffer allocated now (grows lazily up to capacity; shrink gives it back). */
  get allocated(): number {
    return this.buf.byteLength;
  }

  /** Writes `src` at stream offset `at` (physical index = offset mod size). */
  private put(at: number, src: Uint8Array): void {
    const size = this.buf.byteLength;
    let done = 0;
    while (done < src.byteLength) {
      const p = (at + done) % size;
      const len = Math.min(src.byteLength - done, size - p);
      this.buf.set(src.subarray(done, done + len), p);
      done += len;
    }
  }

  private grow(need: number): void {
    let size = this.buf.byteLength;
    while (size < need) size *= 2;
    this.realloc(Math.min(size, this.capacity));
  }

  /** A new buffer of `size` bytes holding the newest of what is held (all of it when growing). */
  private realloc(size: number): void {
    const from = Math.max(this.start, this.end - size);
    const held = this.read(from, this.end - from).data;
    this.buf = new Uint8Array(size);
    this.start = from;
    this.put(from, held);
  }
}
