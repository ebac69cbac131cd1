// The real Qwen Code CLI (from npm, pinned in scripts/agentClis.mjs: $PANE_TEST_QWEN) as a
// pane agent: `pane agent run qw --app qwen` in a real bubblewrap-sandboxed pane of a real
// `pane serve`, no network, a dummy key. Its Claude-style hooks, merged from apps/qwen.json's
// dialect into the agent's ~/.qwen/settings.json beside its own settings, report its session
// and prompt through the agent's own door: the prompt reaches `pane finger` with its topics.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../cli/harness';
import { realCliSkip, startRealCliServer, type RealCliServer } from './realCli';

const qwen = process.env.PANE_TEST_QWEN;
const skip = realCliSkip({ PANE_TEST_QWEN: qwen });

let s: RealCliServer;
let dir: string;
let project: string;
const pane = (args: string[], input = '') => s.pane(args, input);

describe.skipIf(skip !== null)(`the real Qwen Code CLI in a sandboxed agent pane${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    s = await startRealCliServer({ prefix: 'pane-qwen-', clis: [qwen!], env: { OPENAI_API_KEY: 'dummy' } });
    ({ dir, project } = s);
  }, 120_000);

  afterAll(() => s?.stop());

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
      // Typed as a user does, with one `pane send`.
      const sent = pane(['send', '-t', id, 'refactor the auth module']);
      expect(sent.status, sent.stderr).toBe(0);
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
