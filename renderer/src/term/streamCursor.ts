// Keeps a terminal's output exactly-once across attach and re-attach: frames carry
// stream offsets, the attach reply says where output resumes, and anything before
// that (or already written) is trimmed. A frame past the expected offset is a gap.

export interface Accepted {
  /** The bytes to write (possibly a suffix of the frame); empty when all were seen. */
  data: Uint8Array;
  /** Bytes of the frame dropped as already seen. */
  dropped: number;
  /** Bytes missing between what we had and this frame (0 normally). */
  gap: number;
}

export class StreamCursor {
  /** Offset one past the last byte handed to the terminal; null before attach. */
  private next: number | null = null;
  private early: { offset: number; data: Uint8Array }[] = [];

  get offset(): number | null {
    return this.next;
  }

  /** Output before the attach reply is held, then replayed through `accept`. */
  hold(offset: number, data: Uint8Array): boolean {
    if (this.next !== null) return false;
    this.early.push({ offset, data });
    return true;
  }

  /** The attach reply arrived: output resumes at `from`. Returns held frames to accept. */
  start(from: number): { offset: number; data: Uint8Array }[] {
    this.next = from;
    const held = this.early;
    this.early = [];
    return held;
  }

  /** Back to "not attached" (socket lost or re-attaching). */
  stop(): void {
    this.next = null;
    this.early = [];
  }

  accept(offset: number, data: Uint8Array): Accepted {
    const next = this.next ?? offset;
    const end = offset + data.byteLength;
    if (end <= next) return { data: data.subarray(data.byteLength), dropped: data.byteLength, gap: 0 };
    const skip = Math.max(0, next - offset);
    const gap = Math.max(0, offset - next);
    this.next = end;
    return { data: skip > 0 ? data.subarray(skip) : data, dropped: skip, gap };
  }
}
