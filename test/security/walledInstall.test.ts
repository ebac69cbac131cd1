// pane installed under the person's home (a checkout in ~/src/pane, an npm prefix in ~/.npm-global),
// as most people have it: the agent's walls hide that home whole, and bind back pane's whole
// package — dist/, bin/pane-hook (what its hook commands run) and node_modules/ — so `pane` and
// its hooks work inside the sandbox; and a clean rebuild of dist/ under the live daemon
// (rm -rf dist, then a new one) does not leave the agent with a stale bind.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxUnavailable } from '../../server/agents/sandbox';
import { buildOnce, lineIn, ROOT, until } from '../cli/harness';

const why = sandboxUnavailable(process.env.PATH);
let dir = '';
let pkg = '';
let server: ChildProcess | undefined;
let socket = '';
const env = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SHELL: '/bin/bash', LANG: 'C.UTF-8', XDG_RUNTIME_DIR: path.join(dir, 'run') });
const pane = (args: string[]) => spawnSync(process.execPath, [path.join(pkg, 'dist/pane.mjs'), '--socket', socket, ...args], { env: env(), encoding: 'utf8', timeout: 20_000 });

/** A copy of pane's package under the person's home: its dist/, bin/ and apps/; node_modules a link to this checkout's (outside the home). */
function install(): void {
  fs.mkdirSync(pkg, { recursive: true });
  for (const d of ['dist', 'bin', 'apps']) fs.cpSync(path.join(ROOT, d), path.join(pkg, d), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'));
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
}

describe.skipIf(why !== null)(`pane installed under the person's home, used from inside an agent's walls${why ? ` (skipped: ${why})` : ''}`, () => {
  beforeAll(async () => {
    buildOnce();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-homeinstall-'));
    pkg = path.join(dir, 'src', 'pane');
    install();
    fs.mkdirSync(path.join(dir, 'run'), { mode: 0o700 });
    fs.mkdirSync(path.join(dir, 'proj'));
    socket = path.join(dir, 's.sock');
    server = spawn(process.execPath, [path.join(pkg, 'dist/pane.mjs'), 'serve', '--socket', socket], { env: env(), stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
    await until('pane serve', () => fs.existsSync(socket) && pane(['ls']).status === 0, 20_000);
  }, 120_000);
  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it('runs pane and its hook inside the sandbox, before and after a clean rebuild of dist/', async () => {
    expect(pane(['agent', 'add', 'ada', '--project', path.join(dir, 'proj')]).status).toBe(0);
    const run = pane(['agent', 'run', 'ada', '--', 'bash', '--norc', '--noprofile']);
    expect(run.status, run.stderr).toBe(0);
    const id = run.stdout.trim().split(':').pop()!;
    const inside = async (cmd: string): Promise<string> => (await lineIn(pane, id, cmd, 30_000)).out;
    expect(pane(['access', 'ada']).stdout).toContain(`${pkg}  (pane's own program`);
    const check = async (when: string) => {
      const ls = await inside('pane ls >/dev/null && echo PANE-OK');
      expect(ls, when).toMatch(/PANE-OK/);
      const hook = await inside(`test -r ${pkg}/bin/pane-hook && echo HOOK-READABLE`);
      expect(hook, when).toMatch(/HOOK-READABLE/);
      const plan = await inside(`pane plan ada 'plan ${when}' && echo PLAN-OK`);
      expect(plan, when).toMatch(/PLAN-OK/);
    };
    await check('as installed');
    // A clean rebuild under the live daemon: dist/ removed and made anew.
    fs.rmSync(path.join(pkg, 'dist'), { recursive: true, force: true });
    fs.cpSync(path.join(ROOT, 'dist'), path.join(pkg, 'dist'), { recursive: true });
    await check('after a clean rebuild');
    // The person's other files stay hidden all along.
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'PERSONS-SECRET\n');
    expect(await inside(`cat ${dir}/secret.txt`)).not.toMatch(/PERSONS-SECRET/);
  }, 120_000);
});
