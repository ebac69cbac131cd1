// Bytes for xterm.js cut on whole UTF-8 characters. A PTY read, a server frame and a
// parse slice end wherever they end, often inside a character; xterm 6.0's decoder
// keeps the first bytes of a split character for the next write(), but loses the
// character when a kept continuation byte is 0x80 (xtermjs/xterm.js#6003, fixed after
// 6.0.0): `—` E2 80 94 split after its 80 came out as nothing, on the daemon's screens
// and in the window alike. So no write hands xterm a split character: the first bytes
// of one wait here, in front of the next write's. Decision 054.

/** How many bytes at the end of `b` begin a character that `b` does not finish (0..3). */
export function incompleteTail(b: Uint8Array): number {
  const n = b.byteLength;
  // A character is at most 4 bytes: its lead byte is among the last 3 if it is unfinished.
  for (let back = 1; back <= Math.min(3, n); back++) {
    const x = b[n - back]!;
    if ((x & 0xc0) === 0x80) continue; // a continuation byte: its lead is further back
    if (x < 0xc0) return 0; // ASCII (or a stray byte xterm drops anyway): nothing is cut
    const len = x >= 0xf0 ? 4 : x >= 0xe0 ? 3 : 2;
    return len > back ? back : 0;
  }
  return 0; // only continuation bytes at the end: not a character's start, nothing to keep
}

/**
 * The most bytes to hand xterm in one write(). xterm cuts a longer write into parses of
 * 131,072 bytes itself (InputHandler's MAX_PARSEBUFFER), wherever a character falls, and
 * 6.0 can lose the character at such a cut; this leaves room for the ≤ 3 bytes a carry
 * puts in front, so every cut is the carry's. The daemon's screens and `pane attach`
 * both write in pieces of at most this.
 */
export const XTERM_WRITE_MAX = 131_072 - 3;

/** What a carry holds when it holds nothing: one shared array, never written, so a write of whole characters allocates nothing. */
const NOTHING = new Uint8Array(0);

/** One byte stream's carry: what it holds is the start of a character the next bytes finish. */
export class Utf8Carry {
  private held: Uint8Array = NOTHING;

  /** The bytes to write now: any held ones in front of `data`, without a character `data` leaves unfinished. */
  take(data: Uint8Array): Uint8Array {
    let whole = data;
    if (this.held.byteLength > 0) {
      whole = new Uint8Array(this.held.byteLength + data.byteLength);
      whole.set(this.held);
      whole.set(data, this.held.byteLength);
    }
    const keep = incompleteTail(whole);
    // A copy: the caller's buffer may be reused once its write returns.
    this.held = keep > 0 ? whole.slice(whole.byteLength - keep) : NOTHING;
    return keep > 0 ? whole.subarray(0, whole.byteLength - keep) : whole;
  }

  /** The stream starts over (a new attach, a snapshot in place of the bytes): what was held belongs to the old one. */
  reset(): void {
    this.held = NOTHING;
  }

  get holding(): number {
    return this.held.byteLength;
  }
}
