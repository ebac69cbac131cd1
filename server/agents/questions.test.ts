// First-run, login and trust questions as the real CLIs draw them (recorded here from
// Gemini CLI 0.61.0, Qwen Code 0.24.4, Codex 0.169.0 and Claude Code 2.1.332 in fresh
// homes): each is a question on screen (needs you), and the composer each shows once
// answered is not — not even Claude's "Not logged in · run /login" hint.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PromptLibrary } from './prompts';
import { observeScreen, questionOnScreen } from './status';

const lib = new PromptLibrary(null);

const SCREENS: Record<string, { asks: string; answered: string }> = {
  gemini: {
    asks: `Tips for getting started:
╭──────────────────────────────────────────────╮
│ ? Get started                                │
│   How would you like to authenticate for this project?   │
│     1. Sign in with Google                   │
│   ● 2. Use Gemini API Key                    │
│   (Use Enter to select)                      │
╰──────────────────────────────────────────────╯`,
    answered: `╭──────────────────────────────────────╮
│ >   Type your message or @path/to/file │
╰──────────────────────────────────────╯
 ~/proj                 no sandbox              gemini-2.5-pro`,
  },
  qwen: {
    asks: `  ┌──────────────────────────────────────────────┐
  │ Connect a Provider                           │
  │ › Alibaba ModelStudio                        │
  │   Third-party Providers                      │
  └──────────────────────────────────────────────┘`,
    answered: `│ >   Type your message or @path/to/file │`,
  },
  codex: {
    asks: `  Folder access
  /tmp/cx/proj
  Trust this folder? Codex can read, edit, and run files here, subject to your
› 1. Trust and continue
  2. Back to Agent Command Center
  enter continue · esc back`,
    answered: `  >_ OpenAI Codex (v0.169.0)
     /tmp/cx/proj
› Ask Codex to do anything
  ? for shortcuts`,
  },
  claude: {
    asks: ` Quick safety check: Is this a project you created or one you trust? (Like your
 own code, a well-known open source project, or work from your team). If not,
 Claude Code'll be able to read, edit, and execute files here.
 ❯ No, exit
   Yes, I trust this folder
 Enter to confirm · Esc to cancel`,
    answered: `────────────────────────────────────────
❯
────────────────────────────────────────
  ⏵⏵ auto mode on (shift+tab to cycle) · ← for agents
                                 Not logged in · run /login`,
  },
};

describe('questions on screen', () => {
  for (const [cli, s] of Object.entries(SCREENS)) {
    it(`${cli}: its first-run question is "needs you", its composer once answered is not`, () => {
      const p = lib.get(cli);
      expect(p.name).toBe(cli);
      expect(questionOnScreen(s.asks, p), cli).not.toBeNull();
      expect(observeScreen(s.asks, p).state).toBe('waiting');
      expect(questionOnScreen(s.answered, p), cli).toBeNull();
      expect(observeScreen(s.answered, p).state).not.toBe('waiting');
    });
  }

  it('has a prompts file with questions for every agent CLI pane ships an app file for', () => {
    const dir = path.resolve(__dirname, '../../apps');
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json'))) {
      const app = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
      if (app.kind !== 'agent' || f === 'demo-agent.json') continue;
      const p = lib.get(app.agent?.prompts ?? f.slice(0, -5));
      expect(p.name, f).not.toBe('default');
      expect(p.questions.length, f).toBeGreaterThan(0);
    }
    expect(lib.errors).toEqual([]);
  });
});
