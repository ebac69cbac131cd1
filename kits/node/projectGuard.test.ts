import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GUARD_DEPTH, GUARD_MAX_DIRS, madeSince, projectGuards } from './projectGuard';

const names = { files: ['.bashrc', '.mcp.json'], dirs: ['.vscode', '.claude/commands'] };
let root = '';
const mk = (rel: string, body?: string) => {
  const p = path.join(root, rel);
  if (body === undefined) fs.mkdirSync(p, { recursive: true });
  else {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, body);
  }
  return p;
};

describe('projectGuards', () => {
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('lists what exists (nested repos too), watches what the top lacks, and leaves nothing new in the tree', () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-guard-'));
    mk('.vscode/settings.json', '{}');
    mk('.git/config', '');
    mk('sub/.git/hooks');
    mk('sub/.git/config', '');
    mk('sub/.mcp.json', '{}');
    mk('node_modules/x/.bashrc', '');
    mk('wt/.git', 'gitdir: elsewhere');
    fs.symlinkSync('/etc', path.join(root, 'link'));
    const before = fs.readdirSync(root).sort();
    const g = projectGuards(root, names);
    expect(g.existing.sort()).toEqual(
      ['.vscode', '.git/hooks', '.git/config', 'sub/.git/hooks', 'sub/.git/config', 'sub/.mcp.json', 'wt/.git'].map((r) => path.join(root, r)).sort(),
    );
    expect(g.absent.sort()).toEqual(['.bashrc', '.mcp.json', '.claude/commands'].map((r) => path.join(root, r)).sort());
    expect(g.truncated).toBe(false);
    // The missing hooks directory was made inside .git (where git init makes it); the work tree is as it was.
    expect(fs.statSync(path.join(root, '.git/hooks')).isDirectory()).toBe(true);
    expect(fs.readdirSync(root).sort()).toEqual(before);
    expect(madeSince(g.absent)).toEqual([]);
    mk('.mcp.json', '{}');
    expect(madeSince(g.absent)).toEqual([path.join(root, '.mcp.json')]);
  });

  it(`looks ${GUARD_DEPTH} levels down and no further, and stops at ${GUARD_MAX_DIRS} directories, saying so`, () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-guard-'));
    mk(`${'d/'.repeat(GUARD_DEPTH)}.bashrc`, '');
    mk(`${'d/'.repeat(GUARD_DEPTH + 1)}.bashrc`, '');
    expect(projectGuards(root, names).existing).toEqual([path.join(root, `${'d/'.repeat(GUARD_DEPTH)}.bashrc`)]);
    fs.rmSync(path.join(root, 'd'), { recursive: true });
    for (let i = 0; i <= GUARD_MAX_DIRS; i++) fs.mkdirSync(path.join(root, `w${i}`));
    expect(projectGuards(root, names).truncated).toBe(true);
  });
});
