// `npm test`: makes sure the system packages the suites use are there, runs
// every suite with vitest, and ends with one line "N passed, N failed, N skipped".
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

const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pane-test-')), 'report.json');
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const child = spawn('npx', args, { cwd: root, stdio: 'inherit', env: { ...agentClis, ...process.env, FORCE_COLOR: process.env.CI ? '0' : (process.env.FORCE_COLOR ?? '1') } });
const code = await new Promise((resolve) => child.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0))));

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests;
  skipped = r.numPendingTests + (r.numTodoTests ?? 0);
  // A suite that failed to load has no tests counted: count it as a failure.
  for (const s of r.testResults ?? []) if (s.status === 'failed' && (s.assertionResults ?? []).length === 0) failed++;
} catch {
  failed = Math.max(failed, 1);
  console.error('pane tests: vitest wrote no report');
}
if (code !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
