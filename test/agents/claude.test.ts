// The real Claude Code (from npm, pinned in scripts/agentClis.mjs: $PANE_TEST_CLAUDE) as a
// pane agent: `pane agent run cl --app claude` in a real bubblewrap-sandboxed pane of a real
// `pane serve`, no network. Claude Code runs no http hook for SessionStart (measured with
// 2.1.197 and 2.1.332), so pane's --settings file gives that event a command hook
// (bin/pane-hook): its session is reported the moment it starts, before any prompt.
// Offline, a fresh home exits at once on Claude's own connectivity check ("Unable to
// connect to Anthropic services"), so its onboarding flag is set as a home that has
// been through it once; the folder-trust question it asks next is answered as a person
// does, with pane send.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../cli/harness';
import { realCliSkip, startRealCliServer, type RealCliServer } from './realCli';

const claude = process.env.PANE_TEST_CLAUDE;
const skip = realCliSkip({ PANE_TEST_CLAUDE: claude });

let s: RealCliServer;
const pane = (args: string[], input = '') => s.pane(args, input);

describe.skipIf(skip !== null)(`the real Claude Code in a sandboxed agent pane${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    s = await startRealCliServer({ prefix: 'pane-claude-', git: true, clis: [claude!], env: {} });
  }, 120_000);
  afterAll(() => s?.stop());

  it('reports its session as it starts, through a command hook, before any prompt', async () => {
    expect(pane(['agent', 'add', 'cl', '--project', s.project]).status).toBe(0);
    const home = path.join(s.dir, '.local/share/pane/agents/cl');
    fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true }));
    const run = pane(['agent', 'run', 'cl', '--app', 'claude']);
    expect(run.status, run.stderr).toBe(0);
    const id = run.stdout.trim().split(':').pop()!;
    const screen = () => pane(['screen', '-t', id]).stdout;
    try {
      const settings = JSON.parse(fs.readFileSync(path.join(s.dir, '.local/share/pane/claude-settings.json'), 'utf8'));
      expect(settings.hooks.SessionStart[0].hooks[0]).toMatchObject({ type: 'command' });
      expect(settings.hooks.SessionStart[0].hooks[0].command).toMatch(/pane-hook'? .*hook$/);
      expect(settings.hooks.StopFailure).toBeDefined();
      // The folder-trust question, answered as a person does: down to "Yes, I trust this folder", Enter.
      await until('the trust question', () => /trust this folder/i.test(screen()), 60_000).catch((e: Error) => {
        throw new Error(`${e.message}; its screen:\n${screen()}`);
      });
      // A script waiting on it (`pane wait --agent`) is answered when it needs the person.
      const w = pane(['wait', '-t', id, '--agent', '--state', 'waiting', '--timeout', '15s']);
      expect(w.status, w.stderr).toBe(0);
      expect(w.stdout).toBe('needs you\n');
      // Asked, it needs the person (it was "idle (observed)" before questions were looked for).
      await until('cl to need the person', () => /State: needs you/.test(pane(['finger', 'cl']).stdout), 20_000).catch((e: Error) => {
        throw new Error(`${e.message}; finger:\n${pane(['finger', 'cl']).stdout}`);
      });
      // `pane ls` says so in its STATE column, where the pane's own state would read "running".
      const ls = pane(['ls']).stdout.split('\n');
      const at = ls[0]!.indexOf('STATE');
      expect(ls.find((l) => l.startsWith(`${id} `))?.slice(at)).toMatch(/^needs you\s/);
      expect(s.raw(id, '\x1b[B')).toBe(0);
      await new Promise((r) => setTimeout(r, 300));
      expect(pane(['send', '-t', id, '']).status).toBe(0);
      // No prompt typed: SessionStart alone made it reported.
      await until('its SessionStart through the command hook', () => {
        const p = (JSON.parse(pane(['ls', '--json']).stdout) as { n: number; attrs: Record<string, string> }[]).find((q) => String(q.n) === id);
        return p?.attrs['agent.state-source'] === 'reported' && p.attrs['agent.source'] === 'hooks';
      }, 60_000).catch((e: Error) => {
        throw new Error(`${e.message}; finger:\n${pane(['finger', 'cl']).stdout}\nits screen:\n${screen()}`);
      });
      expect(pane(['finger', 'cl']).stdout).toMatch(/reported through hooks/);
      await until('the question gone from its state', () => !/State: needs you/.test(pane(['finger', 'cl']).stdout), 20_000);
      expect(pane(['finger', 'cl']).stdout).not.toMatch(/Last prompt/);
    } finally {
      pane(['close', '-t', id]);
    }
  }, 180_000);
});
