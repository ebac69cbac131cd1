// The two stream files, event and log, as growing files: what path reads and
// FUSE's cat/tail -f see (a generation of recent lines), and per-handle queues
// for readers that block for more (acme's event file, `pane tail`).
import { shownKeepingTabs } from '../../kits/protocol/shown';

/**
 * A feed keeps at most `keep` bytes of recent lines for path reads. When a line
 * would pass that, the generation starts over empty, like a log rotated by
 * truncation: `tail -f` says "file truncated" and follows on, and offsets in a
 * generation never shift under a reader. Blocking readers have their own queues
 * and lose nothing at a rotation.
 */
export class Feed {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private flat: Buffer | null = Buffer.alloc(0);
  mtime = Date.now();
  readonly readers = new Set<FeedReader>();

  constructor(readonly keep: number) {}

  get size(): number {
    return this.bytes;
  }

  append(line: string): void {
    // A line may quote a host's or an agent's words: escaped, so it can never start a line of its own or drive a terminal that tails it.
    const b = Buffer.from(shownKeepingTabs(line) + '\n', 'utf8');
    if (this.bytes + b.byteLength > this.keep) {
      this.chunks = [];
      this.bytes = 0;
    }
    this.chunks.push(b);
    this.bytes += b.byteLength;
    this.flat = null;
    this.mtime = Date.now();
    for (const r of this.readers) r.push(b);
  }

  /** The generation's bytes [offset, offset+count). */
  read(offset: number, count: number): Buffer {
    // Flattened lazily and kept until the next append: a cat reads in many pieces.
    this.flat ??= Buffer.concat(this.chunks, this.bytes);
    if (this.chunks.length > 1) this.chunks = [this.flat];
    return this.flat.subarray(Math.min(offset, this.bytes), Math.min(offset + count, this.bytes));
  }

  /** A queue that receives every line appended from now on. */
  subscribe(): FeedReader {
    const r = new FeedReader(() => this.readers.delete(r));
    this.readers.add(r);
    return r;
  }

  /** Ends every blocking reader (the pane is gone). */
  end(): void {
    for (const r of [...this.readers]) r.close();
  }
}

/**
 * One blocking reader's unread lines. Bounded: a reader that stops reading
 * loses its oldest lines (and is told so) rather than growing the server.
 */
export const READER_MAX_BYTES = 1 << 20;
/** Bytes a handle can seek back over and read again. */
export const RECENT_KEEP = 64 << 10;

export class FeedReader {
  private queue: Buffer[] = [];
  private queued = 0;
  private dropped = 0;
  private waiters: (() => void)[] = [];
  closed = false;
  /** Bytes handed out so far: the offset a reader's next read starts at. */
  consumed = 0;
  /** The last bytes handed out, from offset recentStart, for re-reads after a seek back. */
  private recent: Buffer[] = [];
  private recentFlat: Buffer | null = null;
  private recentStart = 0;

  constructor(private readonly onClose: () => void) {}

  /** Bytes waiting to be read. */
  get pending(): number {
    return this.queued;
  }

  push(b: Buffer): void {
    if (this.closed) return;
    this.queue.push(b);
    this.queued += b.byteLength;
    while (this.queued > READER_MAX_BYTES && this.queue.length > 1) {
      const old = this.queue.shift()!;
      this.queued -= old.byteLength;
      this.dropped++;
    }
    this.wake();
  }

  /**
   * Reads the handle's own stream (bytes since the open). `offset` below what
   * was handed out re-reads it from a short memory: a program that reads ahead
   * and seeks back to a line end (bash's `read`) loses nothing.
   */
  async readAt(offset: number | undefined, count: number, wait: boolean): Promise<{ offset: number; data: Buffer }> {
    if (offset !== undefined && offset < this.consumed) {
      this.recentFlat ??= Buffer.concat(this.recent);
      this.recent = [this.recentFlat];
      const from = Math.max(offset, this.recentStart);
      const data = this.recentFlat.subarray(from - this.recentStart, Math.min(this.consumed, from + count) - this.recentStart);
      return { offset: from, data };
    }
    const at = this.consumed;
    const data = await this.read(count, wait);
    if (data.byteLength > 0) {
      this.recent.push(data);
      this.recentFlat = null;
      let kept = this.consumed - this.recentStart;
      while (kept - (this.recent[0]?.byteLength ?? 0) >= RECENT_KEEP && this.recent.length > 1) {
        const old = this.recent.shift()!;
        this.recentStart += old.byteLength;
        kept -= old.byteLength;
      }
    }
    return { offset: at, data };
  }

  /** Up to `count` bytes of whole lines (at least one line, cut only if longer than count); waits when asked and empty. */
  async read(count: number, wait: boolean): Promise<Buffer> {
    while (!this.closed && this.queue.length === 0 && this.dropped === 0 && wait) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    const out: Buffer[] = [];
    let n = 0;
    if (this.dropped > 0) {
      out.push(Buffer.from(`- dropped ${this.dropped} lines: this reader fell more than ${READER_MAX_BYTES} bytes behind\n`));
      n += out[0]!.byteLength;
      this.dropped = 0;
    }
    while (this.queue.length > 0) {
      const b = this.queue[0]!;
      if (n + b.byteLength > count) {
        if (n > 0) break;
        // A line longer than the read: hand out its first part now, the rest next time.
        out.push(b.subarray(0, count));
        this.queue[0] = b.subarray(count);
        this.queued -= count;
        n = count;
        break;
      }
      out.push(b);
      n += b.byteLength;
      this.queued -= b.byteLength;
      this.queue.shift();
    }
    this.consumed += n;
    return Buffer.concat(out, n);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
    this.wake();
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }
}
