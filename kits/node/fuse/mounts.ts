// Mount bookkeeping: whether FUSE can work here, which mount process serves a
// directory (a pid file under the runtime dir), and cleaning up a stale mount
// left by a killed process. Never reads a live mount of this process.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { runtimeDir } from '../paths';

/** The parts of fuse-native this client uses (it ships no types). */
export interface FuseInstance {
  mount(cb: (err: Error | null) => void): void;
  unmount(cb: (err: Error | null) => void): void;
}
export type FuseClass = new (mnt: string, ops: object, opts: object) => FuseInstance;

/** fuse-native, or why it cannot be used here, in words a user can act on. */
export function loadFuse(): FuseClass | string {
  if (process.platform !== 'linux') {
    return `FUSE mounts are supported on Linux only here (this is ${process.platform}); pane cat, ls, write and tail reach the same files`;
  }
  if (!fs.existsSync('/dev/fuse')) return 'FUSE is not available: /dev/fuse is missing (load the fuse module, or run with --device /dev/fuse in a container)';
  try {
    // Loaded at run time and kept out of the bundle: it is a native addon and an optional dependency.
    return createRequire(import.meta.url)('fuse-native') as FuseClass;
  } catch (e) {
    const why = (e as Error).message.split('\n')[0];
    return `FUSE is not available: fuse-native did not load (${why}); install libfuse2 (apt-get install fuse3 libfuse2) and run npm install`;
  }
}

export function pidFile(dir: string): string {
  const d = path.join(runtimeDir(), 'mounts');
  fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  const h = crypto.createHash('sha1').update(path.resolve(dir)).digest('hex').slice(0, 16);
  return path.join(d, `${h}.pid`);
}

export function writePid(dir: string): void {
  fs.writeFileSync(pidFile(dir), `${process.pid} ${path.resolve(dir)}\n`);
}

/** The pid of the live mount process serving `dir`, if any. */
export function mountPid(dir: string): number | null {
  let text: string;
  try {
    text = fs.readFileSync(pidFile(dir), 'utf8');
  } catch {
    return null;
  }
  const pid = Number(text.split(' ')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

export function removePid(dir: string, pid = process.pid): void {
  try {
    if (Number(fs.readFileSync(pidFile(dir), 'utf8').split(' ')[0]) === pid) fs.rmSync(pidFile(dir));
  } catch {
    // already gone
  }
}

/** Whether the kernel lists `dir` as a FUSE mount point (from /proc/self/mounts: no syscall on the mount itself). */
export function isFuseMount(dir: string): boolean {
  const want = path.resolve(dir);
  let text = '';
  try {
    text = fs.readFileSync('/proc/self/mounts', 'utf8');
  } catch {
    return false;
  }
  return text.split('\n').some((l) => {
    const [, mnt, type] = l.split(' ');
    return mnt !== undefined && unescapeMount(mnt) === want && (type ?? '').startsWith('fuse');
  });
}

function unescapeMount(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

/** Detaches a FUSE mount (lazily when busy): fusermount, then fusermount3, then umount -l. */
export function detach(dir: string): string | null {
  const tries: [string, string[]][] = [
    ['fusermount', ['-u', dir]],
    ['fusermount', ['-uz', dir]],
    ['fusermount3', ['-uz', dir]],
    ['umount', ['-l', dir]],
  ];
  let last = '';
  for (const [cmd, args] of tries) {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    if (r.status === 0 || !isFuseMount(dir)) return null;
    last = `${cmd}: ${(r.stderr || r.error?.message || '').trim()}`;
  }
  return last || `could not unmount ${dir}`;
}

/**
 * Before mounting: a mount whose process is alive is an error; one whose process
 * died (kill -9 leaves "Transport endpoint is not connected") is cleaned up.
 */
export function clearStale(dir: string): string | null {
  if (!isFuseMount(dir)) return null;
  const pid = mountPid(dir);
  if (pid !== null && pid !== process.pid) return `${dir} is already mounted by pane mount (pid ${pid}); run pane umount ${dir} first`;
  const err = detach(dir);
  return err === null ? null : `${dir} holds a stale mount that could not be removed: ${err}`;
}
