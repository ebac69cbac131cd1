// Which repository a directory belongs to, for convergence (two agents in one
// repository weigh more than the same words in two): the nearest directory at or
// above it holding `.git`. A worktree's `.git` file names its main repository
// (`gitdir: REPO/.git/worktrees/X`), so agents in worktrees of one repository are in
// one repository. Plain file reads, no git process per pass; answers are cached.
import fs from 'node:fs';
import path from 'node:path';

/** Directories remembered; past this the oldest is forgotten (a desktop has a few dozen cwds). */
export const MAX_REPO_CACHE = 512;
/** How long an answer holds: a `git init` or a removed checkout is noticed within this. */
export const REPO_CACHE_MS = 60_000;
/** A `.git` file (a worktree's pointer) is one short line; more is not read. */
const GIT_FILE_MAX = 4096;

export class RepoLookup {
  private readonly cache = new Map<string, { repo: string | null; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  of(dir: string): string | null {
    if (!path.isAbsolute(dir)) return null;
    const hit = this.cache.get(dir);
    const t = this.now();
    if (hit && t - hit.at < REPO_CACHE_MS) return hit.repo;
    const repo = find(dir);
    this.cache.delete(dir);
    this.cache.set(dir, { repo, at: t });
    if (this.cache.size > MAX_REPO_CACHE) this.cache.delete(this.cache.keys().next().value as string);
    return repo;
  }
}

function find(start: string): string | null {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const git = path.join(dir, '.git');
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(git);
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) return dir;
    if (st?.isFile()) return mainOf(git) ?? dir;
    if (path.dirname(dir) === dir) return null;
  }
}

/** A worktree's main repository, from its `.git` file; null when it names none we can read. */
function mainOf(gitFile: string): string | null {
  let text: string;
  try {
    const fd = fs.openSync(gitFile, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      const buf = Buffer.alloc(GIT_FILE_MAX);
      text = buf.subarray(0, fs.readSync(fd, buf, 0, GIT_FILE_MAX, 0)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!m) return null;
  const gitdir = path.resolve(path.dirname(gitFile), m[1]!);
  const i = gitdir.lastIndexOf(`${path.sep}.git${path.sep}worktrees${path.sep}`);
  return i > 0 ? gitdir.slice(0, i) : null;
}
