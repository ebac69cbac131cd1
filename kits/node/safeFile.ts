// Opens files below a trusted root the way a privileged daemon must open what
// others control (an agent's home, project or worktree): no link is followed in
// any component below the root, only regular files are read, no open can block
// (a FIFO or device is refused, never waited on), sizes are bounded, and writes
// land whole through a temp file made O_CREAT|O_EXCL|O_NOFOLLOW beside the target.
// On Linux every step goes through the directory already opened (/proc/self/fd/N/NAME,
// which is openat(2) for Node), so nothing can be swapped for a link between steps.
import fs from 'node:fs';
import path from 'node:path';

const C = fs.constants;
/** O_NOFOLLOW/O_DIRECTORY/O_NONBLOCK exist on Linux and macOS; elsewhere they are 0 and the lstat checks carry the rule. */
const DIR_FLAGS = C.O_RDONLY | (C.O_DIRECTORY ?? 0) | (C.O_NOFOLLOW ?? 0);
/** O_NOCTTY: a terminal device opened by a daemon without one would become its controlling terminal. */
export const READ_FLAGS = C.O_RDONLY | (C.O_NOFOLLOW ?? 0) | (C.O_NONBLOCK ?? 0) | (C.O_NOCTTY ?? 0);
const CREATE_FLAGS = C.O_WRONLY | C.O_CREAT | C.O_EXCL | (C.O_NOFOLLOW ?? 0) | (C.O_NONBLOCK ?? 0);
const APPEND_FLAGS = C.O_WRONLY | C.O_APPEND | C.O_CREAT | (C.O_NOFOLLOW ?? 0) | (C.O_NONBLOCK ?? 0) | (C.O_NOCTTY ?? 0);

/**
 * Bytes read from one file below a root unless the caller names another bound:
 * the files pane reads there (.plan, .project, .access, a project's settings) are
 * a few KiB, and 1 MiB keeps one planted giant from costing the server more than a
 * millisecond of reading or a megabyte of memory.
 */
export const MAX_SAFE_FILE_BYTES = 1 << 20;

/** Linux: a directory fd's path, through which lookups start at that very directory (openat without a binding). */
const FD_DIR = fs.existsSync('/proc/self/fd') ? '/proc/self/fd' : null;

export type RefusalRule = 'link' | 'type' | 'size' | 'name' | 'changed';

/** What the person can do about each refusal. */
const FIXES: Record<RefusalRule, string> = {
  link: 'remove it, or put a regular file there',
  type: 'remove it, or put a regular file there',
  size: 'make it smaller, or remove it',
  name: 'name a path below the root',
  changed: 'try again; if it keeps changing, something is swapping it',
};

/** A refusal to open a path below a root: names the file, the rule and the fix. */
export class PathRefused extends Error {
  constructor(
    readonly file: string,
    readonly rule: RefusalRule,
    readonly why: string,
    where: string,
  ) {
    super(`refused ${file}: ${why}; pane does not follow links or open anything but regular files of a bounded size in ${where} (${FIXES[rule]})`);
    this.name = 'PathRefused';
  }
}

export interface Below {
  /** Words for the refusal: "an agent's home", "a project". */
  where?: string;
  /** Largest file accepted, in bytes (default MAX_SAFE_FILE_BYTES). */
  maxBytes?: number;
}

/** What a directory entry is, in words for a refusal or a warning ("it is a FIFO"). */
export function fileKind(st: fs.Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isDirectory()) return 'a directory';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isFile()) return 'a regular file';
  return 'something else';
}

function parts(rel: string, shown: string, where: string): string[] {
  const out = rel.split('/').filter((p) => p !== '' && p !== '.');
  if (out.length === 0 || out.includes('..') || path.isAbsolute(rel)) throw new PathRefused(shown, 'name', `"${rel}" is not a path below its root`, where);
  return out;
}

/** An open directory below the root: `at(name)` is a path that resolves `name` inside it and nowhere else. */
class Dir {
  constructor(
    readonly fd: number,
    readonly real: string,
  ) {}
  at(name: string): string {
    return FD_DIR ? `${FD_DIR}/${this.fd}/${name}` : path.join(this.real, name);
  }
  close(): void {
    fs.closeSync(this.fd);
  }
}

/**
 * Opens root, then each directory of `dirs` below it without following a link
 * (`mkdir`: makes the missing ones, mode 0700). Throws PathRefused for a link or a
 * non-directory; ENOENT as it comes when a directory is missing and not made.
 */
function openDirs(root: string, dirs: string[], where: string, mkdir: boolean): Dir {
  if (onPaneMount(root)) throw new PathRefused(root, 'type', "it is on pane's own /pane mount, which the server cannot open without waiting on itself", where);
  let d = new Dir(fs.openSync(root, C.O_RDONLY | (C.O_DIRECTORY ?? 0)), root);
  for (const name of dirs) {
    const shown = path.join(d.real, name);
    try {
      if (mkdir) {
        try {
          fs.mkdirSync(d.at(name), { mode: 0o700 });
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        }
      }
      // Without openat (not Linux) the name is checked first and the open compared with it.
      const st = FD_DIR ? null : fs.lstatSync(d.at(name));
      if (st && !st.isDirectory()) throw new PathRefused(shown, st.isSymbolicLink() ? 'link' : 'type', `it is ${fileKind(st)}, not a directory`, where);
      let fd: number;
      try {
        fd = fs.openSync(d.at(name), DIR_FLAGS);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ELOOP' && code !== 'ENOTDIR') throw e;
        // O_NOFOLLOW|O_DIRECTORY said no: say what is there instead.
        const now = fs.lstatSync(d.at(name), { throwIfNoEntry: false });
        if (!now || now.isDirectory()) throw new PathRefused(shown, 'changed', 'it was replaced while pane opened it', where);
        throw new PathRefused(shown, now.isSymbolicLink() ? 'link' : 'type', `it is ${fileKind(now)}, not a directory`, where);
      }
      if (st) {
        const now = fs.fstatSync(fd);
        if (now.dev !== st.dev || now.ino !== st.ino) {
          fs.closeSync(fd);
          throw new PathRefused(shown, 'changed', 'it was replaced while pane opened it', where);
        }
      }
      d.close();
      d = new Dir(fd, shown);
    } catch (e) {
      d.close();
      throw e;
    }
  }
  return d;
}

/** The directory holding the last of `ps` below root (walked without links); null where one on the way does not exist. */
function openParent(root: string, ps: string[], where: string): Dir | null {
  try {
    return openDirs(root, ps.slice(0, -1), where, false);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** The lstat of `rel` below root (directories walked without links); null when it does not exist. */
export function lstatBelow(root: string, rel: string, o: Below = {}): fs.Stats | null {
  const where = o.where ?? root;
  const ps = parts(rel, path.join(root, rel), where);
  const d = openParent(root, ps, where);
  if (d === null) return null;
  try {
    return fs.lstatSync(d.at(ps.at(-1)!));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  } finally {
    d.close();
  }
}

/** True when `rel` below root is a regular file (reached without links). Never throws for a refusal: false. */
export function isFileBelow(root: string, rel: string): boolean {
  try {
    return lstatBelow(root, rel)?.isFile() ?? false;
  } catch {
    return false;
  }
}

/** Opens the regular file `name` in `d` for reading, checked before and after the open. */
function openFile(d: Dir, name: string, where: string, max: number): { fd: number; st: fs.Stats } {
  const shown = path.join(d.real, name);
  const st = fs.lstatSync(d.at(name));
  if (!st.isFile()) throw new PathRefused(shown, st.isSymbolicLink() ? 'link' : 'type', `it is ${fileKind(st)}`, where);
  if (st.size > max) throw new PathRefused(shown, 'size', `it is ${st.size} bytes, over the ${max} pane reads there`, where);
  let fd: number;
  try {
    fd = fs.openSync(d.at(name), READ_FLAGS);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw new PathRefused(shown, 'link', 'it is a symbolic link', where);
    throw e;
  }
  const now = fs.fstatSync(fd);
  if (!now.isFile() || now.dev !== st.dev || now.ino !== st.ino) {
    fs.closeSync(fd);
    throw new PathRefused(shown, 'changed', 'it was replaced while pane opened it', where);
  }
  return { fd, st: now };
}

/**
 * Reads `rel` below root as UTF-8: null when it (or a directory on the way) does
 * not exist; PathRefused for a link, a FIFO or other non-regular file, or a file
 * over the bound. Synchronous but never blocking: a regular file of at most
 * maxBytes on the local disk is the only thing ever read.
 */
export function readBelow(root: string, rel: string, o: Below = {}): string | null {
  const buf = readBytesBelow(root, rel, o);
  return buf === null ? null : buf.toString('utf8');
}

/** readBelow, as bytes; `head` reads only the first that many bytes (for a header). */
export function readBytesBelow(root: string, rel: string, o: Below & { head?: number } = {}): Buffer | null {
  const where = o.where ?? root;
  const max = o.maxBytes ?? MAX_SAFE_FILE_BYTES;
  const ps = parts(rel, path.join(root, rel), where);
  const d = openParent(root, ps, where);
  if (d === null) return null;
  let f: { fd: number; st: fs.Stats };
  try {
    f = openFile(d, ps.at(-1)!, where, o.head !== undefined ? Number.MAX_SAFE_INTEGER : max);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  } finally {
    d.close();
  }
  try {
    // One byte past the bound tells a file that grew after the check.
    const want = o.head !== undefined ? Math.min(o.head, max) : max + 1;
    const buf = Buffer.alloc(Math.min(want, f.st.size + 1));
    let n = 0;
    for (let r = -1; r !== 0 && n < buf.length; n += r) r = fs.readSync(f.fd, buf, n, buf.length - n, n);
    if (o.head === undefined && n > max) throw new PathRefused(path.join(root, rel), 'size', `it grew past the ${max} bytes pane reads there`, where);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(f.fd);
  }
}

let seq = 0;

export interface WriteBelow extends Below {
  mode?: number;
  /** Make missing directories on the way (0700). */
  mkdir?: boolean;
  /** fsync the file and its directory (for files that must survive a power cut). */
  durable?: boolean;
}

/**
 * Replaces `rel` below root with `data`: a temp file created O_CREAT|O_EXCL|O_NOFOLLOW
 * in the target's directory (reached without links), written, then renamed over the
 * target. A link at the target is replaced, never written through; a link, FIFO or
 * existing file at the temp name makes the create fail, never a write elsewhere.
 */
export function writeBelow(root: string, rel: string, data: string | Uint8Array, o: WriteBelow = {}): void {
  const where = o.where ?? root;
  const ps = parts(rel, path.join(root, rel), where);
  const d = openDirs(root, ps.slice(0, -1), where, o.mkdir ?? false);
  try {
    const name = ps.at(-1)!;
    const tmp = `.${name}.${process.pid}.${++seq}.pane-tmp`;
    let fd: number;
    try {
      fd = fs.openSync(d.at(tmp), CREATE_FLAGS, o.mode ?? 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' || (e as NodeJS.ErrnoException).code === 'ELOOP') throw new PathRefused(path.join(d.real, tmp), 'link', 'something is already at the temp file pane writes', where);
      throw e;
    }
    try {
      fs.writeFileSync(fd, data);
      if (o.durable) fs.fsyncSync(fd);
    } catch (e) {
      fs.closeSync(fd);
      fs.rmSync(d.at(tmp), { force: true });
      throw e;
    }
    fs.closeSync(fd);
    const st = fs.lstatSync(d.at(name), { throwIfNoEntry: false });
    if (st?.isDirectory()) {
      fs.rmSync(d.at(tmp), { force: true });
      throw new PathRefused(path.join(d.real, name), 'type', 'it is a directory', where);
    }
    fs.renameSync(d.at(tmp), d.at(name));
    if (o.durable) fs.fsyncSync(d.fd);
  } finally {
    d.close();
  }
}

/** Writes `data` only when `rel` does not exist yet (O_EXCL): a kept file, link or FIFO stays as it is. */
export function createBelow(root: string, rel: string, data: string | Uint8Array, o: WriteBelow = {}): boolean {
  const where = o.where ?? root;
  const ps = parts(rel, path.join(root, rel), where);
  const d = openDirs(root, ps.slice(0, -1), where, o.mkdir ?? false);
  try {
    let fd: number;
    try {
      fd = fs.openSync(d.at(ps.at(-1)!), CREATE_FLAGS, o.mode ?? 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' || (e as NodeJS.ErrnoException).code === 'ELOOP') return false;
      throw e;
    }
    try {
      fs.writeFileSync(fd, data);
    } finally {
      fs.closeSync(fd);
    }
    return true;
  } finally {
    d.close();
  }
}

/** Appends to the regular file `rel` below root (made 0600 when missing); a link, FIFO or oversize file is refused. */
export function appendBelow(root: string, rel: string, data: string, o: WriteBelow = {}): void {
  const where = o.where ?? root;
  const max = o.maxBytes ?? Number.MAX_SAFE_INTEGER;
  const ps = parts(rel, path.join(root, rel), where);
  const d = openDirs(root, ps.slice(0, -1), where, o.mkdir ?? false);
  const shown = path.join(d.real, ps.at(-1)!);
  let fd: number;
  try {
    fd = fs.openSync(d.at(ps.at(-1)!), APPEND_FLAGS, o.mode ?? 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new PathRefused(shown, 'link', 'it is a symbolic link', where);
    if (code === 'ENXIO') throw new PathRefused(shown, 'type', 'it is a FIFO', where);
    throw e;
  } finally {
    d.close();
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new PathRefused(shown, 'type', `it is ${fileKind(st)}`, where);
    // A second name (a hard link made to a file of the person's) would take the lines there: only a file of one name is appended to.
    if (st.nlink > 1) throw new PathRefused(shown, 'link', `it is a hard link (${st.nlink} names)`, where);
    if (st.size > max) throw new PathRefused(shown, 'size', `it is ${st.size} bytes, over the ${max} pane appends to`, where);
    fs.writeSync(fd, data);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes the directories of `rel` below root (0700), refusing a link or non-directory on the way. */
export function mkdirBelow(root: string, rel: string, o: Below = {}): void {
  const where = o.where ?? root;
  openDirs(root, parts(rel, path.join(root, rel), where), where, true).close();
}

/** Names in the directory `rel` below root (reached without links); [] when it does not exist. */
export function listBelow(root: string, rel: string, o: Below = {}): string[] {
  const where = o.where ?? root;
  let d: Dir;
  try {
    d = openDirs(root, parts(rel, path.join(root, rel), where), where, false);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  try {
    return fs.readdirSync(d.at('.'));
  } finally {
    d.close();
  }
}

/**
 * Renames `from` to `to`, both below root, each directory reached without links.
 * rename(2) moves the entry itself: a link is moved, never followed.
 */
export function renameBelow(root: string, from: string, to: string, o: Below = {}): void {
  const where = o.where ?? root;
  const a = parts(from, path.join(root, from), where);
  const b = parts(to, path.join(root, to), where);
  const da = openDirs(root, a.slice(0, -1), where, false);
  try {
    const db = openDirs(root, b.slice(0, -1), where, false);
    try {
      fs.renameSync(da.at(a.at(-1)!), db.at(b.at(-1)!));
    } finally {
      db.close();
    }
  } finally {
    da.close();
  }
}

/**
 * Removes the file `rel` below root, each directory reached without links; unlink(2)
 * removes the entry itself (a link is removed, never followed). Missing: nothing to do.
 */
export function unlinkBelow(root: string, rel: string, o: Below = {}): void {
  const where = o.where ?? root;
  const ps = parts(rel, path.join(root, rel), where);
  const d = openParent(root, ps, where);
  if (d === null) return;
  try {
    fs.rmSync(d.at(ps.at(-1)!), { force: true });
  } finally {
    d.close();
  }
}

// ---- pane's own FUSE mounts ---------------------------------------------------

/**
 * How long the list of pane's own mounts is trusted: a mount made meanwhile is
 * missed for at most this long. Reading /proc/self/mountinfo costs tens of µs.
 */
const MOUNTS_TTL_MS = 200;
/** Links followed while resolving one path, as the kernel's MAXSYMLINKS. */
const MAX_LINKS = 40;
let mountCache: { at: number; points: string[] } | null = null;

/** The mount points of pane's own /pane FUSE mounts (fsname and subtype `pane`) this process can see. */
export function paneMountPoints(): string[] {
  const now = Date.now();
  if (mountCache && now - mountCache.at < MOUNTS_TTL_MS) return mountCache.points;
  let text = '';
  try {
    text = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    // not Linux: macOS FUSE mounts are not listed here (see decision 030)
  }
  const points: string[] = [];
  for (const line of text.split('\n')) {
    const sep = line.indexOf(' - ');
    if (sep < 0) continue;
    const [fstype = '', source = ''] = line.slice(sep + 3).split(' ');
    if (fstype !== 'fuse.pane' && !(fstype.startsWith('fuse') && source === 'pane')) continue;
    const point = line.slice(0, sep).split(' ')[4];
    if (point) points.push(point.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8))));
  }
  mountCache = { at: now, points };
  return points;
}

/** True when the absolute path `abs` (links already resolved) is on a pane mount. */
function onMount(abs: string, points: string[]): boolean {
  return points.some((m) => abs === m || abs.startsWith(m === '/' ? '/' : `${m}/`));
}

/**
 * True when `p`, read as written, is on one of pane's own /pane mounts. The server
 * must never stat or open there itself: the mount's process answers each request
 * by asking this very server, which is waiting in the stat — a deadlock.
 */
export function onPaneMount(p: string): boolean {
  return onMount(path.resolve(p), paneMountPoints());
}

/**
 * Whether `p` is a directory, looked at without touching pane's own /pane mounts (where a
 * stat from the server's thread would wait on a mount process that waits on the server).
 * For paths programs or saved files name: an OSC 7 report, a snapshot's cwd.
 */
export function isDirOffMounts(p: string): boolean {
  const r = statOffMounts(p);
  return r !== null && r !== 'mount' && r.st.isDirectory();
}

/**
 * Resolves `p` as realpath(3) does and lstats what it names, without ever touching
 * pane's own mounts: links are read one component at a time below directory fds,
 * and every path is checked against the mount points before it is looked at.
 * 'mount' when the path (through a link or not) leads onto a pane mount; null when
 * it does not exist or loops.
 */
export function statOffMounts(p: string): { real: string; st: fs.Stats } | 'mount' | null {
  const points = paneMountPoints();
  if (points.length === 0 || !FD_DIR) {
    // Nothing can wait on this server: the plain calls are safe.
    try {
      return { real: fs.realpathSync(p), st: fs.statSync(p) };
    } catch {
      return null;
    }
  }
  let todo = path.resolve(p).split('/').filter((x) => x !== '' && x !== '.');
  const stack: { fd: number; real: string }[] = [];
  const open = (real: string, fd: number) => stack.push({ fd, real });
  const closeAll = () => {
    for (const d of stack.splice(0)) fs.closeSync(d.fd);
  };
  if (onMount('/', points)) return 'mount';
  open('/', fs.openSync('/', C.O_RDONLY | (C.O_DIRECTORY ?? 0)));
  let hops = 0;
  try {
    for (;;) {
      const top = stack.at(-1)!;
      const name = todo.shift();
      if (name === undefined) return { real: top.real, st: fs.fstatSync(top.fd) };
      if (name === '..') {
        if (stack.length > 1) fs.closeSync(stack.pop()!.fd);
        continue;
      }
      const cand = path.join(top.real, name);
      if (onMount(cand, points)) return 'mount';
      const at = `${FD_DIR}/${top.fd}/${name}`;
      const st = fs.lstatSync(at, { throwIfNoEntry: false });
      if (!st) return null;
      if (st.isSymbolicLink()) {
        if (++hops > MAX_LINKS) return null;
        const target = fs.readlinkSync(at);
        todo = [...target.split('/').filter((x) => x !== '' && x !== '.'), ...todo];
        if (target.startsWith('/')) {
          closeAll();
          open('/', fs.openSync('/', C.O_RDONLY | (C.O_DIRECTORY ?? 0)));
        }
        continue;
      }
      if (todo.length === 0) return { real: cand, st };
      if (!st.isDirectory()) return null;
      try {
        open(cand, fs.openSync(at, DIR_FLAGS));
      } catch (e) {
        // Swapped for a link since the lstat: look at it again (bounded like links).
        if ((e as NodeJS.ErrnoException).code !== 'ELOOP' || ++hops > MAX_LINKS) throw e;
        todo.unshift(name);
      }
    }
  } catch {
    return null;
  } finally {
    closeAll();
  }
}
