// `npm run dist:electron` where no Electron binary can be had: one line naming
// PANE_ELECTRON_DIST and why; and electron-builder.yml is a configuration
// electron-builder accepts (checked against its own JSON schema), so the build
// works where a distribution exists.
import Ajv from 'ajv';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/harness';

/** electron-builder's own YAML reader (a dependency of it, without types of its own). */
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };
const script = path.join(ROOT, 'scripts/distElectron.mjs');
const run = (env: Record<string, string | undefined>) => {
  const clean = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([k, v]) => v !== undefined && !(k === 'PANE_ELECTRON_DIST' && env[k] === undefined)));
  return spawnSync(process.execPath, [script], { cwd: ROOT, encoding: 'utf8', env: clean as NodeJS.ProcessEnv });
};

describe('npm run dist:electron', () => {
  it('stops with one line naming PANE_ELECTRON_DIST when it is not set', () => {
    const r = run({ PANE_ELECTRON_DIST: undefined });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^pane dist:electron: PANE_ELECTRON_DIST is not set: set it to an unpacked Electron distribution .*cannot download one here\n$/);
  });

  it('stops with one line when PANE_ELECTRON_DIST holds no Electron binary', () => {
    // The checkout has an electron/ directory: a directory of that name is not the binary.
    const r = run({ PANE_ELECTRON_DIST: ROOT });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`pane dist:electron: PANE_ELECTRON_DIST=${ROOT} holds no Electron binary: point it at an unpacked Electron distribution\n`);
  });

  it('electron-builder.yml is valid for electron-builder and builds dir and tar.gz into release/', () => {
    const config = yaml.load(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    expect(validate({ ...config, electronDist: '/opt/electron' }) ? [] : validate.errors).toEqual([]);
    expect((config.linux as { target: string[] }).target).toEqual(['dir', 'tar.gz']);
    expect((config.directories as { output: string }).output).toBe('release/electron');
  });
});
