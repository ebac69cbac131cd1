// The journal: one line per structural change since a snapshot generation, each
// line `CHECKSUM<TAB>JSON` of a whole entity (a session, a pane, a family's extra
// state) or its removal, so replay is "last write wins" and a torn last line is
// simply where the journal ends. Appends go out asynchronously, off the main loop.
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { JournalRecordSchema, type JournalRecord, type StateFile } from '../../kits/protocol/snapshot';
import { journalName, sha256 } from './generations';
import { readOwnFile, StateFileError } from './stateFiles';

export type { JournalRecord };

/**
 * Most bytes of one journal read back. A journal is folded into a snapshot every
 * 5,000 records (a few MiB of panes and sessions); past this it was not written by
 * pane's rotation, and only its first part is replayed (the rest is where it ends).
 */
export const MAX_JOURNAL_BYTES = 256 << 20;

/** Checksum prefix length: 64 bits of sha256 tell a torn or altered line from a whole one. */
const SUM_CHARS = 16;

/**
 * Records of a whole-state dump encoded in one turn of the event loop. A pane's record
 * (its vocabulary included) takes ~50 µs to stringify and checksum, so the dump of 100
 * panes held the main loop ~5 ms in one piece, on top of the capture before it (the
 * bench's longest stall during a snapshot: 15-22 ms against its 10 ms aim). 25 records
 * are ~1.3 ms: a key's echo waits at most that for this part.
 */
export const DUMP_SLICE_RECORDS = 25;

export function encodeRecord(r: JournalRecord): string {
  return journalLine(JSON.stringify(r));
}

/** The journal line of a record's JSON (JSON.stringify of the record, made by the caller). */
export function journalLine(json: string): string {
  return `${sha256(json).slice(0, SUM_CHARS)}\t${json}\n`;
}

/** Applies records in order to a state (in place). */
export function applyRecords(state: StateFile, records: JournalRecord[]): void {
  // Histories of panes dropped by a reset, so the same panes in the dump keep theirs.
  let stash = new Map<string, StateFile['panes'][number]>();
  for (const r of records) {
    switch (r.k) {
      case 'reset':
        stash = new Map(state.panes.map((p) => [p.uuid, p]));
        state.sessions = [];
        state.panes = [];
        state.extra = {};
        break;
      case 'session': {
        const i = state.sessions.findIndex((s) => s.id === r.v.id);
        if (i >= 0) state.sessions[i] = r.v;
        else state.sessions.push(r.v);
        break;
      }
      case 'session-gone':
        state.sessions = state.sessions.filter((s) => s.id !== r.id);
        state.panes = state.panes.filter((p) => p.session !== r.id);
        break;
      case 'pane': {
        const i = state.panes.findIndex((p) => p.n === r.v.n);
        const before = i >= 0 ? state.panes[i] : stash.get(r.v.uuid);
        // The saved history belongs to the same pane only (same uuid).
        const scrollback = before && before.uuid === r.v.uuid ? before.scrollback : undefined;
        const next = { ...r.v, address: `${r.v.host}:${r.v.n}`, ...(scrollback ? { scrollback } : {}), ...(r.resume ? { resume: r.resume } : {}), ...(r.autoName ? { autoName: r.autoName } : {}) };
        if (i >= 0) state.panes[i] = next;
        else state.panes.push(next);
        break;
      }
      case 'pane-gone':
        state.panes = state.panes.filter((p) => p.n !== r.n);
        break;
      case 'extra':
        state.extra[r.family] = r.v;
        break;
      case 'history': {
        // Only the same pane (number and uuid): a record for a pane since replaced names nothing of the new one's.
        const p = state.panes.find((x) => x.n === r.n && x.uuid === r.uuid);
        if (p) p.scrollback = r.scrollback;
        break;
      }
    }
  }
}

/**
 * Reads a journal (a regular file of ours: never through a link, never blocking);
 * stops at the first line that fails its checksum (a torn write), warning. A line
 * whose checksum holds but that is not a record (bad JSON, a field out of range, a
 * shape this pane does not know) is skipped, and the skips said in one warning.
 */
export function readJournal(file: string, warn: (m: string) => void): JournalRecord[] {
  let text: string;
  try {
    const buf = readOwnFile(file, MAX_JOURNAL_BYTES, { truncate: true });
    if (buf.byteLength === MAX_JOURNAL_BYTES) warn(`${path.basename(file)} is longer than ${MAX_JOURNAL_BYTES} bytes; replaying its first ${MAX_JOURNAL_BYTES}`);
    text = buf.toString('utf8');
  } catch (e) {
    if (e instanceof StateFileError && !/ENOENT/.test(e.reason)) warn(`${e.message}; not replayed`);
    return [];
  }
  const out: JournalRecord[] = [];
  const lines = text.split('\n');
  let skipped = 0;
  /** The last whole-state dump: where it starts in `out`, and how many records it says follow. */
  let dump: { at: number; records: number } | null = null;
  let first = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const tab = line.indexOf('\t');
    const json = line.slice(tab + 1);
    if (tab !== SUM_CHARS || sha256(json).slice(0, SUM_CHARS) !== line.slice(0, tab)) {
      const last = lines.slice(i + 1).every((l) => l === '');
      warn(`${path.basename(file)} line ${i + 1} is ${last ? 'torn (a crash during its write)' : 'damaged'}; replaying the ${out.length} records before it`);
      break;
    }
    let why: string;
    try {
      const r = JournalRecordSchema.safeParse(JSON.parse(json));
      if (r.success) {
        if (r.data.k === 'reset' && r.data.records !== undefined) dump = { at: out.length, records: r.data.records };
        out.push(r.data);
        continue;
      }
      const issue = r.error.issues[0]!;
      why = `${issue.path.join('.') || '(record)'}: ${issue.message}`;
    } catch (e) {
      why = (e as Error).message;
    }
    if (skipped++ === 0) first = `line ${i + 1}: ${why}`;
  }
  if (dump && out.length - dump.at - 1 < dump.records) {
    warn(`${path.basename(file)}: its whole-state dump is cut short (${out.length - dump.at - 1} of ${dump.records} records); not applied, replaying the ${dump.at} records before it`);
    out.length = dump.at;
  }
  if (skipped) warn(`${path.basename(file)}: ${skipped} record${skipped === 1 ? '' : 's'} with a good checksum fail their schema (first: ${first}); skipped, the other ${out.length} replayed`);
  return out;
}

/** Appends records to journal-GEN.jsonl; writes and fdatasyncs run on the thread pool, one at a time. */
export class JournalWriter {
  private fd: number;
  private queue: string[] = [];
  private busy = false;
  /** Sliced appends still being encoded: nothing is written until they are in place, so the journal keeps its order. */
  private holding = 0;
  private idle: (() => void)[] = [];
  failed: Error | null = null;
  appended = 0;

  constructor(
    readonly dir: string,
    readonly gen: number,
  ) {
    // Never through a link planted at the name (O_NOFOLLOW); a new generation's journal is ours alone.
    this.fd = fs.openSync(path.join(dir, journalName(gen)), fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW, 0o600);
  }

  /** Queues records for the next write; `json[i]`, where given, is records[i]'s JSON.stringify already made. */
  append(records: JournalRecord[], json: (string | undefined)[] = []): void {
    if (records.length === 0) return;
    this.queue.push(records.map((r, i) => (json[i] === undefined ? encodeRecord(r) : journalLine(json[i]))).join(''));
    this.appended += records.length;
    this.pump();
  }

  /**
   * Queues records now, in their place before anything appended later, but encodes
   * them DUMP_SLICE_RECORDS at a time, each slice after a turn of the event loop
   * (rotation's whole-state dump). They are not counted in `appended`: a dump starts
   * a journal. Resolves once all are encoded and queued for the write.
   */
  async appendSliced(records: JournalRecord[]): Promise<void> {
    if (records.length === 0) return;
    const at = this.queue.length;
    this.queue.push('');
    this.holding++;
    const parts: string[] = [];
    try {
      for (let i = 0; i < records.length; i += DUMP_SLICE_RECORDS) {
        // A turn before each slice, the first too: the capture that made the records was a piece of work already.
        await nextTurn();
        parts.push(records.slice(i, i + DUMP_SLICE_RECORDS).map((r) => encodeRecord(r)).join(''));
      }
    } finally {
      // Nothing was written while held, so the slot is still where it was put.
      this.queue[at] = parts.join('');
      this.holding--;
      this.pump();
    }
  }

  /** Resolves when everything appended so far is on disk. */
  drained(): Promise<void> {
    if (!this.busy && this.queue.length === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  async close(): Promise<void> {
    await this.drained();
    fs.closeSync(this.fd);
  }

  private pump(): void {
    if (this.busy || this.holding > 0) return;
    if (this.queue.length === 0) {
      for (const r of this.idle.splice(0)) r();
      return;
    }
    this.busy = true;
    const buf = Buffer.from(this.queue.join(''));
    this.queue = [];
    fs.write(this.fd, buf, 0, buf.length, null, (err) => {
      if (err) this.failed = err;
      fs.fdatasync(this.fd, (e2) => {
        if (e2) this.failed = e2;
        this.busy = false;
        this.pump();
      });
    });
  }
}
