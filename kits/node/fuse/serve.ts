// The mount process: a client of the pane server like any other, connected over
// its socket, serving the namespace to the kernel through FUSE until it is told
// to stop, the mount is taken away, or the server goes.
import fs from 'node:fs';
import { connectCli } from '../cli/connect';
import { makeFuseOps } from './fuseOps';
import { refusalLog } from './refusals';
import { clearStale, detach, isFuseMount, loadFuse, removePid, writePid, type FuseInstance } from './mounts';

/** How often the process checks that its mount is still there (pane umount or fusermount -u took it). */
const WATCH_MS = 1_000;

/**
 * libfuse options: direct_io so reads reach us whatever size a file claims
 * (computed files say 0, like /proc) and stream reads can block; no attribute or
 * entry caching, so a closed pane vanishes at once and tail -f sees sizes grow.
 */
export const FUSE_OPTIONS = ['direct_io', 'attr_timeout=0', 'entry_timeout=0', 'negative_timeout=0', 'fsname=pane', 'subtype=pane'];

export interface MountResult {
  stop(): Promise<void>;
  done: Promise<string>;
}

/** Mounts the namespace of the server at `socketPath` on `dir`; `ready` is called once it is served. */
/** `token`: the agent's, when an agent mounts, so every file operation is the agent's and its .access holds. */
export async function serveMount(dir: string, socketPath: string, ready: () => void, token?: string): Promise<MountResult> {
  const Fuse = loadFuse();
  if (typeof Fuse === 'string') throw new Error(Fuse);
  const stale = clearStale(dir);
  if (stale) throw new Error(stale);
  fs.mkdirSync(dir, { recursive: true });
  const conn = await connectCli(socketPath, { client: { name: 'pane-mount', kind: 'cli' }, ...(token ? { token } : {}) });
  // Its stderr is the mount's log (pane mount opens it): each refusal's message is written there.
  const ops = makeFuseOps(conn, undefined, refusalLog((line) => process.stderr.write(`${line}\n`)));
  // fuse-native builds its -o string from a fixed list; ours go through the one hook it has.
  const fuse = new Fuse(dir, ops, { timeout: false }) as FuseInstance & { _fuseOptions(): string };
  fuse._fuseOptions = () => `-o${FUSE_OPTIONS.join(',')}`;
  await new Promise<void>((resolve, reject) => fuse.mount((err) => (err ? reject(new Error(`mount ${dir}: ${err.message}`)) : resolve())));
  writePid(dir);

  let finish: (why: string) => void = () => {};
  const done = new Promise<string>((resolve) => (finish = resolve));
  let stopping = false;
  const stop = async (why = 'stopped') => {
    if (stopping) return;
    stopping = true;
    clearInterval(watch);
    await new Promise<void>((resolve) => fuse.unmount(() => resolve()));
    if (isFuseMount(dir)) detach(dir);
    removePid(dir);
    conn.close();
    finish(why);
  };
  conn.onClose((reason) => void stop(`the pane server went away (${reason})`));
  const watch = setInterval(() => {
    if (!isFuseMount(dir)) void stop('unmounted');
  }, WATCH_MS);
  ready();
  return { stop: () => stop(), done };
}
