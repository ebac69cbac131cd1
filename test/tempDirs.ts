// Temporary directories for a test file: each made under the OS's temp directory with
// a prefix that says whose it is, and removed after the test that made it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** A maker of directories named PREFIX…; call it at a describe's or a file's top level, where afterEach is taken. */
export function tempDirs(prefix: string): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(d);
    return d;
  };
}
