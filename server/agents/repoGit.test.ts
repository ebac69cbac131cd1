import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitEnv, safeGit } from './repoGit';

let dir: string;
let repo: string;
let marks: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-repogit-'));
  repo = path.join(dir, 'repo');
  marks = path.join(dir, 'marks');
  fs.mkdirSync(marks);
  fs.mkdirSync(repo);
  const git = (...a: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=a', '-c', 'user.email=a@b', ...a], { stdio: 'ignore' });
  git('init', '-q');
  fs.writeFileSync(path.join(repo, 'f.txt'), 'hi\n');
  fs.writeFileSync(path.join(repo, '.gitattributes'), '* filter=own diff=own\n');
  git('add', '.');
  git('commit', '-qm', 'one');
  fs.writeFileSync(path.join(repo, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\ntouch ${marks}/post-checkout\n`, { mode: 0o755 });
  git('config', 'core.fsmonitor', `touch ${marks}/fsmonitor; echo`);
  git('config', 'filter.own.smudge', `touch ${marks}/smudge; cat`);
  git('config', 'diff.own.textconv', `touch ${marks}/textconv; cat`);
  git('config', 'core.pager', `touch ${marks}/pager; cat`);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('git in an agent’s repository', () => {
  it('checks out, diffs and reads status with none of the repository’s hooks, fsmonitor, filters, textconv or pager', () => {
    safeGit(repo, ['worktree', 'add', '-b', 'b', path.join(dir, 'wt')]);
    expect(fs.readFileSync(path.join(dir, 'wt', 'f.txt'), 'utf8')).toBe('hi\n');
    fs.writeFileSync(path.join(repo, 'f.txt'), 'changed\n');
    expect(safeGit(repo, ['status', '--porcelain'])).toContain('f.txt');
    expect(safeGit(repo, ['diff', '--no-ext-diff', '--no-textconv'])).toContain('+changed');
    // One that forgets those flags fails closed: the textconv is pinned to nothing, and nothing runs.
    expect(() => safeGit(repo, ['diff'])).toThrow(/git diff failed/);
    expect(fs.readdirSync(marks)).toEqual([]);
  });

  it('drops the server’s GIT_* variables, so none of them steers git elsewhere', () => {
    const env = gitEnv({ PATH: '/bin', GIT_DIR: '/elsewhere', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.hooksPath', GIT_CONFIG_VALUE_0: '/x' });
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.GIT_CONFIG_COUNT).toBeUndefined();
    expect(env.GIT_CONFIG_NOSYSTEM).toBe('1');
    expect(env.PATH).toBe('/bin');
  });

  it('says which git failed and where, as a typed failure', () => {
    expect(() => safeGit(dir, ['rev-parse', '--show-toplevel'])).toThrow(/git rev-parse failed in .*not a git repository/);
  });
});
