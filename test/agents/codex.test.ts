// The real Codex CLI (from npm, pinned in scripts/agentClis.mjs: $PANE_TEST_CODEX; a Rust
// binary in its npm package) as a pane agent: `pane agent run cx --app codex` in a real
// bubblewrap-sandboxed pane of a real `pane serve`, no network, a dummy key. Its hooks,
// written from apps/codex.json's dialect into the agent's ~/.codex/hooks.json and trusted
// for pane's own entries in its config.toml (Codex runs no hook not installed by an admin
// until it is trusted), report its session and prompt through the agent's own door: the
// prompt reaches `pane finger` with its topics.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../cli/harness';
import { realCliSkip, startRealCliServer, type RealCliServer } from './realCli';

const codex = process.env.PANE_TEST_CODEX;
const skip = realCliSkip({ PANE_TEST_CODEX: codex });

let s: RealCliServer;
let dir: string;
let project: string;
const pane = (args: string[], input = '') => s.pane(args, input);

describe.skipIf(skip !== null)(`the real Codex CLI in a sandboxed agent pane${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    s = await startRealCliServer({ prefix: 'pane-codex-', git: true, clis: [codex!], env: { OPENAI_API_KEY: 'dummy' } });
    ({ dir, project } = s);
  }, 120_000);

  afterAll(() => s?.stop());

  it('runs with its hooks trusted in the agent’s home, reports its session and prompt, and pane finger shows the prompt with its topics', async () => {
    expect(pane(['agent', 'add', 'cx', '--project', project]).status).toBe(0);
    const home = path.join(dir, '.local/share/pane/agents/cx');
    // Its own config from an earlier run: pane's trust block goes beside it.
    fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
    fs.writeFileSync(path.join(home, '.codex', 'config.toml'), `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`);
    // The person's login (an API key login, as `codex login --with-api-key` writes it): pane copies it into the agent's home.
    fs.mkdirSync(path.join(dir, '.codex'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.codex', 'auth.json'), JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: 'dummy' }));
    const run = pane(['agent', 'run', 'cx', '--app', 'codex']);
    expect(run.status, run.stderr).toBe(0);
    const id = run.stdout.trim().split(':').pop()!;
    const screen = () => pane(['screen', '-t', id]).stdout;
    try {
      const access = pane(['access', 'cx']).stdout;
      expect(access).not.toMatch(/UNSANDBOXED/);
      expect(access).toMatch(/hooks: +codex dialect, merged into ~\/\.codex\/hooks\.json .*trusted in its config\.toml/);
      const toml = fs.readFileSync(path.join(home, '.codex', 'config.toml'), 'utf8');
      expect(toml).toContain(`[projects.${JSON.stringify(project)}]`);
      expect(toml).toMatch(/# >>> pane hooks trust[\s\S]*\[hooks\.state\."[^"]*hooks\.json:user_prompt_submit:0:0"\]\ntrusted_hash = "sha256:/);
      const raw = (text: string) => s.raw(id, text);
      // Its composer, once its start-up screens are past (a trust question, if any, answered yes).
      await until('its composer', () => {
        const s = screen();
        if (/trust|Trust/.test(s) && /1\./.test(s) && !/› /.test(s)) raw('1\r');
        return /›|Ask Codex|to send/.test(s);
      }, 60_000).catch((e: Error) => {
        throw new Error(`${e.message}; its screen:\n${screen()}`);
      });
      // Typed as a user does, with one `pane send` (Codex reads a text+Enter burst as a paste: the Enter must be a key of its own).
      const sent = pane(['send', '-t', id, 'refactor the auth module']);
      expect(sent.status, sent.stderr).toBe(0);
      const finger = await until('cx’s prompt in pane finger', () => {
        const f = pane(['finger', 'cx']).stdout;
        return /Last prompt .*refactor the auth module/.test(f) && /Topics: .*auth/.test(f) && f;
      }, 90_000).catch((e: Error) => {
        throw new Error(`${e.message}; finger:\n${pane(['finger', 'cx']).stdout}\nits screen:\n${screen()}`);
      });
      expect(finger).toMatch(/reported through hooks/);
      // pane's hooks are ones Codex takes as written: no start-up warning (it clamped SessionEnd's timeout of 5 s to 3 s and said so).
      expect(screen()).not.toMatch(/\d+ warning/);
      // Its sessions land in the agent's home (CODEX_HOME is the agent's), not the person's.
      expect(fs.existsSync(path.join(home, '.codex', 'sessions'))).toBe(true);
      expect(fs.readdirSync(path.join(dir, '.codex'))).toEqual(['auth.json']);
    } finally {
      pane(['close', '-t', id]);
    }
  }, 240_000);

  it('keeps the folder trust the person gave it: answered once in a fresh home, not asked again at the next launch', async () => {
    expect(pane(['agent', 'add', 'cy', '--project', project]).status).toBe(0);
    const home = path.join(dir, '.local/share/pane/agents/cy');
    // The person's API-key login, which pane copies in (without one Codex asks how to log in first).
    fs.mkdirSync(path.join(dir, '.codex'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.codex', 'auth.json'), JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: 'dummy' }));
    const launch = () => {
      const run = pane(['agent', 'run', 'cy', '--app', 'codex']);
      expect(run.status, run.stderr).toBe(0);
      return run.stdout.trim().split(':').pop()!;
    };
    const first = launch();
    const screen = (id: string) => pane(['screen', '-t', id]).stdout;
    const TRUST = /Trust this folder\?/;
    // A fresh home: its composer shows, then (a few seconds on) Codex asks whether to trust the folder.
    await until('the trust question', () => TRUST.test(screen(first)), 90_000).catch((e: Error) => {
      throw new Error(`${e.message}; its screen:\n${screen(first)}`);
    });
    // While the question is up it needs the person, whatever its hooks said.
    await until('cy to need the person', () => /State: needs you .*question on screen|State: needs you/.test(pane(['finger', 'cy']).stdout), 20_000).catch((e: Error) => {
      throw new Error(`${e.message}; finger:\n${pane(['finger', 'cy']).stdout}`);
    });
    // The person answers as they would: 1 (Trust and continue), with pane send.
    expect(pane(['send', '-t', first, '1']).status).toBe(0);
    await until('its composer, past the question', () => !TRUST.test(screen(first)) && /Ask Codex/.test(screen(first)), 30_000).catch((e: Error) => {
      throw new Error(`${e.message}; its screen:\n${screen(first)}`);
    });
    await until('cy no longer needing the person', () => !/State: needs you/.test(pane(['finger', 'cy']).stdout), 20_000).catch((e: Error) => {
      throw new Error(`${e.message}; finger:\n${pane(['finger', 'cy']).stdout}`);
    });
    const toml = () => fs.readFileSync(path.join(home, '.codex', 'config.toml'), 'utf8');
    await until('Codex to record the trust', () => toml().includes(`[projects.${JSON.stringify(project)}]`), 20_000).catch((e: Error) => {
      throw new Error(`${e.message}; config.toml:\n${toml()}`);
    });
    pane(['close', '-t', first]);
    // Relaunched (pane rewrites its hooks and their trust at each launch): its composer, and no question in the seconds it took to come the first time.
    const second = launch();
    try {
      await until('its composer', () => /Ask Codex/.test(screen(second)), 90_000);
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        expect(screen(second)).not.toMatch(TRUST);
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(toml()).toContain(`[projects.${JSON.stringify(project)}]`);
    } finally {
      pane(['close', '-t', second]);
    }
  }, 240_000);
});
