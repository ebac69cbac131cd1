// Per-launch git worktrees (isolation: worktree): a new branch and worktree under
// the project's .pane/worktrees/, excluded from git status. Removal happens only
// when asked, and git's own refusal of unsaved changes stands unless forced.
// The repository is the agent's: git runs with nothing of it that starts a program
// (./repoGit.ts), only on a repository whose .git directory is inside the project,
// and pane's own files there are reached without following links.
import type fs from 'node:fs';
import path from 'node:path';
import { PaneFault } from '../../kits/protocol/error';
import { appendBelow, lstatBelow, mkdirBelow, PathRefused, readBelow, statOffMounts } from '../../kits/node/safeFile';
import { safeGit } from './repoGit';

const WHERE = "an agent's repository";
/** An info/exclude file is a few lines; one bigger is left alone (git status is only noisier). */
const MAX_EXCLUDE_BYTES = 256 * 1024;
/** Worktrees made in one second by one agent: past it the launch is refused (the names would collide). */
const MAX_SAME_SECOND = 100;

export interface Worktree {
  path: string;
  branch: string;
  repo: string;
}

/** `--git-dir` and `--work-tree` for the repository at `repo`: no `.git` file, core.worktree or GIT_DIR moves git elsewhere. */
const pinned = (repo: string) => [`--git-dir=${path.join(repo, '.git')}`, `--work-tree=${repo}`];

function refuse(e: PathRefused, cwd: string): never {
  throw new PaneFault('failed', `no worktree made: ${e.message}`, { reason: 'refused path', subject: cwd });
}

/**
 * The repository holding `cwd`, refused unless its .git is a directory inside it
 * (a `.git` file or core.worktree could point git at a repository of the person's
 * the agent may not read) and cwd lies inside it.
 */
function repoOf(cwd: string): string {
  // git there would wait on the mount, and the mount on this server, which waits for git.
  const at = statOffMounts(cwd);
  if (at === 'mount') throw new PaneFault('failed', `no worktree made: ${cwd} is on pane's own /pane mount`, { reason: 'git', subject: cwd });
  if (at === null) throw new PaneFault('failed', `no worktree made: ${cwd} does not exist`, { reason: 'git', subject: cwd });
  const top = safeGit(at.real, ['rev-parse', '--show-toplevel']);
  const repoAt = statOffMounts(top);
  if (repoAt === null || repoAt === 'mount') throw new PaneFault('failed', `no worktree made: git says ${cwd} belongs to ${top}, which pane cannot look at`, { reason: 'git', subject: cwd });
  const repo = repoAt.real;
  const here = at.real;
  if (here !== repo && !here.startsWith(repo + path.sep)) {
    throw new PaneFault('failed', `no worktree made: git says ${cwd} belongs to ${top} (its core.worktree?); pane makes worktrees only of the repository the project is in`, { reason: 'git', subject: cwd });
  }
  let st: fs.Stats | null;
  try {
    st = lstatBelow(repo, '.git', { where: WHERE });
  } catch (e) {
    if (e instanceof PathRefused) refuse(e, cwd);
    throw e;
  }
  if (!st?.isDirectory()) {
    throw new PaneFault('failed', `no worktree made: ${path.join(repo, '.git')} is ${st ? (st.isSymbolicLink() ? 'a symbolic link' : 'not a directory') : 'missing'}; pane makes worktrees only of a repository whose .git directory lies inside the project`, { reason: 'git', subject: cwd });
  }
  return repo;
}

export function makeWorktree(cwd: string, agent: string, now = new Date()): Worktree {
  const repo = repoOf(cwd);
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  try {
    mkdirBelow(repo, '.pane/worktrees', { where: WHERE });
    let leaf = `${agent}-${stamp}`;
    for (let i = 2; lstatBelow(repo, `.pane/worktrees/${leaf}`, { where: WHERE }) !== null; i++) {
      if (i > MAX_SAME_SECOND) throw new PaneFault('failed', `no worktree made: ${MAX_SAME_SECOND} worktrees of ${agent} were made this second already`, { reason: 'git', subject: cwd });
      leaf = `${agent}-${stamp}-${i}`;
    }
    // Keep the worktrees out of the project's own `git status`.
    try {
      const text = readBelow(repo, '.git/info/exclude', { where: WHERE, maxBytes: MAX_EXCLUDE_BYTES }) ?? '';
      if (!text.split('\n').includes('.pane/')) appendBelow(repo, '.git/info/exclude', `${text.endsWith('\n') || text === '' ? '' : '\n'}.pane/\n`, { where: WHERE, mkdir: true });
    } catch {
      // an unwritable or refused exclude file only makes git status noisier
    }
    // The directory is made here, below the repository without links; git fills it (it takes an empty one).
    mkdirBelow(repo, `.pane/worktrees/${leaf}`, { where: WHERE });
    const dir = path.join(repo, '.pane', 'worktrees', leaf);
    const branch = `pane/${leaf}`;
    safeGit(repo, ['worktree', 'add', '-b', branch, dir], pinned(repo));
    // git reached the directory by its path again: it must be the one made above, still not behind a link.
    if (!lstatBelow(repo, `.pane/worktrees/${leaf}/.git`, { where: WHERE })?.isFile()) {
      throw new PaneFault('failed', `no worktree made: ${dir} changed while git filled it (a link planted on the way?)`, { reason: 'git', subject: cwd });
    }
    return { path: dir, branch, repo };
  } catch (e) {
    if (e instanceof PathRefused) refuse(e, cwd);
    throw e;
  }
}

/** Removes the worktree (git refuses when it has changes, unless force); the branch is kept. */
export function removeWorktree(w: Worktree, force: boolean): void {
  safeGit(w.repo, ['worktree', 'remove', ...(force ? ['--force'] : []), w.path], pinned(w.repo));
}
