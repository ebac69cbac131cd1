// `pane hook install|uninstall --agent APP [--print]` with the built pane (issue 25.2), for
// a person's own use of an agent CLI, in a temporary HOME: --print changes nothing; Codex's
// hooks.json gets pane's entries beside the person's and their trust, and uninstall leaves
// the person's file as it was; Claude's is per process (a --settings file in pane's data
// dir, nothing in the home); an unparseable file is refused and left byte for byte. Then
// `pane hook --app copilot --event preToolUse` with Copilot's payload (no event name in it)
// reaches a real server, and the file its edit names becomes the agent's claim.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, buildOnce, cleanEnv, servePerFile, until } from '../cli/harness';

buildOnce();

const homes: string[] = [];
afterAll(() => {
  for (const d of homes) fs.rmSync(d, { recursive: true, force: true });
});

function home() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-hia-'));
  homes.push(dir);
  const env = cleanEnv({ HOME: dir, XDG_DATA_HOME: path.join(dir, 'data'), XDG_CONFIG_HOME: path.join(dir, 'config') });
  delete env.CODEX_HOME;
  const run = (args: string[]) => spawnSync(process.execPath, [BIN, 'hook', ...args], { env, encoding: 'utf8', timeout: 20_000 });
  return { dir, run };
}

describe('pane hook install --agent', () => {
  it('codex: --print writes nothing; install puts pane’s entries beside the person’s with their trust; uninstall leaves the person’s file as it was', () => {
    const { dir, run } = home();
    const file = path.join(dir, '.codex', 'hooks.json');
    fs.mkdirSync(path.dirname(file));
    const mine = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] } });
    fs.writeFileSync(file, mine);
    fs.writeFileSync(path.join(dir, '.codex', 'config.toml'), 'model = "gpt-5"\n');
    const printed = run(['install', '--agent', 'codex', '--print']);
    expect(printed.status, printed.stderr).toBe(0);
    expect(printed.stdout).toContain(`${file}: would be written (pane's entries beside yours, which stay)`);
    expect(printed.stdout).toMatch(/hook --app 'codex'/);
    expect(fs.readFileSync(file, 'utf8')).toBe(mine);
    expect(fs.readFileSync(path.join(dir, '.codex', 'config.toml'), 'utf8')).toBe('model = "gpt-5"\n');
    const inst = run(['install', '--agent', 'codex']);
    expect(inst.status, inst.stderr).toBe(0);
    const after = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(after.hooks.Stop[0]).toEqual({ hooks: [{ type: 'command', command: 'notify-send done' }] });
    expect(after.hooks.UserPromptSubmit[0].hooks[0].command).toMatch(/hook --app 'codex'$/);
    expect(fs.readFileSync(path.join(dir, '.codex', 'config.toml'), 'utf8')).toMatch(/^model = "gpt-5"\n[\s\S]*\[hooks\.state\."[^"]+:user_prompt_submit:0:0"\]/);
    const un = run(['uninstall', '--agent', 'codex']);
    expect(un.status, un.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(JSON.parse(mine));
    expect(fs.readFileSync(path.join(dir, '.codex', 'config.toml'), 'utf8')).toBe('model = "gpt-5"\n');
  });

  it('claude: per process, a --settings file in pane’s data dir and nothing in the home', () => {
    const { dir, run } = home();
    const r = run(['install', '--agent', 'claude']);
    expect(r.status, r.stderr).toBe(0);
    const settings = path.join(dir, 'data', 'pane', 'cli-hooks', 'claude', 'claude-settings.json');
    expect(r.stdout).toContain(`start it with: --settings ${settings}`);
    expect(JSON.parse(fs.readFileSync(settings, 'utf8')).hooks.UserPromptSubmit[0].hooks[0].command).toMatch(/hook --app 'claude'$/);
    // No settings in the home; `.cache` is the CLI's own code cache on Node < 22.1 (kits/node/codeCache.ts), which no agent CLI reads.
    expect(fs.readdirSync(dir).filter((f) => f !== '.cache').sort()).toEqual(['data']);
  });

  it('refuses a file it cannot parse and leaves it byte for byte; an app with no dialect is refused by name', () => {
    const { dir, run } = home();
    fs.mkdirSync(path.join(dir, '.qwen'));
    fs.writeFileSync(path.join(dir, '.qwen', 'settings.json'), '{ "hooks": ');
    const r = run(['install', '--agent', 'qwen']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/settings\.json is not valid JSON .*pane will not overwrite it/);
    expect(fs.readFileSync(path.join(dir, '.qwen', 'settings.json'), 'utf8')).toBe('{ "hooks": ');
    const none = run(['install', '--agent', 'terminal']);
    expect(none.status).not.toBe(0);
    expect(none.stderr).toMatch(/terminal: its app file names no hook dialect/);
  });
});

describe('a Copilot hook through pane hook --app copilot --event', () => {
  const s = servePerFile();
  it('reaches the server without an event name in its payload; the file its edit names meets another agent’s write, and the warning comes back in Copilot’s form', async () => {
    for (const n of ['ada', 'cop']) expect(s.pane(['agent', 'add', n]).status).toBe(0);
    const file = path.join(s.dir, 'src', 'auth.ts');
    const as = (agent: string, args: string[], payload: Record<string, unknown>) => s.pane(['hook', ...args], { input: JSON.stringify(payload), env: cleanEnv({ HOME: s.dir, PANE_AGENT: agent }) });
    // ada (Claude Code's own hooks) writes the file.
    expect(as('ada', [], { hook_event_name: 'UserPromptSubmit', session_id: 'ada-1', cwd: s.dir, prompt: 'fix the auth token expiry' }).status).toBe(0);
    expect(as('ada', [], { hook_event_name: 'PostToolUse', session_id: 'ada-1', cwd: s.dir, tool_name: 'Edit', tool_input: { file_path: file }, tool_response: {} }).status).toBe(0);
    // cop (Copilot: camelCase, no event name in the payload, toolArgs a JSON string) edits it too.
    const base = { sessionId: 'c0p-1', timestamp: Date.now(), cwd: s.dir };
    const cop = (event: string, payload: Record<string, unknown>) => as('cop', ['--app', 'copilot', '--event', event], { ...base, ...payload });
    expect(cop('userPromptSubmitted', { prompt: 'refactor the auth module' }).stdout).toBe('');
    const post = cop('postToolUse', { toolName: 'edit', toolArgs: JSON.stringify({ path: file }), toolResult: { resultType: 'success' } });
    expect(post.status).toBe(0);
    // Copilot reads context at the top of a postToolUse answer: the collision, naming ada.
    expect(JSON.parse(post.stdout)).toEqual({ additionalContext: expect.stringMatching(/pane awareness warning: .*auth\.ts was also written or claimed by ada/) });
    const finger = await until('cop’s prompt through its hooks', () => {
      const f = s.pane(['finger', 'cop']).stdout;
      return /Last prompt.*refactor the auth module/.test(f) && /reported through hooks/.test(f) && f;
    }, 20_000);
    expect(finger).toMatch(/Topics: .*auth/);
    // Copilot takes pane's context; goose ignores what hooks print, and finger says so.
    expect(finger).not.toMatch(/takes no context/);
    expect(s.pane(['agent', 'add', 'goo', '--app', 'goose']).status).toBe(0);
    expect(s.pane(['finger', 'goo']).stdout).toMatch(/Its CLI \(goose hooks\) takes no context from pane: peers and claims reach it as mail only\./);
    expect((JSON.parse(s.pane(['finger', '--json', 'goo']).stdout) as { reports: unknown }).reports).toEqual({ dialect: 'goose', context: false });
  });
});
