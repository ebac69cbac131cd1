// The Node-line tier runs on the Node it names, all the way down: vitest itself,
// the built `pane` started through its `#!/usr/bin/env node` line (the daemon a user
// on Node 24 gets), and the agent CLIs installed at their latest by that Node's npm.
// Without this, a tier that quietly ran on the system Node would pass for it.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, serve, type Served } from '../cli/harness';

const line = process.env.PANE_TEST_NODE_LINE;

let s: Served;
beforeAll(async () => {
  buildOnce();
  s = await serve();
}, 60_000);
afterAll(async () => {
  await s?.stop();
});

describe(`the Node ${line ?? '(unset)'} tier`, () => {
  it('runs vitest on that Node', () => {
    expect(line, 'PANE_TEST_NODE_LINE is set by scripts/test.mjs for this tier').toBeDefined();
    expect(process.versions.node.split('.')[0]).toBe(line);
  });

  it('runs the built pane on it, through its shebang: the daemon and a one-shot command', () => {
    // `env node` exec'd node: the daemon's own executable is this tier's node.
    expect(fs.readlinkSync(`/proc/${s.proc.pid}/exe`)).toBe(fs.realpathSync(process.execPath));
    const r = s.pane(['new', '--session', 'line', '--', '/bin/sh', '-c', 'node --version; sleep 30']);
    expect(r.status, r.stderr).toBe(0);
    const info = s.pane(['info']);
    expect(info.status, info.stderr).toBe(0);
  });

  it('drives the agent CLIs installed at their latest with that Node', () => {
    for (const v of ['PANE_TEST_CLAUDE', 'PANE_TEST_QWEN']) {
      const bin = process.env[v];
      expect(bin, `${v} names the latest install (scripts/nodeLines.mjs)`).toMatch(new RegExp(`agent-clis-latest-node${line}/`));
      expect(fs.existsSync(bin as string)).toBe(true);
    }
  });
});
