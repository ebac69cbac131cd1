// Launching agents on a real server: a launch gets an account, the agent
// signature, PANE_AGENT and a token in its environment, shims on PATH; a CLI that
// is not installed is said plainly; worktree isolation makes a branch and keeps it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attachConfig } from '../../server/config/configService';
import { rects } from '../../kits/layout/tree';
import { buildOnce } from '../cli/harness';
import { waitForOutput } from '../server/harness';
import { agentHarness, type AgentHarness } from './helpers';

let h: AgentHarness;
let apps: string;
// The finger/mail/write shims run the built CLI.
beforeAll(() => buildOnce(), 120_000);
beforeEach(async () => {
  h = await agentHarness();
  apps = path.join(h.dir, 'apps');
  fs.mkdirSync(apps);
  fs.writeFileSync(path.join(apps, 'terminal.json'), JSON.stringify({ name: 'Terminal', signature: 'com.pane.terminal' }));
  fs.writeFileSync(path.join(apps, 'envdump.json'), JSON.stringify({ name: 'Env dump', signature: 'com.x.envdump', kind: 'agent', launch: { program: '/bin/sh', args: ['-c', 'echo "agent=$PANE_AGENT token=${PANE_TOKEN%-*} human=$PANE_HUMAN"; for w in finger mail write pane; do command -v $w; done; exec cat'] } }));
  fs.writeFileSync(path.join(apps, 'ghost.json'), JSON.stringify({ name: 'Ghost CLI', signature: 'com.x.ghost', kind: 'agent', launch: { program: 'ghost-cli-not-here', args: [] }, agent: { install: 'npm i -g ghost-cli' } }));
  // Its current release needs a Node newer than any: the hint says so, naming the Node the server runs.
  fs.writeFileSync(path.join(apps, 'future.json'), JSON.stringify({ name: 'Future CLI', signature: 'com.x.future', kind: 'agent', launch: { program: 'future-cli-not-here', args: [] }, agent: { install: 'npm i -g future-cli', nodeMajor: 99 } }));
  fs.writeFileSync(path.join(apps, 'iso.json'), JSON.stringify({ name: 'Isolated', signature: 'com.x.iso', kind: 'agent', launch: { program: '/bin/cat', args: [] }, agent: { isolation: 'worktree' } }));
  attachConfig(h.running.services, { configDir: path.join(h.dir, 'config'), appsDir: apps });
});
afterEach(async () => {
  await h.close();
});

describe('launching agents', () => {
  it('keeps --app with -- PROGRAM (the program with the app’s integration), and finger names the app and the --cwd project', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'oneoff' });
    const dir = fs.mkdtempSync(path.join(h.dir, 'work-'));
    const r = await c.call('agent/launch', { name: 'oneoff', app: 'iso', program: ['/bin/sh', '-c', 'echo started-mine; exec cat'], cwd: dir, isolation: 'none' });
    await waitForOutput(c, r.pane, /started-mine/);
    const p = await c.call('pane/get', { pane: r.pane });
    expect(p.attrs.app).toBe('iso');
    const info = await c.call('agent/get', { name: 'oneoff' });
    expect(info.app).toBe('iso');
    expect(info.project).toBe(dir);
    const e = await c.call('agent/launch', { name: 'oneoff', app: 'no-such-app', program: ['/bin/cat'] }).catch((x: Error) => x);
    expect((e as Error).message).toMatch(/no app "no-such-app"/);
  });

  it('gives a launched agent an account, its signature, PANE_AGENT, a token and the finger/mail/write shims', async () => {
    const c = await h.connect();
    const r = await c.call('agent/launch', { app: 'envdump' });
    expect(r.agent).toBe('ada');
    const p = await c.call('pane/get', { pane: r.pane });
    expect([p.signature, p.kind, p.tag.name, p.attrs.agent]).toEqual(['com.pane.ai.agent.ada', 'agent', 'ada', 'ada']);
    expect(p.tag.commands).toEqual(expect.arrayContaining(['finger', 'mail', 'write', 'plan', 'access', 'focus', 'interrupt']));
    await waitForOutput(c, r.pane, /agent=ada token=pane-agent human=\S+/);
    const out = await waitForOutput(c, r.pane, /data\/bin\/pane/);
    for (const w of ['finger', 'mail', 'write']) expect(out).toContain(`data/bin/${w}`);
    expect((await c.call('agent/get', { name: 'ada' })).app).toBe('envdump');
    // A second launch of the same app while ada runs is a second agent.
    expect((await c.call('agent/launch', { app: 'envdump' })).agent).toBe('bob');
  });

  it('places each new agent beside or below the roomiest pane, along its longer side, unless told where', async () => {
    const c = await h.connect();
    const { sessions } = await c.call('session/list', {});
    const session = sessions[0]!.id;
    await c.call('session/viewport', { session, cols: 200, rows: 50 });
    const geometry = async () => {
      const s = await c.call('session/get', { session });
      return Object.fromEntries(rects(s.layout, s.viewport)) as Record<number, unknown>;
    };
    const first = (await c.call('session/get', { session })).focused!;
    const a = await c.call('agent/launch', { app: 'envdump' });
    // 200×50 is wide: beside it.
    expect((await geometry())[a.pane]).toMatchObject({ x: 100, y: 0, w: 100, h: 50 });
    // Two 100×50 halves (square on screen): the first is split, below — lines stay long.
    await c.call('pane/focus', { pane: a.pane });
    const b = await c.call('agent/launch', { app: 'envdump' });
    const g = await geometry();
    expect(g[b.pane]).toMatchObject({ x: 0, y: 25, w: 100, h: 25 });
    // Now a's half is the roomiest, though b has focus.
    const d = await c.call('agent/launch', { app: 'envdump' });
    expect((await geometry())[d.pane]).toMatchObject({ x: 100, y: 25, w: 100, h: 25 });
    // Told where, it goes there.
    const e = await c.call('agent/launch', { app: 'envdump', pane: first, direction: 'horizontal' });
    expect((await geometry())[e.pane]).toMatchObject({ x: 50, y: 0, w: 50, h: 25 });
  });

  it('says plainly when the agent CLI is not installed, and how to install it', async () => {
    const c = await h.connect();
    await expect(c.call('agent/launch', { app: 'ghost' })).rejects.toThrow(/Ghost CLI \(ghost-cli-not-here\) is not installed: no ghost-cli-not-here on PATH; install it with: npm i -g ghost-cli/);
    expect((await c.call('agent/list', {})).agents).toEqual([]);
    await expect(c.call('agent/launch', { app: 'future' })).rejects.toThrow(`Future CLI (future-cli-not-here) is not installed: no future-cli-not-here on PATH; install it with: npm i -g future-cli (its current release needs Node 99 or newer, and this is Node ${process.versions.node}: on an older Node npm installs an older release)`);
  });

  it('gives a worktree launch its own branch and worktree, shown in attrs, removed only on request with the branch kept', async () => {
    const repo = path.join(h.dir, 'repo');
    fs.mkdirSync(repo);
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { encoding: 'utf8' });
    git('init', '-q');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    git('add', '.');
    git('commit', '-qm', 'init');
    const c = await h.connect();
    const r = await c.call('agent/launch', { app: 'iso', cwd: repo });
    const p = await c.call('pane/get', { pane: r.pane });
    const wt = p.attrs['agent.worktree']!;
    expect(wt).toMatch(/\.pane\/worktrees\/ada-/);
    expect(p.cwd).toBe(wt);
    expect(fs.existsSync(path.join(wt, 'a.txt'))).toBe(true);
    expect(git('status', '--porcelain')).toBe('');
    await c.call('pane/close', { pane: r.pane });
    expect(fs.existsSync(wt)).toBe(true); // never removed silently
    const r2 = await c.call('agent/launch', { app: 'iso', cwd: repo });
    const wt2 = (await c.call('pane/get', { pane: r2.pane })).attrs['agent.worktree']!;
    fs.writeFileSync(path.join(wt2, 'dirty.txt'), 'x');
    await expect(c.call('agent/worktree-remove', { pane: r2.pane })).rejects.toThrow(/git worktree failed/);
    const removed = await c.call('agent/worktree-remove', { pane: r2.pane, force: true });
    expect(fs.existsSync(wt2)).toBe(false);
    expect(git('branch', '--list', removed.branch)).toMatch(removed.branch);
    expect((await c.call('pane/get', { pane: r2.pane })).attrs['agent.worktree']).toBeUndefined();
  });

  it('turns agent tag words into views: finger opens a floating pane, write a pane beside the agent', async () => {
    const c = await h.connect();
    const r = await c.call('agent/launch', { app: 'envdump' });
    await c.call('pane/exec', { pane: r.pane, line: 'finger', origin: 'tag' });
    const after = (await c.call('pane/list', {})).panes;
    const view = after.find((p) => p.signature === 'com.pane.finger');
    expect(view?.attrs).toMatchObject({ view: 'finger', 'view.agent': 'ada' });
    expect(view?.launch?.args).toEqual(['finger', '--hold', 'ada']);
  });
});
