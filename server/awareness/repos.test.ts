import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_CACHE_MS, RepoLookup } from './repos';

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pane-repos-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { stdio: 'ignore' });

describe('the repository of a directory', () => {
  it('is the nearest directory above holding .git; a real worktree belongs to its main repository; none outside', () => {
    const repo = path.join(dir, 'shop');
    fs.mkdirSync(path.join(repo, 'src', 'auth'), { recursive: true });
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'a');
    git(repo, 'worktree', 'add', '-q', path.join(repo, '.pane', 'worktrees', 'ada-1'));
    const other = path.join(dir, 'plain');
    fs.mkdirSync(other);
    const r = new RepoLookup();
    expect(r.of(path.join(repo, 'src', 'auth'))).toBe(repo);
    expect(r.of(path.join(repo, '.pane', 'worktrees', 'ada-1'))).toBe(repo);
    expect(r.of(other)).toBeNull();
    expect(r.of('relative/dir')).toBeNull();
  });

  it('notices a new repository once its answer is REPO_CACHE_MS old', () => {
    let t = 0;
    const r = new RepoLookup(() => t);
    const later = path.join(dir, 'later');
    fs.mkdirSync(later);
    expect(r.of(later)).toBeNull();
    fs.mkdirSync(path.join(later, '.git'));
    expect(r.of(later)).toBeNull();
    t += REPO_CACHE_MS;
    expect(r.of(later)).toBe(later);
  });
});
