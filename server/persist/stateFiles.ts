// Opening what lies in the state directory as a privileged daemon should: never
// through a link (lstat, then O_NOFOLLOW, then fstat of the same inode), never
// blocking (a FIFO or device is refused by type before it is opened, and opened
// O_NONBLOCK regardless), only a regular file of our own uid, within a size bound.
// Whatever fails is set aside into set-aside/ with a warning naming it and why.
import fs from 'node:fs';
import path from 'node:path';
// Every read opens as safeFile's do (READ_FLAGS): no link, no wait on a FIFO, no terminal taken.
import { fileKind, READ_FLAGS } from '../../kits/node/safeFile';

const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
/** Flags a file of ours is (re)written with in place: no link followed, no wait on a FIFO (ENXIO instead). */
export const WRITE_FLAGS = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK;

/** Where files that are not pane's, or not readable as pane's, are moved (never deleted: they may be evidence). */
export const SET_ASIDE = 'set-aside';
/**
 * Entries set-aside/ keeps; the oldest are removed past it. A damaged directory can
 * hold thousands of bad files; keeping every one on each start would grow without end.
 */
export const SET_ASIDE_KEEP = 256;

const myUid = (): number | null => (typeof process.getuid === 'function' ? process.getuid() : null);

/**
 * Why the entry `st` is not what pane keeps under that name (`want`: a regular file
 * or a directory, of our own uid), or null when it is.
 */
export function entryFault(st: fs.Stats, want: 'file' | 'dir'): string | null {
  const ok = want === 'file' ? st.isFile() : st.isDirectory();
  if (!ok) return `is ${fileKind(st)}, not ${want === 'file' ? 'a regular file' : 'a directory'}`;
  const me = myUid();
  if (me !== null && st.uid !== me) return `is owned by uid ${st.uid}, not you (${me}); another user's state is never replayed`;
  return null;
}

/** A refusal to read a state file: `reason` says why, for the warning that sets it aside. */
export class StateFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${path.basename(file)} ${reason}`);
  }
}

/**
 * Reads a regular file of ours, without following a link or blocking, up to `max`
 * bytes (`truncate`: the first `max` bytes of a longer file; else a longer file is refused).
 */
export function readOwnFile(file: string, max: number, o: { truncate?: boolean } = {}): Buffer {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (e) {
    throw new StateFileError(file, `cannot be read: ${(e as Error).message}`);
  }
  const fault = entryFault(st, 'file');
  if (fault) throw new StateFileError(file, fault);
  if (st.size > max && !o.truncate) throw new StateFileError(file, `is ${st.size} bytes, past the ${max} a pane state file may be`);
  let fd: number;
  try {
    fd = fs.openSync(file, READ_FLAGS);
  } catch (e) {
    throw new StateFileError(file, `cannot be opened: ${(e as Error).message}`);
  }
  try {
    const now = fs.fstatSync(fd);
    // Swapped between the lstat and the open: the inode opened is not the one checked.
    if (now.ino !== st.ino || now.dev !== st.dev || !now.isFile()) throw new StateFileError(file, 'changed while being opened');
    const want = Math.min(now.size, max);
    const buf = Buffer.alloc(want);
    let at = 0;
    while (at < want) {
      const n = fs.readSync(fd, buf, at, want - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === want ? buf : buf.subarray(0, at);
  } finally {
    fs.closeSync(fd);
  }
}

/** The same, on the thread pool: for history files, read while the daemon starts. */
export async function readOwnFileAsync(file: string, max: number): Promise<Buffer> {
  let st: fs.Stats;
  try {
    st = await fs.promises.lstat(file);
  } catch (e) {
    throw new StateFileError(file, `cannot be read: ${(e as Error).message}`);
  }
  const fault = entryFault(st, 'file');
  if (fault) throw new StateFileError(file, fault);
  if (st.size > max) throw new StateFileError(file, `is ${st.size} bytes, past the ${max} a pane state file may be`);
  const fh = await fs.promises.open(file, READ_FLAGS).catch((e: Error) => {
    throw new StateFileError(file, `cannot be opened: ${e.message}`);
  });
  try {
    const now = await fh.stat();
    if (now.ino !== st.ino || now.dev !== st.dev || !now.isFile()) throw new StateFileError(file, 'changed while being opened');
    const buf = Buffer.alloc(Math.min(now.size, max));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The set-aside folder, made (0700) when missing; anything else under that name is moved off first. */
function asideDir(dir: string): string {
  const aside = path.join(dir, SET_ASIDE);
  let st: fs.Stats | null = null;
  try {
    st = fs.lstatSync(aside);
  } catch {
    // none yet
  }
  if (st && entryFault(st, 'dir') !== null) fs.renameSync(aside, path.join(dir, `.${SET_ASIDE}-${Date.now()}-${process.pid}.old`));
  if (!st || entryFault(st, 'dir') !== null) fs.mkdirSync(aside, { mode: 0o700 });
  return aside;
}

let asideCounter = 0;

/**
 * Moves `dir/name` into set-aside/ (as NAME.TIME-N) and warns naming the file, why,
 * and where it went. Never throws: a file that cannot be moved is left, warned about,
 * and skipped by the caller all the same. Returns the new path, or null.
 */
export function setAside(dir: string, name: string, reason: string, warn: (m: string) => void, what = 'it is skipped'): string | null {
  const from = path.join(dir, name);
  try {
    const aside = asideDir(dir);
    const to = path.join(aside, `${name.replace(/\//g, '-')}.${Date.now()}-${++asideCounter}`);
    fs.renameSync(from, to);
    warn(`${from} ${reason}; set aside as ${path.relative(dir, to)}; ${what}`);
    try {
      pruneAside(aside);
    } catch {
      // an entry gone meanwhile: the next setAside prunes again
    }
    return to;
  } catch (e) {
    warn(`${from} ${reason}; it could not be set aside (${(e as Error).message}); ${what}`);
    return null;
  }
}

/** Keeps set-aside/ to its newest SET_ASIDE_KEEP entries. */
function pruneAside(aside: string): void {
  const names = fs.readdirSync(aside);
  if (names.length <= SET_ASIDE_KEEP) return;
  const byAge = names.map((n) => ({ n, t: fs.lstatSync(path.join(aside, n)).mtimeMs })).sort((a, b) => a.t - b.t);
  for (const { n } of byAge.slice(0, names.length - SET_ASIDE_KEEP)) fs.rmSync(path.join(aside, n), { recursive: true, force: true });
}

/** Writes a small file of ours in place, never through a link: whatever else stands there is set aside first. */
export function writeOwnFile(dir: string, name: string, data: string, warn: (m: string) => void): void {
  const file = path.join(dir, name);
  try {
    const fault = entryFault(fs.lstatSync(file), 'file');
    if (fault) setAside(dir, name, fault, warn, 'a fresh one is written');
  } catch {
    // none yet
  }
  const fd = fs.openSync(file, WRITE_FLAGS, 0o600);
  try {
    fs.writeSync(fd, data);
  } finally {
    fs.closeSync(fd);
  }
}
