// The real Gemini CLI (from npm, pinned in scripts/agentClis.mjs: $PANE_TEST_GEMINI) as a
// pane agent: `pane agent run gem --app gemini` in a real bubblewrap-sandboxed pane of a
// real `pane serve`, with no network and a dummy key. Its home is the agent's (it does
// not die on the person's read-only home, and what it writes lands in the agent's home),
// and its hooks, installed from the app file's dialect into that home, report its session
// and its prompt through the agent's own door: the prompt reaches `pane finger`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../cli/harness';
import { realCliSkip, startRealCliServer, type RealCliServer } from './realCli';

const gemini = process.env.PANE_TEST_GEMINI;
const skip = realCliSkip({ PANE_TEST_GEMINI: gemini });

let s: RealCliServer;
let dir: string;
let project: string;
const pane = (args: string[], input = '') => s.pane(args, input);

describe.skipIf(skip !== null)(`the real Gemini CLI in a sandboxed agent pane${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    s = await startRealCliServer({ prefix: 'pane-gemini-', clis: [gemini!], env: { GEMINI_API_KEY: 'dummy' } });
    ({ dir, project } = s);
  }, 120_000);

  afterAll(() => s?.stop());

  it('runs with the agent’s home as its own, reports its session and prompt through its hooks, and pane finger shows the prompt', async () => {
    expect(pane(['agent', 'add', 'gem', '--project', project]).status).toBe(0);
    const home = path.join(dir, '.local/share/pane/agents/gem');
    // Its own settings from an earlier run (the login it chose, asked once in a fresh home): pane's merge keeps them.
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, hooks: { BeforeAgent: [{ hooks: [{ name: 'its-own', type: 'command', command: 'true' }] }] } }));
    const run = pane(['agent', 'run', 'gem', '--app', 'gemini']);
    expect(run.status, run.stderr).toBe(0);
    const id = run.stdout.trim().split(':').pop()!;
    const screen = () => pane(['screen', '-t', id]).stdout;
    try {
      // Sandboxed, and `pane access` says what its CLI is given: its home, the login it may copy, its hooks and nesting settings.
      const access = pane(['access', 'gem']).stdout;
      expect(access).not.toMatch(/UNSANDBOXED/);
      expect(access).toContain(`its CLI (gemini): HOME=${home} inside its sandbox`);
      expect(access).toMatch(/login: +copies of ~\/\.gemini\/oauth_creds\.json/);
      expect(access).toMatch(/hooks: +gemini dialect, merged into ~\/\.gemini\/settings\.json .*toolSandboxing":false/);
      expect(access).toMatch(/nesting: +GEMINI_SANDBOX=false/);
      // SessionStart, through `pane hook --app gemini` and the agent's own socket.
      await until('gem’s SessionStart through its hook', () => /reported through hooks/.test(pane(['finger', 'gem']).stdout), 90_000);
      // Its CLI made its state in the agent's home, not the person's (read-only inside: the old failure was `mkdir ~/.gemini`).
      expect(fs.existsSync(path.join(home, '.gemini', 'installation_id'))).toBe(true);
      expect(fs.existsSync(path.join(dir, '.gemini'))).toBe(false);
      expect(screen()).not.toMatch(/EROFS|read-only file system|ENOENT.*\.gemini/i);
      const settings = JSON.parse(fs.readFileSync(path.join(home, '.gemini', 'settings.json'), 'utf8'));
      expect(settings.security).toEqual({ auth: { selectedType: 'gemini-api-key' }, toolSandboxing: false });
      expect(settings.hooks.BeforeAgent[0].hooks[0].name).toBe('its-own');
      expect(settings.hooks.BeforeAgent[1].hooks[0].command).toMatch(/hook --app 'gemini'$/);
      // A prompt typed into its TUI: BeforeAgent carries it before the model call fails.
      await until('its prompt box', () => /Type your message/.test(screen()), 60_000).catch((e: Error) => {
        throw new Error(`${e.message}; its screen:\n${screen()}`);
      });
      // Typed as a user does, with one `pane send`: the text, then Enter pressed on its own once the TUI has taken it (a burst would be a paste).
      const sent = pane(['send', '-t', id, 'refactor the auth module']);
      expect(sent.status, sent.stderr).toBe(0);
      const finger = await until('gem’s prompt in pane finger', () => {
        const f = pane(['finger', 'gem']).stdout;
        return /Last prompt .*refactor the auth module/.test(f) && /Topics: .*auth/.test(f) && f;
      }, 90_000).catch((e: Error) => {
        throw new Error(`${e.message}; finger:\n${pane(['finger', 'gem']).stdout}\nits screen:\n${screen()}`);
      });
      expect(finger).toMatch(/reported through hooks/);
      // A file it writes in its home lands in the agent's home: its chat, under ~/.gemini/tmp/<project>/chats.
      await until('its chat in the agent’s home', () => {
        const found = spawnSync('find', [path.join(home, '.gemini', 'tmp'), '-name', 'session-*'], { encoding: 'utf8' }).stdout.trim();
        return found !== '' && found;
      }, 30_000);
      expect(fs.existsSync(path.join(dir, '.gemini'))).toBe(false);
    } finally {
      pane(['close', '-t', id]);
    }
  }, 240_000);
});
