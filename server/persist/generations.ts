// The snapshot generations on disk: snap-NNNNNN.json files (a checksummed header
// line, then the state as JSON), kept KEEP_GENERATIONS deep; a file that fails its
// checksum or schema is set aside (renamed *.corrupt) with a warning, never trusted.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { migrateState, type Generation, type StateFile } from '../../kits/protocol/snapshot';
import { FAULT_BEFORE_RENAME, writeAtomic } from './atomicFile';

/** Generations kept: enough to go back past a bad hour, few enough to stay small on disk. */
export const KEEP_GENERATIONS = 8;
const SNAP = /^snap-(\d{6,})\.json$/;

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
  const body = JSON.stringify(state);
  const header: Header = { pane: 'state', gen, savedAt: state.savedAt, sha256: sha256(body), bytes: Buffer.byteLength(body), sessions: state.sessions.length, panes: state.panes.length };
  return `${JSON.stringify(header)}\n${body}`;
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
    fs.mkdirSync(path.join(dir, 'scrollback'), { recursive: true, mode: 0o700 });
    // Whoever holds the lock owns the dir: temp files are what a crash mid-write left.
    for (const d of [dir, path.join(dir, 'scrollback')]) for (const f of fs.readdirSync(d)) if (/^\..*\.tmp$/.test(f)) fs.rmSync(path.join(d, f), { force: true });
  }

  /** Generation numbers with a file, newest first. */
  gens(): number[] {
    return fs
      .readdirSync(this.dir)
      .map((f) => SNAP.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => b - a);
  }

  /** The highest generation number used by a snapshot or journal (so new ones never collide). */
  lastGen(): number {
    let last = 0;
    for (const f of fs.readdirSync(this.dir)) {
      const m = /^(?:snap|journal)-(\d{6,})\./.exec(f);
      if (m) last = Math.max(last, Number(m[1]));
    }
    return last;
  }

  /** Reads one generation; a bad file is set aside (renamed) with a warning and null returned. */
  read(gen: number): { header: Header; state: StateFile } | null {
    const file = path.join(this.dir, snapName(gen));
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      this.warn(`cannot read ${file}: ${(e as Error).message}`);
      return null;
    }
    try {
      const r = decodeSnapshot(text, file);
      this.refs.set(gen, blockRefs(r.state));
      return r;
    } catch (e) {
      const msg = (e as Error).message;
      // A newer version is not damage: leave it for the newer pane that wrote it.
      if (/newer than this pane/.test(msg)) throw e;
      const aside = `${file}.corrupt-${Date.now()}`;
      fs.renameSync(file, aside);
      this.warn(`${msg}; set aside as ${path.basename(aside)}, using an older generation`);
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
    const text = encodeSnapshot(gen, state);
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
        const fd = fs.openSync(file, 'r');
        const buf = Buffer.alloc(1024);
        const n = fs.readSync(fd, buf, 0, buf.length, 0);
        fs.closeSync(fd);
        const h = JSON.parse(buf.subarray(0, n).toString('utf8').split('\n')[0]!) as Header;
        out.push({ gen: g, savedAt: h.savedAt, sessions: h.sessions, panes: h.panes, bytes: fs.statSync(file).size + this.scrollbackBytes(g), file });
      } catch {
        // Unreadable header: read() sets it aside when someone asks for it.
      }
    }
    return out;
  }

  private scrollbackBytes(gen: number): number {
    let n = 0;
    const blocks = this.refs.get(gen);
    for (const f of this.scrollbackFiles()) if (blocks ? blocks.has(f) : f.startsWith(`g${gen}-`)) n += fs.statSync(path.join(this.dir, 'scrollback', f)).size;
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
        r = blockRefs(decodeSnapshot(await fs.promises.readFile(path.join(this.dir, snapName(gen)), 'utf8'), snapName(gen)).state);
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
   */
  async prune(): Promise<void> {
    const keep = this.gens().slice(0, KEEP_GENERATIONS);
    const oldest = keep[keep.length - 1];
    if (oldest === undefined) return;
    const named = new Set<string>();
    for (const g of keep) for (const f of await this.refsOf(g)) named.add(f);
    for (const g of this.refs.keys()) if (g < oldest) this.refs.delete(g);
    const doomed: string[] = [];
    for (const f of fs.readdirSync(this.dir)) {
      const m = /^(?:snap|journal)-(\d{6,})\.json/.exec(f);
      if (m && Number(m[1]) < oldest) doomed.push(path.join(this.dir, f));
    }
    // Thousands of history files (40 blocks a full pane): listed on the thread pool, not the main loop.
    const files = await fs.promises.readdir(path.join(this.dir, 'scrollback')).catch(() => [] as string[]);
    for (const f of files) {
      const m = /^g(\d+)-/.exec(f);
      if (named.has(f)) continue;
      if ((m && Number(m[1]) < oldest) || BLOCK_FILE.test(f)) doomed.push(path.join(this.dir, 'scrollback', f));
    }
    await Promise.all(doomed.map((f) => fs.promises.rm(f, { force: true })));
  }
}
