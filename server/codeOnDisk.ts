// Whether the code a server runs is still the code on disk. An update or a rebuild
// (`git pull && npm start`, `npm i -g`, `apt upgrade`) replaces pane's files while the
// daemon, which outlives every window, runs on with the old code; a window or a CLI of
// the new code then talks to an old server, and what the update fixed in the server is
// not in it. No one could tell: the version number is the package's and stays the same.
//
// One file stands for all the server's code: the one holding server/main.ts. A split
// chunk is named by its content's hash and imports the others by theirs, so a change
// anywhere below it changes this file's text, or removes it (a rebuild deletes chunks
// of earlier builds); the one-file bundles are rewritten in place.
import crypto from 'node:crypto';
import fs from 'node:fs';

interface Seen {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** Most bytes read to fingerprint the file: a server chunk is ~0.5-2 MiB; a larger file is not pane's code. */
const MAX_CODE_BYTES = 32 << 20;

function fingerprint(file: string): { seen: Seen; hash: string } | null {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > MAX_CODE_BYTES) return null;
    return { seen: { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs }, hash: crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex') };
  } catch {
    return null;
  }
}

export class CodeOnDisk {
  private first: { seen: Seen; hash: string } | null = null;
  /** Once replaced, always replaced: the file may go back, but the daemon still runs what it read. */
  private gone = false;

  constructor(readonly file: string) {}

  /** Reads the file as it is now: at the server's start, before any update could come. */
  remember(): void {
    this.first = fingerprint(this.file);
  }

  /**
   * Whether the file is gone or holds other code than when remembered. A stat answers
   * while nothing changed; the file is read again only when its stat moved (a rebuild
   * that wrote the same code is then taken as the same). Once replaced, always replaced.
   */
  replaced(): boolean {
    if (this.gone) return true;
    const first = this.first;
    if (first === null) return false;
    let st: fs.Stats;
    try {
      st = fs.statSync(this.file);
    } catch {
      return (this.gone = true);
    }
    if (st.ino === first.seen.ino && st.size === first.seen.size && st.mtimeMs === first.seen.mtimeMs) return false;
    const now = fingerprint(this.file);
    if (now !== null && now.hash === first.hash) {
      this.first = now;
      return false;
    }
    return (this.gone = true);
  }
}
