// The real Gemini CLI (pinned in scripts/agentClis.mjs: $PANE_TEST_GEMINI) after a kill -9
// of the daemon (issue 25, item 4): the session id its SessionStart hook reported (no
// network, a dummy key) is in the journal; the daemon started again from disk relaunches
// it, sandboxed, as `gemini --resume ID`. Gemini keeps no session that never got a model
// reply, so that resume fails at once, and pane starts it afresh in the same pane, saying
// so: the real case RESUME_FAIL_WINDOW_MS is for. Either way its TUI comes back.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, buildOnce, until } from '../cli/harness';
import { desktopEnv, realCliSkip } from './realCli';

const gemini = process.env.PANE_TEST_GEMINI;
const skip = realCliSkip({ PANE_TEST_GEMINI: gemini });

const servers: ChildProcess[] = [];
let dir: string | undefined;
afterAll(() => {
  for (const s of servers) if (s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
  if (dir) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

describe.skipIf(skip !== null)(`the real Gemini CLI after a kill -9 of the daemon${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('is relaunched with --resume and the id its hook reported, and started afresh when Gemini cannot resume it', async () => {
    buildOnce();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-gemini-resume-'));
    const socket = path.join(dir, 's.sock');
    const state = path.join(dir, 'state');
    const project = path.join(dir, 'proj');
    fs.mkdirSync(project);
    const env = desktopEnv(dir, [gemini!], { GEMINI_API_KEY: 'dummy' });
    const pane = (args: string[]) => spawnSync(BIN, ['--socket', socket, ...args], { env, encoding: 'utf8', timeout: 20_000 });
    const start = async () => {
      const s = spawn(BIN, ['serve', '--socket', socket, '--state', state], { env, stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
      servers.push(s);
      let err = '';
      s.stderr!.on('data', (b: Buffer) => (err += b.toString()));
      await until(`pane serve (${err})`, () => /listening/.test(err), 30_000);
      return { s, err: () => err };
    };
    const first = await start();
    expect(pane(['agent', 'add', 'gem', '--project', project]).status).toBe(0);
    const home = path.join(dir, '.local/share/pane/agents/gem');
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
    const run = pane(['agent', 'run', 'gem', '--app', 'gemini']);
    expect(run.status, run.stderr).toBe(0);
    const id = run.stdout.trim().split(':').pop()!;
    const screen = () => pane(['screen', '-t', id]).stdout;
    await until('gem’s SessionStart through its hook', () => /reported through hooks/.test(pane(['finger', 'gem']).stdout), 90_000);
    // The id Gemini reported, as the journal holds it (no snapshot is waited for).
    const journal = () => fs.readdirSync(state).filter((f) => f.startsWith('journal-')).map((f) => fs.readFileSync(path.join(state, f), 'utf8')).join('');
    const session = await until('the session id in the journal', () => /"sessions":\[\{"id":"([0-9a-f-]{36})"/.exec(journal())?.[1], 20_000);
    await until('its prompt box', () => /Type your message/.test(screen()), 60_000);
    const pids = (JSON.parse(pane(['ls', '--json']).stdout) as { pid: number | null }[]).map((p) => p.pid);
    first.s.kill('SIGKILL');
    for (const pid of pids) if (pid) try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ }
    await until('the daemon gone', () => first.s.signalCode !== null);

    const second = await start();
    // Relaunched, sandboxed, with Gemini's own resume form and that id.
    await until('the resumed launch in its log', () => fs.readFileSync(path.join(home, 'log'), 'utf8').includes(`gemini --resume ${session}`), 30_000);
    // Gemini drops a session that never got a model reply: it exits 1, and pane starts it afresh, saying so.
    const shown = await until('the resume failing, and Gemini started afresh', () => /resuming failed: gemini exited with status \d+/.test(screen().replace(/\n/g, '')) && /Type your message/.test(screen()) && screen(), 120_000).catch((e: Error) => {
      throw new Error(`${e.message}; its screen:\n${screen()}\nits log:\n${fs.readFileSync(path.join(home, 'log'), 'utf8').slice(-1500)}\ndaemon:\n${second.err().slice(-1500)}`);
    });
    expect(shown).toBeTruthy();
    const launch = (JSON.parse(pane(['ls', '--json']).stdout) as { attrs: Record<string, string>; launch: { args: string[] } | null }[]).find((p) => p.attrs.agent === 'gem')!.launch!;
    expect(launch.args).not.toContain('--resume');
    pane(['stop', '--yes']);
  }, 400_000);
});
