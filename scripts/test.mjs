// `npm test`: makes sure the system packages the suites use are there, runs
// every suite with vitest (the main tier, the soak tier, then a smoke tier on
// Node 24), and ends with one line "N passed, N failed, N skipped".
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureAgentClis } from './agentClis.mjs';
import { NODE_LINE, ensureLatestAgentClis, ensureNodeLine } from './nodeLines.mjs';
import { ensureSystemDeps } from './systemDeps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What a whole run writes, measured on a clean clone (the Node 24 tier and its CLIs,
 * Chromium profiles, the soak's 50 MB logs, packages built and installed): about
 * 3 GiB beside the checkout and its node_modules, plus a margin. Below it, a run ends
 * in ENOSPC somewhere in the middle; this says so at the start, in words.
 */
const DISK_NEEDED = 4 * 2 ** 30;

function freeBytes(dir) {
  try {
    const s = fs.statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return Infinity;
  }
}
for (const dir of new Set([root, os.tmpdir()])) {
  const free = freeBytes(dir);
  if (free < DISK_NEEDED) console.warn(`pane tests: only ${(free / 2 ** 30).toFixed(1)} GiB free where ${dir} is; a whole run writes about ${DISK_NEEDED / 2 ** 30} GiB, so it may end with ENOSPC (no space left on device)`);
}

ensureSystemDeps();
const agentClis = ensureAgentClis();

/**
 * The tiers, in order: the main suite (vitest.config.ts), then the soak tier
 * (vitest.soak.config.ts: long runs under load that must not share the cores with
 * other tests), then a smoke tier on Node NODE_LINE (vitest.nodeLine.config.ts:
 * install, start, the agent CLIs at their latest) run by that Node, installed from
 * npm. Arguments go to every tier, so `npm test -- test/soak/x.test.ts` runs that
 * soak alone; a tier none of whose files match is skipped, not failed.
 */
const TIERS = [
  { name: 'main', config: 'vitest.config.ts', env: () => ({}) },
  { name: 'soak', config: 'vitest.soak.config.ts', env: () => ({}) },
  {
    name: `node ${NODE_LINE}`,
    config: 'vitest.nodeLine.config.ts',
    // Node NODE_LINE first on PATH: vitest runs on it, and so does every `node` and `#!/usr/bin/env node` the tests start.
    env: () => {
      const bin = ensureNodeLine();
      if (!bin) return undefined;
      return { node: path.join(bin, 'node'), clis: ensureLatestAgentClis(bin), PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, PANE_TEST_NODE_LINE: NODE_LINE };
    },
  },
];

let passed = 0;
let failed = 0;
let skipped = 0;
let code = 0;
for (const tier of TIERS) {
  const extra = tier.env();
  if (!extra) {
    // Said why already (no registry, another platform): counted as skipped, never as passed.
    skipped++;
    continue;
  }
  let reportDir;
  try {
    reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-test-'));
  } catch (e) {
    // No room even for the report (ENOSPC): the tier cannot be counted, so it is a failure, named; the next tiers still try.
    console.error(`pane tests: the ${tier.name} tier did not run: ${e.message}`);
    failed++;
    code = 1;
    continue;
  }
  const report = path.join(reportDir, 'report.json');
  const args = [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', tier.config, '--passWithNoTests', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
  // The CLIs the tier drives (the pinned ones, or its own latest), unless the person named others; then the tier's PATH.
  // The tier's own Node runs vitest where it names one.
  const { clis = {}, node = process.execPath, ...own } = extra;
  const env = { ...agentClis, ...clis, ...process.env, ...own, FORCE_COLOR: process.env.CI ? '0' : (process.env.FORCE_COLOR ?? '1') };
  const child = spawn(node, args, { cwd: root, stdio: 'inherit', env });
  const c = await new Promise((resolve) => child.on('exit', (x, sig) => resolve(x ?? (sig ? 1 : 0))));
  let tierFailed = 0;
  try {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    tierFailed = r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    // A suite that failed to load has no tests counted: count it as a failure.
    for (const s of r.testResults ?? []) if (s.status === 'failed' && (s.assertionResults ?? []).length === 0) tierFailed++;
  } catch {
    tierFailed = Math.max(tierFailed, 1);
    console.error(`pane tests: vitest wrote no report for the ${tier.name} tier`);
  }
  fs.rmSync(reportDir, { recursive: true, force: true });
  if (c !== 0 && tierFailed === 0) tierFailed = 1;
  failed += tierFailed;
  if (c !== 0) code = c;
}
if (code !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
