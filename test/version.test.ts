// pane's version has one source, package.json, read by paneVersion(); no module
// writes the number down again (a literal drifts at the next release).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { paneVersion, runningVersion } from '../kits/node/version';

const root = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') out.push(...sources(p));
    } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

describe('pane version', () => {
  it('is package.json’s, in the CLI and in the server’s hello alike', () => {
    expect(paneVersion()).toBe(pkg.version);
    expect(runningVersion()).toBe(pkg.version);
  });

  it('is written as a literal in no runtime module', () => {
    const literal = new RegExp(`['"\`]${pkg.version.replace(/\./g, '\\.')}['"\`]`);
    const found = ['kits', 'server', 'electron', 'renderer/src']
      .flatMap((d) => sources(path.join(root, d)))
      .filter((f) => literal.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(root, f));
    expect(found).toEqual([]);
  });
});
