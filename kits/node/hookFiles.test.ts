// Codex's config.toml and pane's trust block in it: what Codex appends inside the block
// (it adds tables before the file's trailing comment, which is pane's end marker) is
// Codex's and survives every relaunch; only pane's own [hooks.state."…"] tables are replaced.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CODEX_TRUST_BEGIN, CODEX_TRUST_END, codexTablesIn, isPaneCommand, ownEntry, withCodexTrust } from './hookFiles';

const trust = [{ key: '/h/.codex/hooks.json:user_prompt_submit:0:0', hash: 'sha256:aaa' }];

describe("pane's trust block in Codex's config.toml", () => {
  it('keeps the tables Codex appended inside the block (a folder’s trust, [tui]) across a relaunch', () => {
    const first = withCodexTrust('model = "o3"\n', trust)!;
    expect(first.trimEnd().endsWith(CODEX_TRUST_END)).toBe(true);
    // What Codex 0.169/0.171 does when the person answers "Trust this folder?": tables before the trailing comment.
    const afterCodex = first.replace(CODEX_TRUST_END, `[projects."/home/p/proj"]\ntrust_level = "trusted"\n\n[tui]\n\n[tui.model_availability_nux]\n"gpt-5" = 1\n${CODEX_TRUST_END}`);
    const relaunch = withCodexTrust(afterCodex, [{ key: trust[0]!.key, hash: 'sha256:bbb' }])!;
    expect(relaunch).toContain('[projects."/home/p/proj"]\ntrust_level = "trusted"');
    expect(relaunch).toContain('[tui.model_availability_nux]\n"gpt-5" = 1');
    expect(relaunch).toContain('model = "o3"');
    // Codex's tables are outside pane's block now, and pane's block holds only its own, renewed.
    const block = relaunch.slice(relaunch.indexOf(CODEX_TRUST_BEGIN), relaunch.indexOf(CODEX_TRUST_END));
    expect(block).not.toContain('projects');
    expect(block).toContain('sha256:bbb');
    expect(block).not.toContain('sha256:aaa');
    // And again: stable, nothing doubled.
    const again = withCodexTrust(relaunch, [{ key: trust[0]!.key, hash: 'sha256:bbb' }])!;
    expect(again).toBe(relaunch);
    expect(again.match(/\[projects\./g)).toHaveLength(1);
  });

  it('leaves nothing of pane’s behind when the trust goes, and keeps Codex’s', () => {
    const withCodex = withCodexTrust('', trust)!.replace(CODEX_TRUST_END, `[projects."/p"]\ntrust_level = "trusted"\n${CODEX_TRUST_END}`);
    const gone = withCodexTrust(withCodex, [])!;
    expect(gone).not.toContain('pane hooks trust');
    expect(gone).not.toContain('hooks.state');
    expect(gone).toContain('[projects."/p"]\ntrust_level = "trusted"');
  });

  it('takes only pane’s own tables out of the block', () => {
    expect(codexTablesIn(`\n[hooks.state."x"]\ntrusted_hash = "h"\n`)).toBe('');
    expect(codexTablesIn(`\n[hooks.state."x"]\ntrusted_hash = "h"\n[projects."/p"]\ntrust_level = "trusted"\n`)).toBe('[projects."/p"]\ntrust_level = "trusted"\n');
  });
});

describe('the pane entry hooks run', () => {
  it('is the CommonJS bin, also when pane was started as dist/pane.mjs; an installed link as it is; none for another program', () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-entry-'));
    try {
      const mjs = path.join(dist, 'pane.mjs');
      fs.writeFileSync(mjs, '');
      expect(ownEntry(mjs)).toBe(mjs); // an older build, with no pane.cjs beside it
      fs.writeFileSync(path.join(dist, 'pane.cjs'), '');
      expect(ownEntry(mjs)).toBe(path.join(dist, 'pane.cjs'));
      expect(ownEntry(path.join(dist, 'pane.cjs'))).toBe(path.join(dist, 'pane.cjs'));
      expect(ownEntry('/usr/local/bin/pane')).toBe('/usr/local/bin/pane');
      expect(ownEntry('/usr/lib/node_modules/vitest/vitest.mjs')).toBeNull();
      expect(ownEntry(undefined)).toBeNull();
    } finally {
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('is known as pane’s own hook whichever file it names', () => {
    for (const bin of ['pane', '"/x/dist/pane.cjs"', '"/x/dist/pane.mjs"', "'/bin/bash' '/x/bin/pane-hook' \"/usr/bin/node\" \"/x/dist/pane.cjs\""]) expect(isPaneCommand(`${bin} hook --app 'codex'`), bin).toBe(true);
    expect(isPaneCommand('"/x/dist/pane.js" hook')).toBe(false);
  });
});
