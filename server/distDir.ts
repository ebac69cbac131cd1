// Where the built bundle lives (dist/), whether this code runs from the entry
// file or from a split chunk in dist/chunks/; sibling assets are found from here.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function distDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'chunks' ? path.dirname(here) : here;
}

/** True when running from TypeScript sources (vitest), not from the bundle. */
export function runningFromSource(): boolean {
  return fileURLToPath(import.meta.url).endsWith('.ts');
}
