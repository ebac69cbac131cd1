// The real agent CLIs the suites drive (issue 23: "the hook request Claude Code
// makes, sent from inside a sandboxed agent pane"; issue 25: every CLI pane
// integrates), installed from npm at pinned versions into the checkout's cache,
// not globally: node_modules/.cache/pane/agent-clis. Each is handed to the tests
// by an environment variable naming its binary; a test skips, saying why, where
// the variable is unset (an install that failed: no registry).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prefix = path.join(root, 'node_modules', '.cache', 'pane', 'agent-clis');

/**
 * Pinned: the CLIs change their hook payloads and flags monthly, and a test
 * must not change meaning under us. Raise a version on purpose, with the tests.
 */
const CLIS = [
  // Fires its hooks with no network (`claude -p` posts UserPromptSubmit before it reaches for its model).
  { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude', env: 'PANE_TEST_CLAUDE' },
  // Fires SessionStart and BeforeAgent (with the prompt) with no network and GEMINI_API_KEY=dummy, before its model call fails.
  { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini', env: 'PANE_TEST_GEMINI' },
  // A Rust binary in its npm package (@openai/codex-linux-x64): fires SessionStart and UserPromptSubmit (with the prompt)
  // with no network and OPENAI_API_KEY=dummy, once its hooks are trusted (pane writes the trust for its own entries).
  { pkg: '@openai/codex', version: '0.169.0', bin: 'codex', env: 'PANE_TEST_CODEX' },
  // Claude-style hooks in ~/.qwen/settings.json: SessionStart and UserPromptSubmit fire with no network and a dummy key.
  { pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen', env: 'PANE_TEST_QWEN' },
];
// Not pinned here, though on npm and runnable: @github/copilot (checks its GitHub token online before any hook),
// opencode-ai and @sourcegraph/amp (no hook or plugin event fires without their servers). Their fixtures are from docs.


/** An install of all of them: a few hundred MB from the registry the first time, seconds from npm's cache. */
const INSTALL_MS = 600_000;

/** Installs the missing CLIs; returns the environment that names each installed binary. */
export function ensureAgentClis({ quiet = false } = {}) {
  const env = {};
  const binOf = (c) => path.join(prefix, 'node_modules', '.bin', c.bin);
  const versionOf = (c) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(prefix, 'node_modules', c.pkg, 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  const missing = CLIS.filter((c) => versionOf(c) !== c.version || !fs.existsSync(binOf(c)));
  if (missing.length > 0) {
    fs.mkdirSync(prefix, { recursive: true });
    // Their install scripts fetch or pick each CLI's own binary: allowed here, by name (npm ≥ 11 asks).
    const allowScripts = Object.fromEntries(CLIS.map((c) => [c.pkg, true]));
    fs.writeFileSync(path.join(prefix, 'package.json'), `${JSON.stringify({ private: true, allowScripts }, null, 2)}\n`);
    // All of them, not only the missing: `npm install --no-save X` prunes every package not named (the others).
    const specs = CLIS.map((c) => `${c.pkg}@${c.version}`);
    if (!quiet) console.log(`pane tests: installing ${specs.join(', ')} (agent CLIs the suites drive) into ${path.relative(root, prefix)}`);
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...specs], { cwd: prefix, encoding: 'utf8', timeout: INSTALL_MS });
    if (r.status !== 0) console.warn(`pane tests: could not install ${specs.join(', ')} (${(r.stderr || r.error?.message || '').split('\n').find((l) => /ERR|Error/.test(l)) ?? `exit ${r.status}`}); the tests that drive them will skip`);
  }
  for (const c of CLIS) if (versionOf(c) === c.version && fs.existsSync(binOf(c))) env[c.env] = binOf(c);
  return env;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureAgentClis());
