// Reviewing an agent's worktree on a real server and a real git repository: the
// changed files and the diff against the branch's base (/N/review, /N/diff), accept
// (a commit on the agent's branch, the agent as author) and reject (restored), file
// by file or all; the review word opens the shipped diff-review widget on the pane;
// a reviewer's file outside the worktree or shaped as an option is refused; another
// agent may not review a pane its .access does not let it write.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attachConfig } from '../../server/config/configService';
import { buildOnce } from '../cli/harness';
import { agentHarness, type AgentHarness } from './helpers';
import { until } from '../server/harness';

let h: AgentHarness;
beforeAll(() => buildOnce(), 120_000);
beforeEach(async () => {
  h = await agentHarness();
  const apps = path.join(h.dir, 'apps');
  fs.mkdirSync(apps);
  fs.writeFileSync(path.join(apps, 'iso.json'), JSON.stringify({ name: 'Isolated', signature: 'com.x.iso', kind: 'agent', launch: { program: '/bin/cat', args: [] }, agent: { isolation: 'worktree' } }));
  fs.copyFileSync(path.resolve(__dirname, '../../apps/diff-review.json'), path.join(apps, 'diff-review.json'));
  attachConfig(h.running.services, { configDir: path.join(h.dir, 'config'), appsDir: apps });
});
afterEach(async () => {
  await h.close();
});

describe('reviewing an agent worktree', () => {
  it('lists and diffs its changes, accepts one file as a commit on its branch, rejects the rest, and opens the review widget', async () => {
    const repo = path.join(h.dir, 'repo');
    fs.mkdirSync(repo);
    const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { encoding: 'utf8' });
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'one\n');
    fs.writeFileSync(path.join(repo, 'b.txt'), 'keep me\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'init');
    const c = await h.connect();
    const r = await c.call('agent/launch', { app: 'iso', cwd: repo });
    const wt = (await c.call('pane/get', { pane: r.pane })).attrs['agent.worktree']!;
    // What the agent did: edited a.txt, made new.txt, removed b.txt, and committed nothing.
    fs.writeFileSync(path.join(wt, 'a.txt'), 'two\n');
    fs.writeFileSync(path.join(wt, 'new file.txt'), 'fresh\n');
    fs.rmSync(path.join(wt, 'b.txt'));
    const read = async (p: string) => (await c.call('ns/read', { path: p })).data;
    expect((await read(`/${r.pane}/review`)).split('\n').sort()).toEqual(['', '? new file.txt', 'D b.txt', 'M a.txt']);
    const diff = await read(`/${r.pane}/diff`);
    expect(diff).toContain('-one\n+two');
    expect(diff).toContain('+++ b/new file.txt');

    // The word opens the shipped widget on this pane; its body reads the same files.
    await c.call('pane/exec', { pane: r.pane, line: 'review' });
    const widget = (await c.call('pane/list', {})).panes.find((p) => p.kind === 'widgets')!;
    expect(widget.attrs).toMatchObject({ app: 'diff-review', 'review.pane': String(r.pane) });
    const body = await read(`/${widget.n}/body`);
    expect(body).toMatch(/^  table Changed files: 3 rows$/m);
    expect(body).toMatch(/^    M\ta\.txt$/m);
    expect(body).toMatch(/^  diff Diff against the branch's base: diff --git/m);

    // Refused: a file outside the worktree, one shaped as an option, one with no change.
    for (const [line, why] of [
      ['accept ../../etc/passwd', /outside the agent's worktree/],
      ['accept -p', /is not a file of the worktree/],
      ['reject .git/config', /outside the agent's worktree/],
      ['accept c.txt', /c\.txt has no change to accept/],
      ['approve a.txt', /is not accept \[FILE\], reject \[FILE\] or open FILE/],
    ] as const) await expect(c.call('ns/write', { path: `/${r.pane}/review`, data: line }), line).rejects.toThrow(why);

    // Open one in the editor: a pane beside the agent's runs $EDITOR on the worktree's file, as the caller; only a file the review lists.
    const before = new Set((await c.call('pane/list', {})).panes.map((p) => p.n));
    h.running.server.env.EDITOR = 'cat'; // the person's $EDITOR as the daemon has it
    await c.call('ns/write', { path: `/${r.pane}/review`, data: 'open new file.txt' });
    const opened = (await c.call('pane/list', {})).panes.find((p) => !before.has(p.n))!;
    expect(opened.launch).toMatchObject({ program: 'cat', args: [path.join(wt, 'new file.txt')], cwd: wt });
    for (const [line, why] of [
      ['open c.txt', /c\.txt is not a changed file of the worktree/],
      ['open b.txt', /b\.txt is not a changed file of the worktree/],
      ['open ../../etc/passwd', /outside the agent's worktree/],
      ['open -c:!id', /is not a file of the worktree/],
      ['open', /is not accept \[FILE\], reject \[FILE\] or open FILE/],
    ] as const) await expect(c.call('ns/write', { path: `/${r.pane}/review`, data: line }), line).rejects.toThrow(why);
    await c.call('pane/close', { pane: opened.n });

    // Accept one file: a commit on the agent's branch, authored by the agent.
    await c.call('ns/write', { path: `/${r.pane}/review`, data: 'accept a.txt' });
    const branch = git(wt, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
    expect(branch).toMatch(/^pane\/ada-/);
    expect(git(wt, 'log', '-1', '--format=%an|%s', branch)).toBe("ada|ada's changes to a.txt, accepted in review\n");
    expect(git(wt, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('a.txt');
    expect(git(repo, 'log', '-1', '--format=%s', 'HEAD')).toBe('init\n'); // the person's branch is untouched
    // Reject the rest: the new file goes, the removed one comes back.
    await c.call('ns/write', { path: `/${r.pane}/review`, data: 'reject' });
    expect(fs.existsSync(path.join(wt, 'new file.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(wt, 'b.txt'), 'utf8')).toBe('keep me\n');
    // What is left against the base is the accepted commit.
    expect(await read(`/${r.pane}/review`)).toBe('M a.txt\n');
    expect((await c.call('agent/review', { pane: r.pane, verdict: 'accept' })).done).toMatch(/nothing to commit/);

    // Another agent reviews only what its .access lets it write: ada's pane is not bo's.
    await c.call('agent/add', { name: 'bo' });
    const bo = await h.as('bo');
    await expect(bo.call('agent/review', { pane: r.pane, verdict: 'reject' })).rejects.toThrow(/denied/);
    // A pane with no worktree has nothing to review, and says so.
    const plain = await c.call('pane/split', { pane: r.pane });
    await expect(read(`/${plain.pane}/diff`)).rejects.toThrow(/has no worktree of its own to review/);
    await expect(c.call('pane/exec', { pane: plain.pane, line: 'review' })).rejects.toThrow();
    // An agent launched without one: its review word cannot run now, a failure (exit 1 at the CLI), not a line written wrong (2, with the usage).
    fs.writeFileSync(path.join(h.dir, 'apps', 'shared.json'), JSON.stringify({ name: 'Shared', signature: 'com.x.shared', kind: 'agent', launch: { program: '/bin/cat', args: [] } }));
    await until('the app file read', async () => (await c.call('apps/list', {})).apps.some((a) => a.id === 'shared'));
    const shared = await c.call('agent/launch', { app: 'shared', cwd: repo });
    const refused = await c.call('pane/exec', { pane: shared.pane, line: 'review' }).then(() => null, (e: { code: string; message: string }) => e);
    expect(refused).toMatchObject({ code: 'failed' });
    expect(refused!.message).toMatch(/has no worktree of its own to review/);
  });
});
