// Different real agent CLIs, side by side in sandboxed agent panes of one real
// `pane serve` (issue 25: "two different CLIs converging on one topic warned of each
// other"): the Gemini CLI and the Codex CLI (pinned in scripts/agentClis.mjs) in one
// repository, asked in different words about one file, and Qwen Code in another
// repository, asked in nearly gem's words about other code; no network, dummy keys.
// Each reports its prompt only through its own hook dialect (Gemini's BeforeAgent,
// Codex's and Qwen's UserPromptSubmit); awareness must predict that the two on one
// file converge, rank them above the pair that only shares words (issue 34: place
// weighs more than words), mark each pane with the other, and finger must say so.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../cli/harness';
import { quietly } from './helpers';
import { realCliSkip, startRealCliServer, type RealCliServer } from './realCli';

const gemini = process.env.PANE_TEST_GEMINI;
const codex = process.env.PANE_TEST_CODEX;
const qwen = process.env.PANE_TEST_QWEN;
const skip = realCliSkip({ PANE_TEST_GEMINI: gemini, PANE_TEST_CODEX: codex, PANE_TEST_QWEN: qwen });

let s: RealCliServer;
let dir: string;
let project: string;
const pane = (args: string[], input = '') => s.pane(args, input);
/** gem and cx: one file of one repository, in different words. qw: another repository, nearly gem's words, no file. */
const PROMPTS: Record<string, string> = {
  gem: 'the refresh token expiry check in src/auth/token.ts fails after a retry',
  cx: 'rotate the signing key that src/auth/token.ts uses for jwt',
  qw: 'the refresh token expiry check fails after a retry in the login cache',
};
let other: string;

describe.skipIf(skip !== null)(`Gemini CLI and Codex CLI on one file, Qwen Code elsewhere, all real, converging${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    s = await startRealCliServer({ prefix: 'pane-converge-', project: 'shop', git: true, clis: [gemini!, codex!, qwen!], env: { GEMINI_API_KEY: 'dummy', OPENAI_API_KEY: 'dummy' } });
    ({ dir, project } = s);
    fs.mkdirSync(path.join(project, 'src', 'auth'), { recursive: true });
    fs.writeFileSync(path.join(project, 'src', 'auth', 'token.ts'), 'export const token = 1;\n');
    other = path.join(dir, 'blog');
    fs.mkdirSync(other);
    execFileSync('git', ['init', '-q', other]);
    // The person's Codex login (an API key login): pane copies it into the agent's home at launch.
    fs.mkdirSync(path.join(dir, '.codex'));
    fs.writeFileSync(path.join(dir, '.codex', 'auth.json'), JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: 'dummy' }));
  }, 120_000);

  // A pane one-shot that an agent's hook ran may still be writing its code cache into the temp home as it exits.
  afterAll(async () => {
    if (s) await quietly(() => s.stop(), s.dir);
  });

  it('each one’s prompt reaches pane through its own hooks; the two on one file rank above the pair that shares words elsewhere, on their tags and in finger', async () => {
    const ids: Record<string, string> = {};
    for (const [name, app] of [['gem', 'gemini'], ['cx', 'codex'], ['qw', 'qwen']] as const) {
      expect(pane(['agent', 'add', name, '--project', name === 'qw' ? other : project]).status).toBe(0);
      const home = path.join(dir, '.local/share/pane/agents', name);
      if (name === 'gem') {
        fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
        fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
      } else if (name === 'qw') {
        fs.mkdirSync(path.join(home, '.qwen'), { recursive: true });
        fs.writeFileSync(path.join(home, '.qwen', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'openai' } } }));
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
      await until('qw’s prompt box', () => /Type your message/.test(screen('qw')), 90_000).catch((e: Error) => {
        throw new Error(`${e.message}; its screen:\n${screen('qw')}`);
      });
      for (const n of ['gem', 'cx', 'qw']) {
        // Typed as a user does, with one `pane send`.
        const sent = pane(['send', '-t', ids[n]!, PROMPTS[n]!]);
        expect(sent.status, sent.stderr).toBe(0);
      }
      for (const n of ['gem', 'cx', 'qw']) {
        await until(`${n}’s prompt and topics in pane finger`, () => {
          const f = pane(['finger', n]).stdout;
          return /reported through hooks/.test(f) && f.includes(`Last prompt`) && /Topics: .*(token|key|jwt)/.test(f) && f;
        }, 90_000).catch((e: Error) => {
          throw new Error(`${e.message}; finger:\n${pane(['finger', n]).stdout}\nits screen:\n${screen(n)}`);
        });
      }
      type Preds = { active: { a: string; b: string; type: string; confidence: number; topics: string[]; recommendation: string }[] };
      const active = () => (JSON.parse(pane(['awareness', 'predictions', '--json']).stdout) as Preds).active;
      const best = (pair: string) => Math.max(0, ...active().filter((x) => [x.a, x.b].sort().join() === pair).map((x) => x.confidence));
      const preds = await until('a prediction about gem and cx', () => {
        const p = active().filter((x) => [x.a, x.b].sort().join() === 'cx,gem');
        return p.length > 0 ? p : undefined;
      }, 60_000).catch((e: Error) => {
        throw new Error(`${e.message}; predictions:\n${pane(['awareness', 'predictions', '--json']).stdout}`);
      });
      expect(preds.map((p) => p.recommendation).join('\n')).toMatch(/gem.*cx|cx.*gem/);
      expect(preds.some((p) => p.topics.includes('token.ts')), JSON.stringify(preds)).toBe(true);
      // One file in one repository outranks many shared words in two repositories.
      expect(best('cx,gem'), JSON.stringify(active())).toBeGreaterThan(best('gem,qw'));
      expect(best('cx,gem'), JSON.stringify(active())).toBeGreaterThan(best('cx,qw'));
      // finger names the strongest first, as the tag does.
      expect(pane(['finger', 'gem']).stdout).toMatch(/^Converging with: cx \d+% on .*token\.ts/m);
      // The agents board's file says it too, the strongest first.
      const board = pane(['cat', '/agents']).stdout.trim().split('\n').map((l) => JSON.parse(l) as { name: string; converges: string[] });
      expect(board.find((a) => a.name === 'gem')?.converges[0], JSON.stringify(board)).toMatch(/^cx \d+% on .*token\.ts/);
      const attrs = (n: string) => JSON.parse(pane(['attr', '-t', ids[n]!, '--json']).stdout) as Record<string, string>;
      await until('the converge attr on both panes, the strongest peer first', () => /^cx/.test(attrs('gem')['awareness.converge'] ?? '') && /^gem/.test(attrs('cx')['awareness.converge'] ?? ''), 30_000).catch((e: Error) => {
        throw new Error(`${e.message}; gem: ${JSON.stringify(attrs('gem'))}\ncx: ${JSON.stringify(attrs('cx'))}`);
      });
    } finally {
      for (const id of Object.values(ids)) pane(['close', '-t', id]);
    }
  }, 300_000);
});
