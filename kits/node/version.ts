// The installed pane's version, read from the package.json that ships beside the
// code (dist/../package.json, or the checkout's when run from source), so the
// number printed by `pane --version` is the one the package was published as.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** How far up from this module package.json may be: dist/chunks/x.mjs → root is two levels. */
const MAX_LEVELS_UP = 4;

/** pane's version from its package.json, or 'unknown' when none is found beside the code. */
export function paneVersion(from: string = fileURLToPath(import.meta.url)): string {
  let dir = path.dirname(from);
  for (let i = 0; i <= MAX_LEVELS_UP; i++) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'pane' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here: look one level up
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

let once: string | undefined;
/** paneVersion() of the running code, read once per process: the server answers it in every hello and server/info. */
export function runningVersion(): string {
  return (once ??= paneVersion());
}
