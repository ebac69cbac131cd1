// `npm test`: makes sure the system packages the suites use are there, runs
// every suite with vitest (the main tier, then the soak tier), and ends with one line "N passed, N failed, N skipped".
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureAgentClis } from './agentClis.mjs';
import { ensureSystemDeps } from './systemDeps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
ensureSystemDeps();
const agentClis = ensureAgentClis();

/**
 * The tiers, in order: the main suite (vitest.config.ts), then the soak tier
 * (vitest.soak.config.ts: long runs under load that must not share the cores with
 * other tests). Arguments go to both, so `npm test -- test/soak/x.test.ts` runs that
 * soak alone; a tier none of whose files match is skipped, not failed.
 */
const TIERS = [
  { name: 'main', config: 'vitest.config.ts' },
  { name: 'soak', config: 'vitest.soak.config.ts' },
];

let passed = 0;
let failed = 0;
let skipped = 0;
let code = 0;
for (const tier of TIERS) {
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pane-test-')), 'report.json');
  const args = ['vitest', 'run', '--config', tier.config, '--passWithNoTests', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
  const child = spawn('npx', args, { cwd: root, stdio: 'inherit', env: { ...agentClis, ...process.env, FORCE_COLOR: process.env.CI ? '0' : (process.env.FORCE_COLOR ?? '1') } });
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
  if (c !== 0 && tierFailed === 0) tierFailed = 1;
  failed += tierFailed;
  if (c !== 0) code = c;
}
if (code !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
