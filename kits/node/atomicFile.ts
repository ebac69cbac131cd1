// Crash-safe file replacement: temp file beside the target, write, fsync, rename,
// fsync of the directory (so the rename itself survives a power cut). Hand-written,
// not write-file-atomic: see docs/decisions/015-durable-state.md for why.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Test-only fault injection: when $PANE_TEST_FAULT names this point, the process
 * kills itself (SIGKILL) between writing the temp file and renaming it, which is
 * what a crash in the middle of a snapshot looks like on disk.
 */
export const FAULT_BEFORE_RENAME = 'snapshot-before-rename';

function maybeCrash(point: string): void {
  if (process.env.PANE_TEST_FAULT === point) process.kill(process.pid, 'SIGKILL');
}

let counter = 0;
function tempName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${++counter}.tmp`);
}

/**
 * A temp file is created anew (O_EXCL: a link or anything planted at its name is
 * never followed or reused) and never through a link (O_NOFOLLOW).
 */
const TEMP_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;

/**
 * Replaces `file` with `data` atomically; async, so the main loop only schedules the work.
 * `syncDir: false` leaves the directory's fsync to a later write in the same directory.
 */
export async function writeAtomic(file: string, data: string | Uint8Array, o: { fault?: string; syncDir?: boolean } = {}): Promise<void> {
  const tmp = tempName(file);
  const fh = await fs.promises.open(tmp, TEMP_FLAGS, 0o600);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } catch (e) {
    await fh.close().catch(() => undefined);
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
  await fh.close();
  if (o.fault) maybeCrash(o.fault);
  await fs.promises.rename(tmp, file);
  if (o.syncDir !== false) await syncDir(path.dirname(file));
}

/**
 * The same, synchronously: for worker threads, where blocking blocks nobody else.
 * `syncDir: false` leaves the directory's fsync to a later write in the same
 * directory (one fsync covers every rename before it): for many files at once.
 */
export function writeAtomicSync(file: string, data: string | Uint8Array, o: { syncDir?: boolean } = {}): void {
  const tmp = tempName(file);
  const fd = fs.openSync(tmp, TEMP_FLAGS, 0o600);
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  if (o.syncDir === false) return;
  const d = fs.openSync(path.dirname(file), fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
  try {
    fs.fsyncSync(d);
  } finally {
    fs.closeSync(d);
  }
}

export async function syncDir(dir: string): Promise<void> {
  const d = await fs.promises.open(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
  try {
    await d.sync();
  } finally {
    await d.close();
  }
}
