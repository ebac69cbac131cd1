// docs/protocol.md is generated from the schemas; this keeps it in step.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderProtocolDoc } from './protocolDoc';

const file = path.resolve(__dirname, '../docs/protocol.md');

describe('docs/protocol.md', () => {
  it('matches what the schemas say (run `npm run docs` after changing the protocol)', () => {
    const want = renderProtocolDoc();
    if (process.env.PANE_UPDATE_DOCS === '1') fs.writeFileSync(file, want);
    expect(fs.readFileSync(file, 'utf8')).toBe(want);
  });
});
