// docs/namespace.md is generated from the namespace table; this keeps it in step.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderNamespaceDoc } from '../../server/namespace/doc';
import { NAMESPACE_TABLE } from '../../server/namespace/table';

const file = path.resolve(__dirname, '../../docs/namespace.md');

describe('docs/namespace.md', () => {
  it('matches what the namespace table says (run `npm run docs` after changing the table)', () => {
    const want = renderNamespaceDoc();
    if (process.env.PANE_UPDATE_DOCS === '1') fs.writeFileSync(file, want);
    expect(fs.readFileSync(file, 'utf8')).toBe(want);
  });

  it('documents every row of the table', () => {
    const doc = renderNamespaceDoc();
    for (const r of NAMESPACE_TABLE) expect(doc).toContain(`| \`${r.path}\` |`);
  });
});
