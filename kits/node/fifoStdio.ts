// A child's stdin and stdout as pipes (S_IFIFO), where Node's spawn 'pipe' gives socket
// pairs. What pane runs for a `command` or `ssh` host gets them: a `pane serve --stdio`
// started with pipes hands them to its daemon (stdio/adopt, decision 041) and stops
// relaying; with socket pairs it cannot (a socket does not open through /proc/PID/fd),
// and every byte of the link crossed one Node process more. Node makes no anonymous
// pipe, so two named FIFOs are made in a fresh private directory (mkdtemp: 0700, ours),
// opened at both ends, and unlinked before the child runs: no name is left for anyone
// to open, and what the child holds is a plain pipe pair.
//
// Opening a FIFO blocks until its other end is open, except O_RDWR, which Linux opens
// at once (POSIX leaves it undefined; pane runs on Linux). A held O_RDWR descriptor is
// the other end for the two real opens, and is closed before anything is read, so each
// pipe has exactly one reader and one writer and end-of-file comes as with pipe(2).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** How long mkfifo may take (a process start, a few ms) before the socket pairs are used instead. */
const MKFIFO_TIMEOUT_MS = 5_000;

/** A child's pipe ends (to pass in spawn's stdio and close here once it ran) and this process's streams on the other ends. */
export interface FifoStdio {
  /** The child's stdin (read end), for spawn's stdio[0]. */
  readonly childIn: number;
  /** The child's stdout (write end), for spawn's stdio[1]. */
  readonly childOut: number;
  /** Writes to the child's stdin; end() is its end of file. */
  readonly toChild: net.Socket;
  /** Reads the child's stdout. */
  readonly fromChild: net.Socket;
  /** Closes the child's ends in this process: after spawn (the child holds its own copies), or when it did not start. */
  closeChildEnds(): void;
  /** Closes everything: the child's ends and this process's streams (a spawn that threw). */
  destroy(): void;
}

/**
 * A pipe pair for a child's stdio; undefined (the caller keeps Node's socket pairs)
 * where FIFOs cannot be made: no mkfifo on PATH, or a temp directory that refuses them.
 */
export async function fifoStdio(): Promise<FifoStdio | undefined> {
  let dir: string;
  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-stdio-'));
  } catch {
    return undefined;
  }
  const opened: number[] = [];
  const open = (p: string, flags: number): number => {
    // libuv opens every file close-on-exec: the child gets only the two spawn puts at 0 and 1.
    const fd = fs.openSync(p, flags | fs.constants.O_NOCTTY);
    opened.push(fd);
    return fd;
  };
  try {
    const stdin = path.join(dir, 'stdin');
    const stdout = path.join(dir, 'stdout');
    // Not spawnSync: the daemon dials hosts, and its loop does not wait on a process start.
    const made = await new Promise<boolean>((resolve) => execFile('mkfifo', ['-m', '600', stdin, stdout], { timeout: MKFIFO_TIMEOUT_MS }, (e) => resolve(!e)));
    if (!made) return undefined;
    const { O_RDWR, O_RDONLY, O_WRONLY } = fs.constants;
    const heldIn = open(stdin, O_RDWR);
    const childIn = open(stdin, O_RDONLY);
    const ourIn = open(stdin, O_WRONLY);
    const heldOut = open(stdout, O_RDWR);
    const childOut = open(stdout, O_WRONLY);
    const ourOut = open(stdout, O_RDONLY);
    for (const fd of [heldIn, heldOut]) {
      fs.closeSync(fd);
      opened.splice(opened.indexOf(fd), 1);
    }
    const toChild = new net.Socket({ fd: ourIn, readable: false, writable: true });
    const fromChild = new net.Socket({ fd: ourOut, readable: true, writable: false });
    let closed = false;
    const closeChildEnds = (): void => {
      if (closed) return;
      closed = true;
      fs.closeSync(childIn);
      fs.closeSync(childOut);
    };
    return {
      childIn,
      childOut,
      toChild,
      fromChild,
      closeChildEnds,
      destroy() {
        closeChildEnds();
        toChild.destroy();
        fromChild.destroy();
      },
    };
  } catch {
    for (const fd of opened) fs.closeSync(fd);
    return undefined;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
