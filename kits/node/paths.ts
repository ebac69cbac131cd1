// Where things live on disk: the default socket under $XDG_RUNTIME_DIR/pane/
// (or a 0700 dir in the temp dir), and the user's config and data dirs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function uid(): string {
  return typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username;
}

/** The directory that holds the default socket; created 0700 if missing. */
export function runtimeDir(): string {
  const xdg = process.env.XDG_RUNTIME_DIR;
  const dir = xdg ? path.join(xdg, 'pane') : path.join(os.tmpdir(), `pane-${uid()}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export function defaultSocketPath(): string {
  return path.join(runtimeDir(), 'default.sock');
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
