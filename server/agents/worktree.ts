// Per-launch git worktrees (isolation: worktree): a new branch and worktree under
// the project's .pane/worktrees/, excluded from git status. Removal happens only
// when asked, and git's own refusal of unsaved changes stands unless forced.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PaneFault } from '../../kits/protocol/error';

function git(cwd: string, args: string[]): string {
  try {
    return execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 15_000 }).trim();
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new PaneFault('failed', `git ${args[0]} failed in ${cwd}: ${(err.stderr ?? err.message).trim().split('\n')[0]}`, { reason: 'git', subject: cwd });
  }
}

export interface Worktree {
  path: string;
  branch: string;
  repo: string;
}

export function makeWorktree(cwd: string, agent: string, now = new Date()): Worktree {
  const repo = git(cwd, ['rev-parse', '--show-toplevel']);
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  let branch = `pane/${agent}-${stamp}`;
  let dir = path.join(repo, '.pane', 'worktrees', `${agent}-${stamp}`);
  for (let i = 2; fs.existsSync(dir); i++) {
    branch = `pane/${agent}-${stamp}-${i}`;
    dir = path.join(repo, '.pane', 'worktrees', `${agent}-${stamp}-${i}`);
  }
  // Keep the worktrees out of the project's own `git status`.
  const exclude = path.join(git(repo, ['rev-parse', '--git-common-dir']).replace(/^(?!\/)/, `${repo}/`), 'info', 'exclude');
  try {
    const text = fs.existsSync(exclude) ? fs.readFileSync(exclude, 'utf8') : '';
    if (!text.split('\n').includes('.pane/')) {
      fs.mkdirSync(path.dirname(exclude), { recursive: true });
      fs.appendFileSync(exclude, `${text.endsWith('\n') || text === '' ? '' : '\n'}.pane/\n`);
    }
  } catch {
    // an unwritable exclude file only makes git status noisier
  }
  git(repo, ['worktree', 'add', '-b', branch, dir]);
  return { path: dir, branch, repo };
}

/** Removes the worktree (git refuses when it has changes, unless force); the branch is kept. */
export function removeWorktree(w: Worktree, force: boolean): void {
  git(w.repo, ['worktree', 'remove', ...(force ? ['--force'] : []), w.path]);
}
