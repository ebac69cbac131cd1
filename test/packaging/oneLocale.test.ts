// scripts/oneLocale.mjs leaves zod's locales but English out of the node bundles.
// Bundled with it, `z.locales` holds `en` alone and zod's messages are still
// English; bundled without it, every locale is there (the plugin is what removed them).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs build helper (no types)
import { oneLocaleEsbuild } from '../../scripts/oneLocale.mjs';

const root = path.resolve(__dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-locale-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const ENTRY = "import { z } from 'zod';\nconst r = z.object({ a: z.string() }).safeParse({ a: 1 });\nconsole.log(JSON.stringify({ locales: Object.keys(z.locales), message: r.success ? '' : r.error.issues[0].message }));\n";

async function bundle(name: string, plugins: unknown[]): Promise<{ bytes: number; out: { locales: string[]; message: string } }> {
  const entry = path.join(root, 'test', 'packaging', `.locale-entry-${process.pid}.ts`);
  fs.writeFileSync(entry, ENTRY);
  try {
    const outfile = path.join(dir, `${name}.mjs`);
    await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'silent', plugins: plugins as never });
    const run = spawnSync(process.execPath, [outfile], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    return { bytes: fs.statSync(outfile).size, out: JSON.parse(run.stdout) };
  } finally {
    fs.rmSync(entry, { force: true });
  }
}

describe('zod bundled with English only', () => {
  it('keeps en, drops the other locales and their bytes, and still says what is wrong in English', async () => {
    const full = await bundle('full', []);
    const one = await bundle('one', [oneLocaleEsbuild]);
    expect(full.out.locales.length).toBeGreaterThan(20);
    expect(one.out.locales).toEqual(['en']);
    expect(one.out.message).toBe(full.out.message);
    expect(one.out.message).toMatch(/expected string/i);
    expect(full.bytes - one.bytes).toBeGreaterThan(200_000);
  });
});
