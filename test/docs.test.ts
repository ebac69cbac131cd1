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

// docs/schema/app.schema.json: the app file's JSON Schema (widgets included) for editors, from the zod schema.
describe('docs/schema/app.schema.json', () => {
  it('is the JSON Schema of AppFileSchema (run `npm run docs` after changing kits/protocol/app.ts or widget.ts)', async () => {
    const { z } = await import('zod');
    const { AppFileSchema } = await import('../kits/protocol/app');
    const want = JSON.stringify({ ...z.toJSONSchema(AppFileSchema, { io: 'input', unrepresentable: 'any' }), title: 'pane app file', $comment: 'Generated from kits/protocol/app.ts and widget.ts by npm run docs' }, null, 2) + '\n';
    const out = path.resolve(__dirname, '../docs/schema/app.schema.json');
    if (process.env.PANE_UPDATE_DOCS === '1') {
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, want);
    }
    expect(fs.readFileSync(out, 'utf8')).toBe(want);
  });
});
