// Where things live on disk: the default socket under $XDG_RUNTIME_DIR/pane/
// (or a 0700 dir of ours in the temp dir, verified), and the user's config and data dirs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function uid(): string {
  return typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username;
}

/** What is wrong with a private directory, as facts; the callers word it for their own door. */
export type DirFault =
  | { kind: 'unreadable'; error: string }
  | { kind: 'not-a-directory'; link: boolean }
  | { kind: 'owner'; uid: number; me: number }
  | { kind: 'mode'; mode: string; writable: boolean };

/**
 * The one check behind every private directory pane keeps (the socket's, the state's):
 * lstat, never followed; it must be a directory, ours (or, when not `strict`, root's
 * with the sticky bit, like /tmp, where nobody can replace our files); `strict` also
 * wants no group or other access at all, as OpenSSH's StrictModes does.
 */
export function dirFault(dir: string, strict: boolean): DirFault | null {
  if (typeof process.getuid !== 'function') return null; // no uids (Windows): named pipes have their own ACLs
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (e) {
    return { kind: 'unreadable', error: (e as Error).message };
  }
  const me = process.getuid();
  const mode = (st.mode & 0o7777).toString(8).padStart(4, '0');
  if (!st.isDirectory()) return { kind: 'not-a-directory', link: st.isSymbolicLink() };
  const sticky = (st.mode & 0o1000) !== 0;
  if (strict) {
    if (st.uid !== me) return { kind: 'owner', uid: st.uid, me };
    if ((st.mode & 0o077) !== 0) return { kind: 'mode', mode, writable: (st.mode & 0o022) !== 0 };
    return null;
  }
  if (st.uid !== me && !(st.uid === 0 && sticky)) return { kind: 'owner', uid: st.uid, me };
  if ((st.mode & 0o022) !== 0 && !sticky) return { kind: 'mode', mode, writable: true };
  return null;
}

/**
 * Why `dir` may not hold our socket, or null when it may. It must be ours (or
 * root's with the sticky bit, like /tmp, where nobody can replace our socket);
 * nobody else may write to it. `strict` (the temp-dir fallback, which another
 * local user could have created first) also wants no group or other access at all.
 */
export function checkPrivateDir(dir: string, strict = false): string | null {
  const f = dirFault(dir, strict);
  if (!f) return null;
  switch (f.kind) {
    case 'unreadable':
      return `cannot check the socket directory ${dir}: ${f.error}`;
    case 'not-a-directory':
      return `the socket directory ${dir} is not a directory (a symlink or file is there); remove it and start pane again`;
    case 'owner':
      return strict
        ? `the socket directory ${dir} belongs to uid ${f.uid}, not you (uid ${f.me}): another user may have made it; remove it or set XDG_RUNTIME_DIR`
        : `the socket directory ${dir} belongs to uid ${f.uid}, not you (uid ${f.me}); choose a directory of yours`;
    case 'mode':
      return strict ? `the socket directory ${dir} has mode ${f.mode}; it must be 0700 (chmod 700 ${dir})` : `the socket directory ${dir} has mode ${f.mode}: others may write to it; chmod go-w ${dir} or choose another`;
  }
}

/**
 * Why the daemon may not keep its state in `dir` (created 0700 when missing), or
 * null when it may. The state starts programs as the person when replayed, so the
 * rule is the socket's strict one: a directory (not a link), the user's, mode 0700.
 * Each answer names what is wrong and the command that fixes it.
 */
export function checkStateDir(dir: string): string | null {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // a link or a file in its place: the check below says which
  }
  const f = dirFault(dir, true);
  if (!f) return null;
  switch (f.kind) {
    case 'unreadable':
      return `cannot check the state directory ${dir}: ${f.error}; fix: make it a directory of yours, mode 0700 (mkdir -p -m 700 ${dir}), or set XDG_STATE_HOME`;
    case 'not-a-directory':
      return f.link
        ? `the state directory ${dir} is a symlink; pane follows no link to its state. fix: replace it with a directory of yours (rm ${dir} && mkdir -m 700 ${dir}), or set XDG_STATE_HOME`
        : `the state directory ${dir} is not a directory; fix: move it aside (mv ${dir} ${dir}.old) and start pane again`;
    case 'owner':
      return `the state directory ${dir} is owned by uid ${f.uid}, not you (${f.me}); another user could have written the state pane would replay. fix: chown -R ${f.me} ${dir} if its contents are yours, or move it aside (mv ${dir} ${dir}.old)`;
    case 'mode':
      return `the state directory ${dir} has mode ${f.mode}, must be 0700${f.writable ? ' (others may write the state pane replays)' : ' (others may read your saved screens)'}. fix: chmod 700 ${dir}`;
  }
}

/**
 * The directory that holds the default socket; created 0700 if missing. Without
 * XDG_RUNTIME_DIR it is in the shared temp dir, so it is refused (thrown, naming
 * the fix) unless it is ours and 0700; `check: false` only names it (help texts).
 */
export function runtimeDir(check = true): string {
  const xdg = process.env.XDG_RUNTIME_DIR;
  const dir = xdg ? path.join(xdg, 'pane') : path.join(os.tmpdir(), `pane-${uid()}`);
  if (!check) return dir;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!xdg) {
    const wrong = checkPrivateDir(dir, true);
    if (wrong) throw new Error(wrong);
  }
  return dir;
}

export function defaultSocketPath(check = true): string {
  return path.join(runtimeDir(check), 'default.sock');
}

/** --socket, then $PANE_SOCKET, then the default path. */
export function resolveSocketPath(flag?: string): string {
  return flag ?? process.env.PANE_SOCKET ?? defaultSocketPath();
}

export function configDir(): string {
  const base = process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config');
  return path.join(base, 'pane');
}

export function dataDir(): string {
  const base = process.env.XDG_DATA_HOME ?? path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'pane');
}

/** Where the daemon keeps its state (journal, snapshots, scrollback, log): $XDG_STATE_HOME/pane. */
export function stateDir(): string {
  const base = process.env.XDG_STATE_HOME ?? path.join(os.homedir(), '.local', 'state');
  return path.join(base, 'pane');
}
