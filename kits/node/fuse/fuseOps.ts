// FUSE operations in terms of the protocol: each kernel request becomes ns/stat,
// ns/list, ns/open, ns/read, ns/write or ns/close on one Connection. Everything is
// asynchronous — this process never touches its own mount — so a blocked read
// (an interceptor waiting on event) holds one FUSE thread, never the loop.
import type { Connection } from '../../client/connection';
import { errnoOf } from './errno';
import type { RefusalLog, RefusedOp } from './refusals';

type Cb<T = void> = (err: number, value?: T) => void;

export interface FuseStat {
  mode: number;
  uid: number;
  gid: number;
  size: number;
  nlink: number;
  mtime: Date;
  atime: Date;
  ctime: Date;
}

/** The subset of fuse-native's ops this client implements. */
export interface FuseOps {
  getattr(path: string, cb: Cb<FuseStat>): void;
  readdir(path: string, cb: Cb<string[]>): void;
  open(path: string, flags: number, cb: Cb<number>): void;
  release(path: string, fd: number, cb: Cb): void;
  read(path: string, fd: number, buf: Buffer, len: number, pos: number, cb: (n: number) => void): void;
  write(path: string, fd: number, buf: Buffer, len: number, pos: number, cb: (n: number) => void): void;
  truncate(path: string, size: number, cb: Cb): void;
  ftruncate(path: string, fd: number, size: number, cb: Cb): void;
  utimens(path: string, atime: number, mtime: number, cb: Cb): void;
  create(path: string, mode: number, cb: Cb<number>): void;
}

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const O_ACCMODE = 3;
const EACCES = 13;

interface Open {
  path: string;
  mode: 'r' | 'w' | 'rw';
  stream: boolean;
}

/** `log`: where each refusal's message goes (the errno alone cannot say which word or why). */
export function makeFuseOps(conn: Connection, who = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 }, log?: RefusalLog): FuseOps {
  const opens = new Map<number, Open>();
  // fuse-native wants (errno) or (0, value); failures are negative errno, their messages logged.
  const failed = (op: RefusedOp, path: string) => (cb: (n: number) => void, e: unknown) => {
    log?.refused(op, path, e);
    cb(-errnoOf(e));
  };

  return {
    getattr(path, cb) {
      conn.call('ns/stat', { path }).then(
        (s) => {
          const t = new Date(s.mtime);
          cb(0, {
            mode: (s.type === 'dir' ? S_IFDIR : S_IFREG) | s.mode,
            uid: who.uid,
            gid: who.gid,
            size: s.size,
            nlink: s.type === 'dir' ? 2 : 1,
            mtime: t,
            atime: t,
            ctime: t,
          });
        },
        (e) => failed('stat', path)(cb, e),
      );
    },
    readdir(path, cb) {
      conn.call('ns/list', { path }).then(
        (r) => cb(0, r.entries.map((e) => e.name)),
        (e) => failed('list', path)(cb, e),
      );
    },
    open(path, flags, cb) {
      const acc = flags & O_ACCMODE;
      const mode = acc === 1 ? 'w' : acc === 2 ? 'rw' : 'r';
      conn.call('ns/open', { path, mode }).then(
        (r) => {
          opens.set(r.fid, { path, mode, stream: r.stream });
          cb(0, r.fid);
        },
        (e) => failed(mode === 'r' ? 'open-read' : 'open', path)(cb, e),
      );
    },
    release(_path, fd, cb) {
      opens.delete(fd);
      conn.call('ns/close', { fid: fd }).then(
        () => cb(0),
        () => cb(0), // the handle is gone either way (e.g. the pane closed)
      );
    },
    read(path, fd, buf, len, pos, cb) {
      const o = opens.get(fd);
      // A stream opened read-write reads as acme's event file: from its own
      // queue, blocking for the next line. Opened read-only it is a growing
      // file by offset, so cat ends, grep -r finishes and tail -f follows.
      const blocking = o !== undefined && o.stream && o.mode === 'rw';
      const params = { path, fid: fd, offset: pos, count: len, wait: blocking };
      conn.call('ns/read', params).then(
        (r) => {
          const bytes = Buffer.from(r.data, r.encoding === 'base64' ? 'base64' : 'utf8');
          bytes.copy(buf, 0, 0, Math.min(len, bytes.byteLength));
          cb(Math.min(len, bytes.byteLength));
        },
        (e) => failed('read', path)(cb, e),
      );
    },
    write(path, fd, buf, len, _pos, cb) {
      // Copy now: the kernel's buffer is only ours until we answer.
      const data = Buffer.from(buf.subarray(0, len)).toString('base64');
      conn.call('ns/write', { path, fid: fd, data, encoding: 'base64' }).then(
        () => cb(len),
        (e) => failed('write', path)(cb, e),
      );
    },
    // `echo x > file` truncates first; namespace writes are messages, so there is nothing to cut.
    truncate: (_p, _s, cb) => cb(0),
    ftruncate: (_p, _fd, _s, cb) => cb(0),
    utimens: (_p, _a, _m, cb) => cb(0),
    // The tree has the files it has: creating one is refused (EACCES, as on a read-only directory).
    create: (_p, _m, cb) => cb(-EACCES),
  };
}
