// The snapshot generations on disk: snap-NNNNNN.json files (a checksummed header
// line, then the state as JSON), kept KEEP_GENERATIONS deep; a file that is not
// pane's (a link, a FIFO, another user's, a number out of range, a newer version)
// or fails its checksum or schema is set aside with a warning, never trusted.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { migrateState, type Generation, type StateFile } from '../../kits/protocol/snapshot';
import { FAULT_BEFORE_RENAME, writeAtomic } from '../../kits/node/atomicFile';
import { entryFault, readOwnFile, readOwnFileAsync, setAside, StateFileError } from './stateFiles';

/** Generations kept: enough to go back past a bad hour, few enough to stay small on disk. */
export const KEEP_GENERATIONS = 8;
/**
 * Largest generation number taken from a file name. One is made a minute at most (or
 * per 5,000 journal records): 2^31 is millennia. A larger one (1e20) is not pane's;
 * counting on from it would name journals the replay never reads.
 */
export const MAX_GENERATION = 2 ** 31 - 1;
/**
 * Largest snapshot file read back: the structure of 512 panes and their sessions is
 * under 2 MiB, the agents' part (prompts, mail waiting) a few more.
 */
export const MAX_SNAPSHOT_BYTES = 64 << 20;
const SNAP = /^snap-(\d{6,})\.json$/;
const JOURNAL = /^journal-(\d{6,})\.jsonl$/;
const TEMP = /^\..*\.tmp$/;

/** The generation a snapshot or journal file name carries, or null (not such a name, or out of range). */
export function genOf(name: string, re: RegExp = SNAP): number | null {
  const m = re.exec(name);
  if (!m) return null;
  const g = Number(m[1]);
  return Number.isSafeInteger(g) && g >= 1 && g <= MAX_GENERATION ? g : null;
}

export interface Header {
  pane: 'state';
  gen: number;
  savedAt: number;
  sha256: string;
  bytes: number;
  sessions: number;
  panes: number;
}

export const snapName = (gen: number) => `snap-${String(gen).padStart(6, '0')}.json`;
export const journalName = (gen: number) => `journal-${String(gen).padStart(6, '0')}.jsonl`;
export const sha256 = (s: string | Uint8Array) => crypto.createHash('sha256').update(s).digest('hex');

/** Formats a state file: header line + body, so a reader can check it before parsing it. */
export function encodeSnapshot(gen: number, state: StateFile): string {
  return withHeader(gen, state, JSON.stringify(state));
}

/** The header line that checks `body` (the state's JSON), then the body. */
function withHeader(gen: number, state: StateFile, body: string): string {
  const header: Header = { pane: 'state', gen, savedAt: state.savedAt, sha256: sha256(body), bytes: Buffer.byteLength(body), sessions: state.sessions.length, panes: state.panes.length };
  return `${JSON.stringify(header)}\n${body}`;
}

/**
 * Panes stringified in one turn of the event loop by encodeSnapshotSliced. A pane with its
 * vocabulary takes ~40 µs, so 100 panes in one piece held the main loop 4-9 ms, the longest
 * stall of a snapshot once the journal's dump was sliced; 25 are ~1 ms.
 */
export const ENCODE_SLICE_PANES = 25;

/**
 * encodeSnapshot's text, the same to the byte, made over several turns of the event loop:
 * the rest of the state in one, then the panes ENCODE_SLICE_PANES at a time, each after a
 * turn. `state` must not change meanwhile (the snapshot's own copy).
 */
export async function encodeSnapshotSliced(gen: number, state: StateFile): Promise<string> {
  // A turn first: the histories' answers before this come back together, in one turn of their own.
  await nextTurn();
  // The panes' place in the state's own key order, held by a string no state holds (a fresh UUID).
  const placeholder = `pane-snapshot-panes-${crypto.randomUUID()}`;
  const mark = JSON.stringify(placeholder);
  const outer = JSON.stringify({ ...state, panes: placeholder as never });
  const parts: string[] = [];
  for (let i = 0; i < state.panes.length; i += ENCODE_SLICE_PANES) {
    await nextTurn();
    parts.push(state.panes.slice(i, i + ENCODE_SLICE_PANES).map((p) => JSON.stringify(p)).join(','));
  }
  const at = outer.indexOf(mark);
  return withHeader(gen, state, `${outer.slice(0, at)}[${parts.join(',')}]${outer.slice(at + mark.length)}`);
}

/** Parses and checks a snapshot file's text; throws naming what is wrong. */
export function decodeSnapshot(text: string, file: string): { header: Header; state: StateFile } {
  const nl = text.indexOf('\n');
  if (nl < 0) throw new Error(`${file} is truncated (no header line)`);
  let header: Header;
  try {
    header = JSON.parse(text.slice(0, nl)) as Header;
  } catch {
    throw new Error(`${file} has an unreadable header`);
  }
  const body = text.slice(nl + 1);
  if (header.pane !== 'state') throw new Error(`${file} is not a pane state file`);
  if (Buffer.byteLength(body) !== header.bytes) throw new Error(`${file} is truncated (${Buffer.byteLength(body)} of ${header.bytes} bytes)`);
  if (sha256(body) !== header.sha256) throw new Error(`${file} fails its checksum`);
  return { header, state: migrateState(JSON.parse(body) as unknown, file) };
}

/** What pane keeps under a name in the state directory; null for names that are not pane's (left alone). */
function wantOf(name: string): 'file' | 'dir' | 'temp' | 'range' | null {
  if (SNAP.test(name) || JOURNAL.test(name)) return (genOf(name) ?? genOf(name, JOURNAL)) === null ? 'range' : 'file';
  if (name === 'scrollback' || name === 'daemon.lock') return 'dir';
  if (name === 'daemon.pid' || name === 'daemon.socket' || name === 'daemon.log' || name === 'daemon.log.1') return 'file';
  if (TEMP.test(name)) return 'temp';
  return null;
}

/** History block files (scrollback/h-…): shared by generations, removed once no kept generation names them. */
const BLOCK_FILE = /^h-/;

/** The history files a state names: blocks, and each pane's newest-rows file (an earlier generation's when its pane had not changed). */
function blockRefs(state: StateFile): Set<string> {
  return new Set(state.panes.flatMap((p) => (p.scrollback ? [p.scrollback.file, ...(p.scrollback.blocks ?? [])] : [])));
}

export class GenerationStore {
  /** Block files each generation names, as written or first read (a generation never changes). */
  private refs = new Map<number, Set<string>>();

  constructor(
    readonly dir: string,
    private readonly warn: (msg: string) => void,
  ) {
    try {
      fs.mkdirSync(path.join(dir, 'scrollback'), { recursive: true, mode: 0o700 });
    } catch {
      // something else under that name: sweep() sets it aside and makes the directory
    }
  }

  /**
   * Sets aside whatever in the state directory is not pane's under its name, before
   * anything is read: a snapshot or journal that is not a regular file of ours or
   * whose number is out of range, a scrollback/ that is not our directory, a pid
   * file or log that is a link. Leftover temp files (a crash mid-write) are removed
   * (a link is unlinked, never followed). Run by whoever holds the lock.
   */
  sweep(): void {
    const names = fs.readdirSync(this.dir);
    for (const name of names) {
      const want = wantOf(name);
      if (!want) continue;
      let st: fs.Stats;
      try {
        st = fs.lstatSync(path.join(this.dir, name));
      } catch {
        continue;
      }
      if (want === 'temp') {
        if (st.isFile() || st.isSymbolicLink()) fs.rmSync(path.join(this.dir, name), { force: true });
        else setAside(this.dir, name, `is ${st.isDirectory() ? 'a directory' : 'not a file'} named like a temp file`, this.warn);
        continue;
      }
      const fault = want === 'range' ? `carries a generation number past ${MAX_GENERATION}` : entryFault(st, want);
      if (fault) setAside(this.dir, name, fault, this.warn, /^(?:snap|journal)-/.test(name) ? 'it is not replayed; the other generations are' : 'a fresh one is made');
    }
    const sb = path.join(this.dir, 'scrollback');
    fs.mkdirSync(sb, { recursive: true, mode: 0o700 });
    for (const f of fs.readdirSync(sb)) {
      if (!TEMP.test(f)) continue;
      const st = fs.lstatSync(path.join(sb, f));
      if (st.isFile() || st.isSymbolicLink()) fs.rmSync(path.join(sb, f), { force: true });
      else setAside(this.dir, `scrollback/${f}`, 'is a directory named like a temp file', this.warn);
    }
  }

  /** Generation numbers with a file, newest first. */
  gens(): number[] {
    return fs
      .readdirSync(this.dir)
      .map((f) => genOf(f))
      .filter((g): g is number => g !== null)
      .sort((a, b) => b - a);
  }

  /** The highest generation number used by a snapshot or journal (so new ones never collide). */
  lastGen(): number {
    let last = 0;
    for (const f of fs.readdirSync(this.dir)) last = Math.max(last, genOf(f) ?? genOf(f, JOURNAL) ?? 0);
    return last;
  }

  /** Reads one generation; a bad file (damaged, not pane's, newer) is set aside with a warning and null returned. */
  read(gen: number): { header: Header; state: StateFile } | null {
    const name = snapName(gen);
    const file = path.join(this.dir, name);
    let text: string;
    try {
      text = readOwnFile(file, MAX_SNAPSHOT_BYTES).toString('utf8');
    } catch (e) {
      if (e instanceof StateFileError && /ENOENT/.test(e.reason)) return null;
      setAside(this.dir, name, e instanceof StateFileError ? e.reason : (e as Error).message, this.warn, 'using an older generation');
      return null;
    }
    try {
      const r = decodeSnapshot(text, file);
      if (r.header.gen !== gen) throw new Error(`${file} says it is generation ${String(r.header.gen)}, not ${gen}`);
      this.refs.set(gen, blockRefs(r.state));
      return r;
    } catch (e) {
      // A newer version is set aside too, not deleted: the newer pane that wrote it can still read it there.
      const msg = (e as Error).message.replace(`${file} `, '');
      setAside(this.dir, name, msg, this.warn, 'using an older generation');
      return null;
    }
  }

  /** The newest generation that reads back whole, or null when none does. */
  newestGood(): { header: Header; state: StateFile } | null {
    for (const g of this.gens()) {
      const r = this.read(g);
      if (r) return r;
    }
    return null;
  }

  /** Writes generation `gen` atomically; resolves with its size in bytes. */
  async write(gen: number, state: StateFile): Promise<number> {
    const text = await encodeSnapshotSliced(gen, state);
    await writeAtomic(path.join(this.dir, snapName(gen)), text, { fault: FAULT_BEFORE_RENAME });
    this.refs.set(gen, blockRefs(state));
    return Buffer.byteLength(text);
  }

  /** Headers of the kept generations, newest first (checked only by header, for listing). */
  list(): Generation[] {
    const out: Generation[] = [];
    for (const g of this.gens()) {
      const file = path.join(this.dir, snapName(g));
      try {
        const head = readOwnFile(file, 1024, { truncate: true });
        const h = JSON.parse(head.toString('utf8').split('\n')[0]!) as Header;
        out.push({ gen: g, savedAt: h.savedAt, sessions: h.sessions, panes: h.panes, bytes: fs.lstatSync(file).size + this.scrollbackBytes(g), file });
      } catch {
        // Unreadable header: read() sets it aside when someone asks for it.
      }
    }
    return out;
  }

  private scrollbackBytes(gen: number): number {
    let n = 0;
    const blocks = this.refs.get(gen);
    for (const f of this.scrollbackFiles()) if (blocks ? blocks.has(f) : f.startsWith(`g${gen}-`)) n += fs.lstatSync(path.join(this.dir, 'scrollback', f)).size;
    return n;
  }

  private scrollbackFiles(): string[] {
    try {
      return fs.readdirSync(path.join(this.dir, 'scrollback'));
    } catch {
      return [];
    }
  }

  /** Block files a kept generation names; one not seen yet (an earlier daemon's) is read once. */
  private async refsOf(gen: number): Promise<Set<string>> {
    let r = this.refs.get(gen);
    if (!r) {
      try {
        r = blockRefs(decodeSnapshot((await readOwnFileAsync(path.join(this.dir, snapName(gen)), MAX_SNAPSHOT_BYTES)).toString('utf8'), snapName(gen)).state);
      } catch {
        r = new Set(); // unreadable: read() sets it aside when someone asks for it, and it restores nothing
      }
      this.refs.set(gen, r);
    }
    return r;
  }

  /**
   * Drops generations past KEEP_GENERATIONS, with their journals and scrollback files,
   * and history blocks no kept generation names (removals on the thread pool).
   * `alsoKeep`: history files the live journal names (flushed since the last snapshot).
   */
  async prune(alsoKeep: ReadonlySet<string> = new Set()): Promise<void> {
    const keep = this.gens().slice(0, KEEP_GENERATIONS);
    const oldest = keep[keep.length - 1];
    if (oldest === undefined) return;
    const named = new Set<string>(alsoKeep);
    for (const g of keep) for (const f of await this.refsOf(g)) named.add(f);
    for (const g of this.refs.keys()) if (g < oldest) this.refs.delete(g);
    const doomed: string[] = [];
    for (const f of fs.readdirSync(this.dir)) {
      const g = genOf(f) ?? genOf(f, JOURNAL);
      if (g !== null && g < oldest) doomed.push(path.join(this.dir, f));
    }
    // Thousands of history files (40 blocks a full pane): listed on the thread pool, not the main loop.
    const files = await fs.promises.readdir(path.join(this.dir, 'scrollback')).catch(() => [] as string[]);
    for (const f of files) {
      // g<GEN>-: a generation's newest rows; l<GEN>-: a flush's, between snapshots (named in journal GEN).
      const m = /^[gl](\d+)-/.exec(f);
      if (named.has(f)) continue;
      if ((m && Number(m[1]) < oldest) || BLOCK_FILE.test(f)) doomed.push(path.join(this.dir, 'scrollback', f));
    }
    await Promise.all(doomed.map((f) => fs.promises.rm(f, { force: true })));
  }
}
