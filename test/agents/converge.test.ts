// Two different real agent CLIs, side by side in sandboxed agent panes of one real
// `pane serve` (issue 25: "two different CLIs converging on one topic warned of each
// other"): the Gemini CLI 0.61.0 and the Codex CLI 0.169.0 (pinned in
// scripts/agentClis.mjs), no network, dummy keys. Each reports its prompt only through
// its own hook dialect (Gemini's BeforeAgent, Codex's UserPromptSubmit, both turned into
// pane's UserPromptSubmit); awareness must see both prompts, predict that the two agents
// converge on the same topics, and mark each agent's pane with the other.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../cli/harness';
import { realCliSkip, startRealCliServer, type RealCliServer } from './realCli';

const gemini = process.env.PANE_TEST_GEMINI;
const codex = process.env.PANE_TEST_CODEX;
const skip = realCliSkip({ PANE_TEST_GEMINI: gemini, PANE_TEST_CODEX: codex });

let s: RealCliServer;
let dir: string;
let project: string;
const pane = (args: string[], input = '') => s.pane(args, input);
const PROMPT = 'add jwt auth token refresh to the login session';

describe.skipIf(skip !== null)(`Gemini CLI and Codex CLI, both real, converging${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    s = await startRealCliServer({ prefix: 'pane-converge-', project: 'shop', git: true, clis: [gemini!, codex!], env: { GEMINI_API_KEY: 'dummy' } });
    ({ dir, project } = s);
    // The person's Codex login (an API key login): pane copies it into the agent's home at launch.
    fs.mkdirSync(path.join(dir, '.codex'));
    fs.writeFileSync(path.join(dir, '.codex', 'auth.json'), JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: 'dummy' }));
  }, 120_000);

  afterAll(() => s?.stop());

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
    try {
      await until('gem’s prompt box', () => /Type your message/.test(screen('gem')), 90_000).catch((e: Error) => {
        throw new Error(`${e.message}; its screen:\n${screen('gem')}`);
      });
      await until('cx’s composer', () => /›|Ask Codex|to send/.test(screen('cx')), 60_000).catch((e: Error) => {
        throw new Error(`${e.message}; its screen:\n${screen('cx')}`);
      });
      for (const n of ['gem', 'cx']) {
        // Typed as a user does, with one `pane send`.
        const sent = pane(['send', '-t', ids[n]!, PROMPT]);
        expect(sent.status, sent.stderr).toBe(0);
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
