// Two different real agent CLIs, side by side in sandboxed agent panes of one real
// `pane serve` (issue 25: "two different CLIs converging on one topic warned of each
// other"): the Gemini CLI 0.61.0 and the Codex CLI 0.169.0 (pinned in
// scripts/agentClis.mjs), no network, dummy keys. Each reports its prompt only through
// its own hook dialect (Gemini's BeforeAgent, Codex's UserPromptSubmit, both turned into
// pane's UserPromptSubmit); awareness must see both prompts, predict that the two agents
// converge on the same topics, and mark each agent's pane with the other.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxUnavailable } from '../../server/agents/sandbox';
import { BIN, buildOnce, cleanEnv, until } from '../cli/harness';

const gemini = process.env.PANE_TEST_GEMINI;
const codex = process.env.PANE_TEST_CODEX;
const CI_MARKERS = /^(CI|CONTINUOUS_INTEGRATION|BUILD_NUMBER|BUILD_ID|RUN_ID|GITHUB_[A-Z_]+|GITLAB_CI|BUILDKITE|CIRCLECI|TRAVIS|JENKINS_URL|TEAMCITY_VERSION|CI_[A-Z_]+)$/;
const noSandbox = sandboxUnavailable(process.env.PATH);
const skip =
  gemini === undefined || codex === undefined ? 'PANE_TEST_GEMINI or PANE_TEST_CODEX is unset (npm test installs both; run node scripts/agentClis.mjs)' : noSandbox;

let dir: string;
let socket: string;
let project: string;
let server: ChildProcess;
let env: Record<string, string>;
const pane = (args: string[], input = '') => {
  const r = spawnSync(BIN, ['--socket', socket, ...args], { env, input, encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
const PROMPT = 'add jwt auth token refresh to the login session';

describe.skipIf(skip !== null)(`Gemini CLI and Codex CLI, both real, converging${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    buildOnce();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-converge-'));
    socket = path.join(dir, 's.sock');
    project = path.join(dir, 'shop');
    fs.mkdirSync(project);
    spawnSync('git', ['init', '-q', project]);
    env = cleanEnv({ HOME: dir, PATH: `${path.dirname(gemini!)}:${path.dirname(codex!)}:${process.env.PATH}`, GEMINI_API_KEY: 'dummy' });
    for (const k of Object.keys(env)) if (CI_MARKERS.test(k)) delete env[k];
    fs.mkdirSync(path.join(dir, '.codex'));
    fs.writeFileSync(path.join(dir, '.codex', 'auth.json'), JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: 'dummy' }));
    server = spawn(BIN, ['serve', '--socket', socket], { env, stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
    await until('pane serve', () => fs.existsSync(socket) && pane(['ls']).status === 0, 20_000);
  }, 120_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const gone = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
    }
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it('each one’s prompt reaches pane through its own hooks, and each agent’s pane is marked with the other', async () => {
    const ids: Record<string, string> = {};
    for (const [name, app] of [['gem', 'gemini'], ['cx', 'codex']] as const) {
      expect(pane(['agent', 'add', name, '--project', project]).status).toBe(0);
      const home = path.join(dir, '.local/share/pane/agents', name);
      if (name === 'gem') {
        fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
        fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
      } else {
        fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
        fs.writeFileSync(path.join(home, '.codex', 'config.toml'), `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`);
      }
      const run = pane(['agent', 'run', name, '--app', app]);
      expect(run.status, run.stderr).toBe(0);
      ids[name] = run.stdout.trim().split(':').pop()!;
    }
    const screen = (n: string) => pane(['screen', '-t', ids[n]!]).stdout;
    const raw = (n: string, text: string) => spawnSync(BIN, ['--socket', socket, 'send', '--raw', '-t', ids[n]!, '-'], { input: text, env }).status;
    try {
      await until('gem’s prompt box', () => /Type your message/.test(screen('gem')), 90_000).catch((e: Error) => {
        throw new Error(`${e.message}; its screen:\n${screen('gem')}`);
      });
      await until('cx’s composer', () => /›|Ask Codex|to send/.test(screen('cx')), 60_000).catch((e: Error) => {
        throw new Error(`${e.message}; its screen:\n${screen('cx')}`);
      });
      for (const n of ['gem', 'cx']) {
        expect(raw(n, PROMPT)).toBe(0);
        await until(`${n}’s typed prompt`, () => screen(n).includes(PROMPT.slice(0, 30)), 20_000);
        expect(raw(n, '\r')).toBe(0);
      }
      for (const n of ['gem', 'cx']) {
        await until(`${n}’s prompt and topics in pane finger`, () => {
          const f = pane(['finger', n]).stdout;
          return /reported through hooks/.test(f) && f.includes(`Last prompt`) && /Topics: .*(jwt|auth|token)/.test(f) && f;
        }, 90_000).catch((e: Error) => {
          throw new Error(`${e.message}; finger:\n${pane(['finger', n]).stdout}\nits screen:\n${screen(n)}`);
        });
      }
      type Preds = { active: { a: string; b: string; type: string; recommendation: string }[] };
      const preds = await until('a prediction about gem and cx', () => {
        const p = (JSON.parse(pane(['awareness', 'predictions', '--json']).stdout) as Preds).active.filter((x) => [x.a, x.b].sort().join() === 'cx,gem');
        return p.length > 0 ? p : undefined;
      }, 60_000).catch((e: Error) => {
        throw new Error(`${e.message}; predictions:\n${pane(['awareness', 'predictions', '--json']).stdout}`);
      });
      expect(preds.map((p) => p.recommendation).join('\n')).toMatch(/gem.*cx|cx.*gem/);
      const attrs = (n: string) => JSON.parse(pane(['attr', '-t', ids[n]!, '--json']).stdout) as Record<string, string>;
      await until('the converge attr on both panes', () => /cx/.test(attrs('gem')['awareness.converge'] ?? '') && /gem/.test(attrs('cx')['awareness.converge'] ?? ''), 30_000).catch((e: Error) => {
        throw new Error(`${e.message}; gem: ${JSON.stringify(attrs('gem'))}\ncx: ${JSON.stringify(attrs('cx'))}`);
      });
    } finally {
      for (const id of Object.values(ids)) pane(['close', '-t', id]);
    }
  }, 300_000);
});
