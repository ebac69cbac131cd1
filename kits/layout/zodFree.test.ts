// The shared geometry stays zod-free, so the window and the server load only the
// arithmetic: it may name protocol types, but imports no schema values and no zod.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const here = __dirname;
const sources = fs.readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

describe('kits/layout', () => {
  it.each(sources)('%s imports protocol types only, and neither zod nor anything outside kits/layout and kits/protocol', (file) => {
    const src = fs.readFileSync(path.join(here, file), 'utf8');
    for (const m of src.matchAll(/^(import|export)\s+(type\s+)?[^'"]*?from\s*['"]([^'"]+)['"]/gm)) {
      const [, , typeOnly, spec] = m;
      expect(spec, `${file} imports ${spec}`).toMatch(/^\.\/|^\.\.\/protocol\//);
      if (spec!.startsWith('../protocol/')) expect(typeOnly, `${file} imports values from ${spec}`).toBeDefined();
    }
    expect(src).not.toMatch(/from\s*['"]zod['"]/);
  });
});
