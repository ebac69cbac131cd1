// `pane write` end to end with the demo agent in a real server: the agent runs in a
// PTY pane, the conversation pane is opened from the agent's tag word, the human
// types into it, the line reaches the agent marked as from the human, the agent
// answers through `pane write`, and the answer shows in the conversation pane.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { servePerFile, until } from '../cli/harness';

const s = servePerFile();

const screen = (pane: string) => s.pane(['screen', '-t', pane]).stdout;
const finger = (name: string) => JSON.parse(s.pane(['finger', '--json', name]).stdout) as { state: string; panes: { pane: number }[] };

describe('write with the demo agent', () => {
  it('holds a two-way conversation and the agent does the task it was written', async () => {
    const proj = path.join(s.dir, 'proj');
    fs.mkdirSync(proj);
    const run = s.pane(['agent', 'run', '--app', 'demo-agent', '--cwd', proj]);
    expect(run.stderr).toBe('');
    const [name, id] = run.stdout.trim().split(' ') as [string, string];
    const agentPane = id.split(':')[1]!;
    await until(`${name} ready after SessionStart`, () => finger(name).state === 'ready', 30_000);

    // The tag word `write` opens the conversation pane beside the agent.
    expect(s.pane(['exec', '-t', agentPane, 'write']).status).toBe(0);
    const conv = await until('a conversation pane', () => {
      const ls = s.pane(['ls', '--json']).stdout;
      const p = (JSON.parse(ls) as { n: number; signature: string }[]).find((x) => x.signature === 'com.pane.write');
      return p ? String(p.n) : undefined;
    });
    await until('the conversation header', () => screen(conv).includes(`talking to ${name}`), 20_000);

    s.pane(['send', '-t', conv, 'add a changelog entry']);
    await until('the line in the agent pane, marked as from the human', () => /\[from \S+\] add a changelog entry/.test(screen(agentPane)), 20_000);
    await until('the agent’s answer in the conversation pane', () => screen(conv).includes(`${name}: on it: add a changelog entry`), 30_000);
    await until('the agent working', () => ['working', 'waiting', 'done'].includes(finger(name).state));

    // It asks before finishing; the human answers from the conversation pane.
    await until('the question', () => screen(agentPane).includes('[y/n]'), 30_000);
    await until('waiting for the answer', () => finger(name).state === 'waiting', 10_000);
    s.pane(['send', '-t', conv, 'y']);
    await until('the task done', () => screen(agentPane).includes('✔ done'), 30_000);
    const file = path.join(proj, 'demo-work', 'add-a-changelog-entry.md');
    expect(fs.readFileSync(file, 'utf8')).toMatch(/# add a changelog entry[\s\S]*## Checklist/);
    expect(screen(conv)).toMatch(new RegExp(`— ${name} is (working|waiting|done)`));

    // It obeys mail: --deliver types it in while it waits; it does the task in the mail.
    await until('done again, at its prompt', () => finger(name).state === 'done', 20_000);
    const mailed = s.pane(['mail', '-s', 'next', '--deliver', name], { input: 'write release notes\n' });
    expect(mailed.stdout).toMatch(/typed into its pane/);
    await until('the mailed task started', () => /▶ task \(from \S+\): next: write release notes/.test(screen(agentPane)), 30_000);
    await until('its question', () => (screen(agentPane).match(/\[y\/n\]/g) ?? []).length >= 2, 30_000);
    s.pane(['write', name, 'n']);
    await until('the mailed task done', () => fs.existsSync(path.join(proj, 'demo-work', 'next-write-release-notes.md')) && (screen(agentPane).match(/✔ done/g) ?? []).length >= 2, 30_000);
  }, 240_000);

  it('opens the conversation floating above an agent pane too small to split', async () => {
    const run = s.pane(['agent', 'run', '--app', 'demo-agent', '--cwd', s.dir]);
    expect(run.stderr).toBe('');
    const agentPane = run.stdout.trim().split(' ')[1]!.split(':')[1]!;
    // Halve it top and bottom until one more halving would leave a sliver: 2 rows of body.
    for (let i = 0; i < 8; i++) {
      if (s.pane(['split', '-t', agentPane, '-d', 'v', '--', 'sleep', '600']).status !== 0) break;
    }
    const rows = () => (JSON.parse(s.pane(['ls', '--json']).stdout) as { n: number; rows: number }[]).find((p) => String(p.n) === agentPane)!.rows;
    expect(rows()).toBeLessThan(4);
    type Row = { n: number; signature: string; session: string };
    const conversations = () => (JSON.parse(s.pane(['ls', '--json']).stdout) as Row[]).filter((x) => x.signature === 'com.pane.write');
    // The first test's conversation pane is still there: the new one is the one not seen before.
    const before = new Set(conversations().map((x) => x.n));
    const opened = s.pane(['exec', '-t', agentPane, 'write']);
    expect(opened.status, opened.stderr).toBe(0);
    const conv = await until('a conversation pane', () => conversations().find((x) => !before.has(x.n)));
    const saved = JSON.parse(s.pane(['session', 'save', conv.session]).stdout) as { sessions: { floating: { pane: number }[] }[] };
    expect(saved.sessions[0]!.floating.map((f) => f.pane)).toContain(conv.n);
  }, 60_000);
});
