// Where things live on disk: the default socket under $XDG_RUNTIME_DIR/pane/
// (or a 0700 dir of ours in the temp dir, verified), and the user's config and data dirs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function uid(): string {
  return typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username;
}

/**
 * Why `dir` may not hold our socket, or null when it may. It must be ours (or
 * root's with the sticky bit, like /tmp, where nobody can replace our socket);
 * nobody else may write to it. `strict` (the temp-dir fallback, which another
 * local user could have created first) also wants no group or other access at all.
 */
export function checkPrivateDir(dir: string, strict = false): string | null {
  if (typeof process.getuid !== 'function') return null; // no uids (Windows): named pipes have their own ACLs
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (e) {
    return `cannot check the socket directory ${dir}: ${(e as Error).message}`;
  }
  const me = process.getuid();
  const mode = (st.mode & 0o7777).toString(8).padStart(4, '0');
  if (!st.isDirectory()) return `the socket directory ${dir} is not a directory (a symlink or file is there); remove it and start pane again`;
  const sticky = (st.mode & 0o1000) !== 0;
  if (strict) {
    if (st.uid !== me) return `the socket directory ${dir} belongs to uid ${st.uid}, not you (uid ${me}): another user may have made it; remove it or set XDG_RUNTIME_DIR`;
    if ((st.mode & 0o077) !== 0) return `the socket directory ${dir} has mode ${mode}; it must be 0700 (chmod 700 ${dir})`;
    return null;
  }
  if (st.uid !== me && !(st.uid === 0 && sticky)) return `the socket directory ${dir} belongs to uid ${st.uid}, not you (uid ${me}); choose a directory of yours`;
  if ((st.mode & 0o022) !== 0 && !sticky) return `the socket directory ${dir} has mode ${mode}: others may write to it; chmod go-w ${dir} or choose another`;
  return null;
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
