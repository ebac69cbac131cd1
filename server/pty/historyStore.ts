// A pane's older scrollback, compactly: each row as SGR-encoded text (lineSgr.ts),
// packed BLOCK_LINES rows to a block, so 10,000 rows cost about their text instead
// of xterm's 12 bytes a cell. A full block never changes again: it is gzipped once
// as it fills (text shrinks 5-25×), and those same bytes are what a durable save
// writes as the block's file, once, reused by later generations. Reads (`pane
// screen`, a body read, a late attach's snapshot) inflate the blocks they need.
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * Rows per block: large enough that a block's overhead and gzip's are small beside
 * its text (~25 KB of 100-column output), small enough that
 * dropping the oldest block keeps the history within a few percent of its limit.
 */
export const BLOCK_LINES = 256;

/** A row's terminator in a block: a hard line break, or a soft wrap into the next row. */
const HARD = '\n';
const SOFT = '\r';
const SOFT_BYTE = 0x0d;
const HARD_BYTE = 0x0a;
/**
 * The open block's first allocation, doubled as it fills (a block of 100-column rows
 * ends near 25 KB): a pane that printed a few lines holds a few KiB, not a block's worth.
 */
const OPEN_INITIAL_BYTES = 4096;
const utf8 = new TextEncoder();
const SGR = /\x1b\[[0-9;:]*m/g;

export interface HistoryBlock {
  /** Number of the block in its store, counting from 0 since the store began (or was cleared: it keeps counting). */
  seq: number;
  /** The rows, gzipped (UTF-8): each ending in \n (hard break) or \r (wraps into the next row). Also the block's saved file. */
  gz: Uint8Array;
  lines: number;
}

/** A block's rows as text. */
export function blockText(b: HistoryBlock): string {
  return gunzipSync(b.gz).toString('utf8');
}

/** Plain rows of a block: SGR removed, trailing blanks trimmed, one entry per row. */
export function blockRows(text: string): string[] {
  const rows = text.replace(SGR, '').split(/[\r\n]/);
  rows.pop(); // after the last terminator
  return rows.map((r) => r.trimEnd());
}

/** A block's text as a terminal replays it: hard breaks as CR LF, soft wraps left to the terminal. */
export function blockSerialized(text: string): string {
  return text.replace(/\r/g, '').replace(/\n/g, '\r\n');
}

/** The last `n` rows of a block's text, or of a tail() (whole rows, terminators kept). */
export function lastRows(text: string, n: number): string {
  if (n <= 0) return '';
  let at = text.length - 1; // the block's last terminator
  for (let i = 0; i < n; i++) {
    const prev = Math.max(text.lastIndexOf(HARD, at - 1), text.lastIndexOf(SOFT, at - 1));
    if (prev < 0) return text;
    at = prev;
  }
  return text.slice(at + 1);
}

export class HistoryStore {
  private full: HistoryBlock[] = [];
  /**
   * The block being filled, as UTF-8 bytes. Not strings: xterm builds a row's text a
   * character at a time, so each row arrives as a rope of ~one V8 cons cell per
   * character, ~25× its text; 20 panes' open blocks held 10.7 MiB of them (issue 14).
   * Encoding copies the row out flat, and the bytes are what gzip takes when it fills.
   */
  private open = new Uint8Array(0);
  private openBytes = 0;
  private openLines = 0;
  private seq = 0;
  private count = 0;

  /** @param limit rows kept at least (older whole blocks are dropped past it). */
  constructor(readonly limit: number) {}

  /** Rows held. */
  get lines(): number {
    return this.count;
  }

  /** Appends one encoded row; `wraps` when the row continues on the next (a soft wrap). */
  push(row: string, wraps: boolean): void {
    this.append(row, wraps ? SOFT_BYTE : HARD_BYTE);
    this.count++;
    if (this.openLines >= BLOCK_LINES) {
      // Copied out: zlib's result can be a view of a larger output buffer, which it would keep alive.
      this.full.push({ seq: this.seq++, gz: new Uint8Array(gzipSync(this.open.subarray(0, this.openBytes))), lines: this.openLines });
      this.openBytes = 0;
      this.openLines = 0;
    }
    while (this.full.length && this.count - this.full[0]!.lines >= this.limit) this.count -= this.full.shift()!.lines;
  }

  /** Records rows that could not be captured, as a visible line rather than a silent hole. */
  lost(n: number): void {
    if (this.openBytes > 0 && this.open[this.openBytes - 1] === SOFT_BYTE) this.open[this.openBytes - 1] = HARD_BYTE;
    this.push(`\x1b[0;7m[${n} line${n === 1 ? '' : 's'} lost]\x1b[0m`, false);
  }

  /** Forgets everything (ESC [ 3 J); block numbers keep counting, so saved block names never repeat. */
  clear(): void {
    this.full = [];
    this.open = new Uint8Array(0);
    this.openBytes = 0;
    this.openLines = 0;
    this.count = 0;
  }

  /** The full, immutable blocks, oldest first. */
  blocks(): readonly HistoryBlock[] {
    return this.full;
  }

  /** The rows of the block being filled, as one string in block form. */
  openText(): string {
    return Buffer.from(this.open.buffer, this.open.byteOffset, this.openBytes).toString('utf8');
  }

  /** Adds a row and its terminator to the open block, growing it by doubling. */
  private append(row: string, terminator: number): void {
    const most = row.length * 3 + 1; // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (this.openBytes + most > this.open.length) {
      const grown = new Uint8Array(Math.max(OPEN_INITIAL_BYTES, 2 * this.open.length, this.openBytes + most));
      grown.set(this.open.subarray(0, this.openBytes));
      this.open = grown;
    }
    this.openBytes += utf8.encodeInto(row, this.open.subarray(this.openBytes)).written;
    this.open[this.openBytes++] = terminator;
    this.openLines++;
  }

  /** The last `n` rows in block form (terminators kept). */
  tail(n = Infinity): string {
    const parts: string[] = [];
    let need = Math.min(n, this.count);
    const take = (text: string, lines: number) => {
      parts.push(lines <= need ? text : lastRows(text, need));
      need -= Math.min(lines, need);
    };
    take(this.openText(), this.openLines);
    for (let i = this.full.length - 1; i >= 0 && need > 0; i--) take(blockText(this.full[i]!), this.full[i]!.lines);
    return parts.reverse().join('');
  }

  /** The last `n` rows as plain text, one per row (trailing blanks trimmed). */
  text(n = Infinity): string[] {
    return blockRows(this.tail(n));
  }

  /** The last `n` rows as a terminal replays them (ends at the start of a new row unless the last row wraps). */
  serialize(n = Infinity): string {
    return blockSerialized(this.tail(n));
  }
}
