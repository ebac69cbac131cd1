// Reviewing an agent's worktree (issue 37.2): what it changed against the commit its
// branch started from, file by file, and the person's verdict on it — accept commits
// the changes to the agent's branch, reject restores them to the branch's last
// commit. git runs through safeGit (nothing of the repository's runs a program: no
// hooks, drivers, pagers, signing), pinned to the worktree; a file named by the
// reviewer is a path inside the worktree, passed after `--`, never an option.
import path from 'node:path';
import { PaneFault } from '../../kits/protocol/error';
import { safeGit } from './repoGit';
import type { Worktree } from './worktree';

/** Bytes of diff text served: a review of more than this is read in the worktree itself (git diff). */
export const MAX_REVIEW_DIFF_BYTES = 512 << 10;
/** Files listed: past this the list says how many more. */
export const MAX_REVIEW_FILES = 500;

export interface ReviewFile {
  /** git's letters: M modified, A added, D deleted, R renamed, ? untracked. */
  status: string;
  path: string;
}

const pinnedTo = (w: Worktree) => [`--git-dir=${gitDirOf(w)}`, `--work-tree=${w.path}`];
/** A linked worktree's git dir: the repository's .git/worktrees/LEAF. */
const gitDirOf = (w: Worktree) => path.join(w.repo, '.git', 'worktrees', path.basename(w.path));
const git = (w: Worktree, args: string[]) => safeGit(w.path, args, pinnedTo(w));

/** The commit the agent's branch started from: where it meets the repository's HEAD. */
export function reviewBase(w: Worktree): string {
  const head = safeGit(w.repo, ['rev-parse', 'HEAD'], [`--git-dir=${path.join(w.repo, '.git')}`, `--work-tree=${w.repo}`]);
  return git(w, ['merge-base', 'HEAD', head]);
}

/** Every file the agent changed since the base, committed or not, and the files it made that git does not track yet. */
export function reviewFiles(w: Worktree, base: string): ReviewFile[] {
  const changed = git(w, ['diff', '--no-ext-diff', '--no-textconv', '--name-status', '-z', base, '--'])
    .split('\0')
    .filter((x) => x !== '');
  const out: ReviewFile[] = [];
  for (let i = 0; i < changed.length; ) {
    const status = changed[i++]!;
    // A rename or copy names two paths: the new one is what is reviewed.
    if (/^[RC]/.test(status)) i++;
    out.push({ status: status[0]!, path: changed[i++] ?? '' });
  }
  const untracked = git(w, ['ls-files', '--others', '--exclude-standard', '-z'])
    .split('\0')
    .filter((x) => x !== '');
  for (const p of untracked) out.push({ status: '?', path: p });
  return out;
}

/** The unified diff since the base (untracked files shown as new), cut at MAX_REVIEW_DIFF_BYTES with a note. */
export function reviewDiff(w: Worktree, base: string): string {
  let text: string;
  try {
    text = git(w, ['diff', '--no-ext-diff', '--no-textconv', '--no-color', base, '--']);
  } catch (e) {
    if (e instanceof PaneFault && /maxBuffer|ENOBUFS/.test(e.message)) return `[the diff is larger than pane serves; run git diff ${base} in ${w.path}]\n`;
    throw e;
  }
  const news = reviewFiles(w, base).filter((f) => f.status === '?');
  for (const f of news) text += `${text === '' ? '' : '\n'}diff --git a/${f.path} b/${f.path}\nnew file (untracked)\n--- /dev/null\n+++ b/${f.path}`;
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_REVIEW_DIFF_BYTES) return Buffer.from(text).subarray(0, MAX_REVIEW_DIFF_BYTES).toString('utf8') + `\n[cut at ${MAX_REVIEW_DIFF_BYTES} bytes of ${bytes}; the rest is in ${w.path}]\n`;
  return text === '' ? '' : text + '\n';
}

/** A reviewer's file name as a path inside the worktree, or why not. */
export function reviewPath(w: Worktree, file: string): string {
  if (file === '' || file.startsWith('-') || /[\u0000-\u001f]/.test(file)) throw new PaneFault('bad-request', `"${file}" is not a file of the worktree`, { subject: file });
  const abs = path.resolve(w.path, file);
  const rel = path.relative(w.path, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep)[0] === '.git') throw new PaneFault('bad-request', `${file} is outside the agent's worktree ${w.path}`, { subject: file });
  return rel;
}

/**
 * Accept: the changes (all, or one file's) committed to the agent's branch, with
 * `message` and the agent as author. Reject: they are restored to the branch's last
 * commit (a file git does not track is removed). Returns what was done, in words.
 */
export function reviewVerdict(w: Worktree, o: { verdict: 'accept' | 'reject'; file?: string | undefined; message?: string | undefined; agent: string; person: string }): string {
  const rel = o.file === undefined ? undefined : reviewPath(w, o.file);
  const files = reviewFiles(w, reviewBase(w));
  if (rel !== undefined && !files.some((f) => f.path === rel)) throw new PaneFault('bad-request', `${rel} has no change to ${o.verdict} in ${w.path}`, { subject: rel });
  if (files.length === 0) return `nothing to ${o.verdict}: ${w.branch} has no change since its base`;
  const spec = rel === undefined ? ['.'] : [rel];
  if (o.verdict === 'accept') {
    git(w, ['add', '-A', '--', ...spec]);
    const staged = git(w, ['diff', '--cached', '--name-only', '-z']).split('\0').filter((x) => x !== '');
    if (staged.length === 0) return `nothing to commit: the changes${rel ? ` to ${rel}` : ''} are on ${w.branch} already`;
    const id = (k: string) => {
      try {
        return git(w, ['config', '--get', k]);
      } catch {
        return '';
      }
    };
    // Who commits is the person (their git identity, else their user name); the agent is the author.
    const who = id('user.name') === '' || id('user.email') === '' ? ['-c', `user.name=${o.person}`, '-c', `user.email=${o.person}@localhost`] : [];
    const message = (o.message ?? '').trim() || `${o.agent}'s changes${rel ? ` to ${rel}` : ''}, accepted in review`;
    git(w, [...who, '-c', 'commit.gpgsign=false', 'commit', '--no-verify', '--quiet', `--author=${o.agent} <${o.agent}@pane.agents>`, '-m', message, '--', ...(rel ? [rel] : [])]);
    return `committed ${staged.length} file${staged.length === 1 ? '' : 's'} to ${w.branch}: ${git(w, ['rev-parse', '--short', 'HEAD'])}`;
  }
  // Reject: tracked changes back to the branch's last commit, new files removed.
  const untracked = files.filter((f) => f.status === '?' && (rel === undefined || f.path === rel)).map((f) => f.path);
  const tracked = files.filter((f) => f.status !== '?' && (rel === undefined || f.path === rel)).map((f) => f.path);
  if (tracked.length > 0) git(w, ['restore', '--source=HEAD', '--staged', '--worktree', '--', ...tracked]);
  if (untracked.length > 0) git(w, ['clean', '-f', '-q', '--', ...untracked]);
  return `restored ${tracked.length + untracked.length} file${tracked.length + untracked.length === 1 ? '' : 's'} of ${w.branch} to its last commit`;
}
