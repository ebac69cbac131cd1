// What of an agent's project is kept from its writes although the project is its
// to write: the files other programs run or obey when the person next works there
// (shell and tool settings, editor folders, a repository's hooks and config) —
// those that exist, each made read-only by a bind of itself. One that does not
// exist cannot be guarded that way without making it: a bind needs something on
// the host to land on, and whatever pane put there would sit in the person's
// repository (git status shows it, an editor cannot create `.vscode/`). So an
// absent one is watched instead, and said if the agent made it. The names are
// the sandbox runtime's own lists, handed in. See docs/decisions/043-project-guards.md.
import fs from 'node:fs';
import path from 'node:path';

/** How many levels below the project are looked into: the sandbox runtime's own depth for the same search (mandatoryDenySearchDepth). */
export const GUARD_DEPTH = 3;

/**
 * Directories looked into at most: a launch waits for this walk, and three levels of
 * a very wide tree (a home full of checkouts) could take seconds. What lies past
 * it is unguarded, and said (`truncated`).
 */
export const GUARD_MAX_DIRS = 4000;

/** Never walked into: package trees hold thousands of directories and nothing anyone runs on opening a folder. */
const SKIPPED = new Set(['node_modules', '.git']);

export interface GuardNames {
  /** Files guarded wherever they are found (`.bashrc`, `.mcp.json`, ...). */
  files: readonly string[];
  /** Directories guarded, relative to the directory that holds them (`.vscode`, `.claude/commands`, ...). */
  dirs: readonly string[];
}

export interface ProjectGuards {
  /** What exists and is made read-only (absolute paths). */
  existing: string[];
  /** What the project's top level lacks, to be watched (absolute paths). */
  absent: string[];
  /** The walk stopped at GUARD_MAX_DIRS. */
  truncated: boolean;
}

const kind = (p: string): 'file' | 'dir' | 'other' | null => {
  try {
    const st = fs.lstatSync(p);
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
  } catch {
    return null;
  }
};

/**
 * The guards of project `root`: in it and in each directory down to GUARD_DEPTH,
 * every named file and directory that exists, and of each repository (a `.git`
 * directory) its hooks and config, or the `.git` file of a worktree. A
 * repository's hooks directory that is missing is made (inside `.git`, as `git
 * init` makes it): the one absent guard that leaves nothing in the person's tree.
 */
export function projectGuards(root: string, names: GuardNames): ProjectGuards {
  const existing: string[] = [];
  const absent: string[] = [];
  let seen = 0;
  let truncated = false;
  let level: string[] = [root];
  for (let depth = 0; depth <= GUARD_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (++seen > GUARD_MAX_DIRS) {
        truncated = true;
        break;
      }
      for (const f of [...names.files, ...names.dirs]) {
        const p = path.join(dir, f);
        if (kind(p) !== null) existing.push(p);
        else if (dir === root) absent.push(p);
      }
      const git = path.join(dir, '.git');
      const gitKind = kind(git);
      if (gitKind === 'file') existing.push(git);
      else if (gitKind === 'dir') {
        const hooks = path.join(git, 'hooks');
        if (kind(hooks) === null) {
          try {
            fs.mkdirSync(hooks);
          } catch {
            // a .git we may not write is not the agent's to write either
          }
        }
        for (const p of [hooks, path.join(git, 'config')]) if (kind(p) !== null) existing.push(p);
      }
      if (depth === GUARD_DEPTH) continue;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      // Not into a guarded directory (it is read-only whole) nor through a link (it may lead out).
      for (const e of entries) if (e.isDirectory() && !SKIPPED.has(e.name) && !existing.includes(path.join(dir, e.name))) next.push(path.join(dir, e.name));
    }
    if (truncated) break;
    level = next;
  }
  return { existing: [...new Set(existing)], absent, truncated };
}

/** Of the paths `absent` listed, those that exist now: what the agent (or the person, meanwhile) made. */
export function madeSince(absent: readonly string[]): string[] {
  return absent.filter((p) => kind(p) !== null);
}
