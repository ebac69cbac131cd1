import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CodeOnDisk } from './codeOnDisk';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-code-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A later mtime than the file has: a rebuild a moment after the start. */
function later(file: string): void {
  const t = fs.statSync(file).mtime.getTime() / 1000 + 5;
  fs.utimesSync(file, t, t);
}

describe('CodeOnDisk', () => {
  it('stays the same code while the file is untouched, or rewritten with the same text', () => {
    const f = path.join(dir, 'same.mjs');
    fs.writeFileSync(f, 'export const a = 1;\n');
    const c = new CodeOnDisk(f);
    c.remember();
    expect(c.replaced()).toBe(false);
    fs.writeFileSync(f, 'export const a = 1;\n');
    later(f);
    expect(c.replaced()).toBe(false);
    expect(c.replaced()).toBe(false);
  });

  it('is replaced once the file holds other code, and stays so even if it goes back', () => {
    const f = path.join(dir, 'changed.mjs');
    fs.writeFileSync(f, 'export const a = 1;\n');
    const c = new CodeOnDisk(f);
    c.remember();
    // Same size, other text: only the read tells.
    fs.writeFileSync(f, 'export const a = 2;\n');
    later(f);
    expect(c.replaced()).toBe(true);
    fs.writeFileSync(f, 'export const a = 1;\n');
    expect(c.replaced()).toBe(true);
  });

  it('is replaced once the file is gone (a rebuild removes the chunks of earlier builds)', () => {
    const f = path.join(dir, 'chunk-OLD.mjs');
    fs.writeFileSync(f, 'x');
    const c = new CodeOnDisk(f);
    c.remember();
    fs.rmSync(f);
    expect(c.replaced()).toBe(true);
  });

  it('never says replaced of a file it could not read at the start', () => {
    const c = new CodeOnDisk(path.join(dir, 'never-there.mjs'));
    c.remember();
    expect(c.replaced()).toBe(false);
  });
});
