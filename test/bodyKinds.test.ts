// The body seam (issue 37.0): the server chooses by a pane's body kind only in
// server/model/bodies/ (the providers and their registry), the window only in
// renderer/src/bodies/ (components, registry, traits), and kits/protocol/standIn.ts
// reads a stand-in's attributes. Everywhere else asks a provider (bodyOf(kind).agent,
// .standIn, .runsProgram) or the window's traits (standsIn). A new `kind === '…'`
// elsewhere fails here, naming file and line.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BodyKindSchema } from '../kits/protocol/model';

const root = path.resolve(__dirname, '..');
const KINDS = BodyKindSchema.options.join('|');
const CHECK = new RegExp(`([\\w$?.\\]]+?)\\??\\.kind\\s*(?:===|!==)\\s*'(?:${KINDS})'`, 'g');
/** Where choosing by body kind belongs. */
const HOMES = ['server/model/bodies/', 'renderer/src/bodies/', 'kits/protocol/standIn.ts'];
/** `.kind` fields that are not a pane's body kind: a principal's, a message target's, an endpoint's, an app file's. */
const NOT_BODIES: Record<string, RegExp> = {
  'server/plumb/service.ts': /^who$/,
  'server/model/execLine.ts': /^who$/,
  'server/handlers/grants.ts': /^(who|client\.principal)$/,
  'server/handlers/registry.ts': /^who$/,
  'server/handlers/pane.ts': /^who$/,
  'server/handlers/session.ts': /^client\.principal$/,
  'server/model/session/contexts.ts': /^principal$/,
  'server/transport/connections.ts': /^c\.principal$/,
  'server/awareness/messageBoard.ts': /^m\.target$/,
  'server/awareness/messages.ts': /^m\.target$/,
  'server/awareness/engine.ts': /^m\.target$/,
  'kits/node/cli/reach.ts': /^endpoint$/,
  'kits/node/cli/commands/awareness.ts': /^m\.target$/,
  'kits/protocol/app.ts': /^a$/,
};

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(path.relative(root, p));
    }
  };
  walk(path.join(root, dir));
  return out;
}

describe('body kinds are chosen only in the body registries', () => {
  it('has no kind comparison outside server/model/bodies/, renderer/src/bodies/ and the stand-in reader', () => {
    const found: string[] = [];
    for (const file of ['server', 'renderer/src', 'kits', 'electron'].flatMap(sources)) {
      if (HOMES.some((h) => file.startsWith(h))) continue;
      const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const m of line.matchAll(CHECK)) {
          const receiver = m[1]!.replace(/\?$/, '');
          if (NOT_BODIES[file]?.test(receiver)) continue;
          found.push(`${file}:${i + 1}: ${m[0]} (ask the provider: bodyOf(kind).agent / .standIn / .runsProgram, or the window's standsIn)`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  it('catches a comparison it is meant to catch', () => {
    expect("if (pane.kind === 'remote') x();".match(CHECK)).not.toBeNull();
    expect("if (p?.kind !== 'agent') x();".match(CHECK)).not.toBeNull();
  });
});
