// The real Qwen Code CLI (from npm, pinned in scripts/agentClis.mjs: $PANE_TEST_QWEN) as a
// pane agent: `pane agent run qw --app qwen` in a real bubblewrap-sandboxed pane of a real
// `pane serve`, no network, a dummy key. Its Claude-style hooks, merged from apps/qwen.json's
// dialect into the agent's ~/.qwen/settings.json beside its own settings, report its session
// and prompt through the agent's own door: the prompt reaches `pane finger` with its topics.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxUnavailable } from '../../server/agents/sandbox';
import { BIN, buildOnce, cleanEnv, until } from '../cli/harness';

const qwen = process.env.PANE_TEST_QWEN;
const CI_MARKERS = /^(CI|CONTINUOUS_INTEGRATION|BUILD_NUMBER|BUILD_ID|RUN_ID|GITHUB_[A-Z_]+|GITLAB_CI|BUILDKITE|CIRCLECI|TRAVIS|JENKINS_URL|TEAMCITY_VERSION|CI_[A-Z_]+)$/;
const noSandbox = sandboxUnavailable(process.env.PATH);
const skip = qwen === undefined ? 'PANE_TEST_QWEN is unset (npm test installs @qwen-code/qwen-code; run node scripts/agentClis.mjs)' : noSandbox;

let dir: string;
let socket: string;
let project: string;
let server: ChildProcess;
let env: Record<string, string>;
const pane = (args: string[], input = '') => {
  const r = spawnSync(BIN, ['--socket', socket, ...args], { env, input, encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe.skipIf(skip !== null)(`the real Qwen Code CLI in a sandboxed agent pane${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    buildOnce();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-qwen-'));
    socket = path.join(dir, 's.sock');
    project = path.join(dir, 'proj');
    fs.mkdirSync(project);
    env = cleanEnv({ HOME: dir, PATH: `${path.dirname(qwen!)}:${process.env.PATH}`, OPENAI_API_KEY: 'dummy' });
    for (const k of Object.keys(env)) if (CI_MARKERS.test(k)) delete env[k];
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

  it('reports its session and prompt through its Claude-style hooks, merged beside its own settings, and pane finger shows the prompt', async () => {
    expect(pane(['agent', 'add', 'qw', '--project', project]).status).toBe(0);
    const home = path.join(dir, '.local/share/pane/agents/qw');
    // Its own settings (the login it chose, asked once in a fresh home): pane's merge keeps them.
    fs.mkdirSync(path.join(home, '.qwen'), { recursive: true });
    fs.writeFileSync(path.join(home, '.qwen', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'openai' } }, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } }));
    const run = pane(['agent', 'run', 'qw', '--app', 'qwen']);
    expect(run.status, run.stderr).toBe(0);
    const id = run.stdout.trim().split(':').pop()!;
    const screen = () => pane(['screen', '-t', id]).stdout;
    try {
      expect(pane(['access', 'qw']).stdout).toMatch(/hooks: +qwen dialect, merged into ~\/\.qwen\/settings\.json/);
      await until('qw’s SessionStart through its hook', () => /reported through hooks/.test(pane(['finger', 'qw']).stdout), 90_000).catch((e: Error) => {
        throw new Error(`${e.message}; its screen:\n${screen()}`);
      });
      const settings = JSON.parse(fs.readFileSync(path.join(home, '.qwen', 'settings.json'), 'utf8'));
      expect(settings.security).toEqual({ auth: { selectedType: 'openai' } });
      expect(settings.hooks.Stop[0]).toEqual({ hooks: [{ type: 'command', command: 'true' }] });
      expect(settings.hooks.UserPromptSubmit[0].hooks[0].command).toMatch(/hook --app 'qwen'$/);
      await until('its prompt box', () => /Type your message/.test(screen()), 60_000).catch((e: Error) => {
        throw new Error(`${e.message}; its screen:\n${screen()}`);
      });
      const raw = (text: string) => spawnSync(BIN, ['--socket', socket, 'send', '--raw', '-t', id, '-'], { input: text, env }).status;
      expect(raw('refactor the auth module')).toBe(0);
      await until('the typed prompt', () => /refactor the auth module/.test(screen()), 20_000);
      expect(raw('\r')).toBe(0);
      const finger = await until('qw’s prompt in pane finger', () => {
        const f = pane(['finger', 'qw']).stdout;
        return /Last prompt .*refactor the auth module/.test(f) && /Topics: .*auth/.test(f) && f;
      }, 90_000).catch((e: Error) => {
        throw new Error(`${e.message}; finger:\n${pane(['finger', 'qw']).stdout}\nits screen:\n${screen()}`);
      });
      expect(finger).toMatch(/reported through hooks/);
      expect(fs.existsSync(path.join(dir, '.qwen'))).toBe(false);
    } finally {
      pane(['close', '-t', id]);
    }
  }, 240_000);
});
