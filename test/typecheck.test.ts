// The compiler holds every layer to TypeScript strict with its own tsconfig
// (kits/ without DOM or Node types): a type error anywhere fails the suite.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('typecheck', () => {
  it('finds no type error in any layer', () => {
    const r = spawnSync(process.execPath, [path.resolve(__dirname, '../scripts/typecheck.mjs')], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).not.toMatch(/FAILED/);
    expect(r.status).toBe(0);
  }, 600_000);
});
