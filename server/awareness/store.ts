// Awareness state on disk: JSON files written atomically (temp + fsync + rename)
// under a lock file, so external tools read whole files and may write them too;
// a corrupt file is moved aside with a warning and the last good copy is used.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeAtomic, writeAtomicSync } from '../../kits/node/atomicFile';
import { pidAlive } from '../../kits/node/procTable';
import type { z } from 'zod';

/** The seed's lock policy: a few tries, 100 ms apart; a writer holds the lock for one small write. */
const LOCK_TRIES = 3;
const LOCK_RETRY_MS = 100;
/** A lock older than this is left over from a crash: writes take milliseconds. */
const LOCK_STALE_MS = 10_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** One attempt at `<file>.lock` (created exclusively, holding our pid); a stale lock is broken and retried. */
function tryLock(lock: string): boolean {
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (!breakIfStale(lock)) return false;
    }
  }
}

const heldBy = (lock: string) => new Error(`${lock} is held by another process (tried ${LOCK_TRIES} times)`);

/**
 * Runs `fn` holding `<file>.lock`. A lock whose owner is dead or that is older
 * than LOCK_STALE_MS is broken.
 */
export function withLock<T>(file: string, fn: () => T): T {
  const lock = `${file}.lock`;
  for (let i = 0; !tryLock(lock); i++) {
    if (i + 1 >= LOCK_TRIES) throw heldBy(lock);
    sleepSync(LOCK_RETRY_MS);
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/** withLock for the server's own writes: waits without blocking the event loop, and writes in the thread pool. */
export async function withLockAsync<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  for (let i = 0; !tryLock(lock); i++) {
    if (i + 1 >= LOCK_TRIES) throw heldBy(lock);
    await new Promise((r) => setTimeout(r, LOCK_RETRY_MS));
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

function digestOf(text: string): string {
  return crypto.createHash('sha256').update(text).digest('base64');
}

/** A file's stat, or undefined when there is none (or it cannot be read: then it is written). */
function statOfSync(f: string): fs.Stats | undefined {
  try {
    return fs.statSync(f);
  } catch {
    return undefined;
  }
}

/** statOfSync in the thread pool. */
async function statOf(f: string): Promise<fs.Stats | undefined> {
  try {
    return await fs.promises.stat(f);
  } catch {
    return undefined;
  }
}

function breakIfStale(lock: string): boolean {
  try {
    const pid = Number(fs.readFileSync(lock, 'utf8'));
    const age = Date.now() - fs.statSync(lock).mtimeMs;
    if ((Number.isInteger(pid) && pid > 0 && !pidAlive(pid)) || age > LOCK_STALE_MS) {
      fs.rmSync(lock, { force: true });
      return true;
    }
  } catch {
    // Gone between our try and our look: try again.
    return true;
  }
  return false;
}

/** Writes so a reader sees the old file or the new one, never half of either. */
/**
 * The last-good copy (`.bak`) is refreshed at most this often: it guards against
 * a file spoiled by someone else, so a copy a few seconds old serves, and it halves
 * the writes of a busy server.
 */
const BAK_EVERY_MS = 30_000;

/** A file as this store last wrote it: its text's digest (not the text: a registry can run to megabytes), and the inode, size and mtime it had after the write. */
interface Wrote {
  digest: string;
  ino: number;
  size: number;
  mtimeMs: number;
}

export class JsonStore {
  private bakAt = new Map<string, number>();
  /**
   * What each file was last written with here. A save of the same text to a file
   * nobody has touched since is skipped: a daemon joined to a host passes over its
   * agents every 2 s (server/hosts/remoteAwareness.ts), and rewrote and fsynced
   * these files each time though nothing in them had changed. A file another
   * program replaced or edited (its inode, size or mtime moved) is written again;
   * only an edit in place to the same size within the file system's clock tick of
   * this store's write (a few ms) would go unseen, until the data next changes.
   */
  private wrote = new Map<string, Wrote>();

  constructor(
    readonly dir: string,
    private readonly warn: (message: string) => void,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  file(name: string): string {
    return path.join(this.dir, name);
  }

  private bakDue(f: string): boolean {
    const now = Date.now();
    if (now - (this.bakAt.get(f) ?? 0) < BAK_EVERY_MS) return false;
    this.bakAt.set(f, now);
    return true;
  }

  /** The file still holds the text of `digest` as this store wrote it (see `wrote`). */
  private unchanged(f: string, digest: string, st: fs.Stats | undefined): boolean {
    const w = this.wrote.get(f);
    return w !== undefined && st !== undefined && st.ino === w.ino && st.size === w.size && st.mtimeMs === w.mtimeMs && w.digest === digest;
  }

  private remember(f: string, digest: string, st: fs.Stats | undefined): void {
    if (st === undefined) this.wrote.delete(f);
    else this.wrote.set(f, { digest, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs });
  }

  /** Writes the file (and, when due, its last-good copy `.bak`) under the lock, unless it holds this already; blocks, so for stop and tests. */
  save(name: string, data: unknown): void {
    const f = this.file(name);
    const text = `${JSON.stringify(data, null, 1)}\n`;
    const digest = digestOf(text);
    if (this.unchanged(f, digest, statOfSync(f))) return;
    withLock(f, () => {
      writeAtomicSync(f, text);
      if (this.bakDue(f)) writeAtomicSync(`${f}.bak`, text);
      this.remember(f, digest, statOfSync(f)); // under the lock: as this write left it
    });
  }

  /** save() off the event loop: the server keeps answering while the disk syncs. */
  async saveAsync(name: string, data: unknown): Promise<void> {
    const f = this.file(name);
    const text = `${JSON.stringify(data, null, 1)}\n`;
    const digest = digestOf(text);
    if (this.unchanged(f, digest, await statOf(f))) return;
    await withLockAsync(f, async () => {
      await writeAtomic(f, text);
      if (this.bakDue(f)) await writeAtomic(`${f}.bak`, text);
      this.remember(f, digest, await statOf(f)); // under the lock: as this write left it
    });
  }

  /**
   * Reads and validates a file. A file that does not parse or fit the schema is
   * renamed `<name>.corrupt-<time>` and the `.bak` copy is used; only when both are
   * unusable does it start from `fallback`, and it says so.
   */
  load<S extends z.ZodType>(name: string, schema: S, fallback: () => z.output<S>): z.output<S> {
    const f = this.file(name);
    return withLock(f, () => {
      const main = this.read(f, schema);
      if (main.ok) return main.value;
      const bak = this.read(`${f}.bak`, schema);
      if (main.missing && !bak.ok && bak.missing) return fallback();
      if (!main.missing) this.warn(`awareness: ${f} is unreadable (${main.why}); moved it to ${this.moveAside(f)}`);
      if (bak.ok) {
        this.warn(`awareness: using the last good copy ${f}.bak`);
        writeAtomicSync(f, fs.readFileSync(`${f}.bak`, 'utf8'));
        return bak.value;
      }
      if (!bak.missing) this.warn(`awareness: ${f}.bak is unreadable too (${bak.why}); moved it to ${this.moveAside(`${f}.bak`)}`);
      this.warn(`awareness: starting ${name} empty; the unreadable copies are kept beside it`);
      return fallback();
    });
  }

  private read<S extends z.ZodType>(f: string, schema: S): { ok: true; value: z.output<S> } | { ok: false; missing: boolean; why: string } {
    let text: string;
    try {
      text = fs.readFileSync(f, 'utf8');
    } catch (e) {
      const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
      return { ok: false, missing, why: (e as Error).message };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      return { ok: false, missing: false, why: `not JSON: ${(e as Error).message}` };
    }
    const r = schema.safeParse(json);
    if (!r.success) {
      const i = r.error.issues[0];
      return { ok: false, missing: false, why: `${i?.path.map(String).join('.') || '(top)'}: ${i?.message ?? 'invalid'}` };
    }
    return { ok: true, value: r.data };
  }

  private moveAside(f: string): string {
    const to = `${f}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(f, to);
    return to;
  }
}
