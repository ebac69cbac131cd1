// Every agent CLI comes back in its own conversation after a kill -9 of the daemon
// (issue 25, item 4): a stand-in for each CLI on PATH says how it was started; its
// session id reaches pane through `pane hook` (as the CLI's hooks send it) and the
// journal alone (no snapshot is waited for); the daemon restarted from disk relaunches
// each pane with that CLI's own resume form and id, or its "last" form where the CLI
// has no ids (aider). A stand-in that exits 1 when asked to resume is started afresh,
// the pane saying why.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppFileSchema } from '../../kits/protocol/app';
import { ensureBuilt, root } from '../e2e/shell';
import { binDaemon, home, until, type Home } from './helpers';

let h: Home | undefined;
const procs: ChildProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  h?.cleanup();
});

const BIN = path.join(root, 'dist/pane.mjs');

/** Each CLI's resume command as its own docs and --help give it (research/agent-clis.md §2), for the app files pane ships. */
const EXPECTED: Record<string, { program: string; resumed: (id: string) => RegExp }> = {
  claude: { program: 'claude', resumed: (id) => new RegExp(`^claude .*--resume ${id}`) },
  codex: { program: 'codex', resumed: (id) => new RegExp(`^codex resume ${id} `) },
  gemini: { program: 'gemini', resumed: (id) => new RegExp(`^gemini .*--resume ${id}`) },
  copilot: { program: 'copilot', resumed: (id) => new RegExp(`^copilot .*--resume ${id}`) },
  cursor: { program: 'cursor-agent', resumed: (id) => new RegExp(`^cursor-agent .*--resume ${id}`) },
  opencode: { program: 'opencode', resumed: (id) => new RegExp(`^opencode .*--session ${id}`) },
  qwen: { program: 'qwen', resumed: (id) => new RegExp(`^qwen .*--resume ${id}`) },
  goose: { program: 'goose', resumed: (id) => new RegExp(`^goose session.* --resume --session-id ${id}`) },
  amp: { program: 'amp', resumed: (id) => new RegExp(`^amp threads continue ${id}`) },
  aider: { program: 'aider', resumed: () => /^aider .*--restore-chat-history/ },
};

/** The shipped agent app files that carry a resume entry. */
function shippedAgents(): { id: string; program: string }[] {
  return fs
    .readdirSync(path.join(root, 'apps'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ id: f.slice(0, -5), app: AppFileSchema.parse(JSON.parse(fs.readFileSync(path.join(root, 'apps', f), 'utf8'))) }))
    .filter((a) => a.app.kind === 'agent' && a.id in EXPECTED)
    .map((a) => ({ id: a.id, program: a.app.launch!.program }));
}

describe('agents after a kill -9 of the daemon', () => {
  it('ships a resume entry for every agent CLI app file, in that CLI’s own form', () => {
    const apps = shippedAgents();
    expect(apps.length).toBeGreaterThanOrEqual(4);
    for (const a of apps) {
      const app = AppFileSchema.parse(JSON.parse(fs.readFileSync(path.join(root, 'apps', `${a.id}.json`), 'utf8')));
      expect(app.resume, `${a.id} has no resume entry`).toBeDefined();
      expect(a.program).toBe(EXPECTED[a.id]!.program);
    }
  });

  it('relaunches each agent with its CLI’s resume command and the id its hooks reported, and starts afresh when the resume fails', async () => {
    ensureBuilt();
    h = home();
    const hm = h;
    const bin = path.join(hm.dir, 'bin');
    fs.mkdirSync(bin);
    const apps = shippedAgents();
    // Stand-ins: say how they were started, then wait like an interactive CLI. Gemini's
    // exits 1 when asked to resume (as Gemini does for a session it dropped).
    for (const a of apps) {
      // Each run leaves its argv in the project (its sandbox lets it write there): the screen's rows are no record of runs.
      const body = `echo "$*" >> '${path.join(hm.dir, 'shop', `${a.id}.runs`)}'\n${a.id === 'gemini' ? 'case "$*" in *--resume*) echo "no session found to resume: $*"; exit 1;; esac\n' : ''}`;
      fs.writeFileSync(path.join(bin, a.program), `#!/bin/sh\n${body}echo "started: ${a.program} $*"\nexec cat\n`, { mode: 0o755 });
    }
    const proj = path.join(hm.dir, 'shop');
    fs.mkdirSync(proj);
    const d = binDaemon(hm, BIN, bin, root, procs);
    const pane = d.pane;
    const start = d.start;
    const screen = (n: number) => pane(['screen', '-t', String(n)]).stdout.replace(/\n/g, '');
    const panes = () => JSON.parse(pane(['ls', '--json']).stdout) as { n: number; pid: number | null; attrs: Record<string, string>; launch: { program: string; args: string[] } | null }[];

    const first = await start();
    const ids = new Map<string, string>();
    const paneOf = new Map<string, number>();
    for (const a of apps) {
      const r = pane(['agent', 'run', `${a.id}-1`, '--app', a.id, '--cwd', proj]);
      expect(r.status, r.stderr).toBe(0);
      const n = await until(`${a.id}'s pane`, () => panes().find((p) => p.attrs.agent === `${a.id}-1`)?.n);
      paneOf.set(a.id, n);
      await until(`the ${a.id} stand-in to start`, () => screen(n).includes(`started: ${a.program}`));
      if (a.id === 'aider') continue; // no hooks, no ids: it resumes by its "last" form
      // Its session id as the CLI's hooks report it (every dialect hands pane a session_id).
      const id = `${a.id}-conv-${Math.random().toString(16).slice(2, 10)}`;
      ids.set(a.id, id);
      const hook = pane(['hook'], { env: { PANE_ID: String(n) }, input: JSON.stringify({ hook_event_name: 'SessionStart', session_id: id, cwd: proj, source: 'startup' }) });
      expect(hook.status, hook.stderr).toBe(0);
    }
    // Every id is in the journal (not only in a snapshot): the kill comes right after.
    await until('the session ids in the journal', () => {
      const all = fs.readdirSync(hm.stateDir).filter((f) => f.startsWith('journal-')).map((f) => fs.readFileSync(path.join(hm.stateDir, f), 'utf8')).join('');
      return [...ids.values()].every((id) => all.includes(id));
    });
    const before = panes();
    first.proc.kill('SIGKILL');
    for (const p of before) if (p.pid) try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone with its terminal */ }
    await until('the daemon to be gone', () => first.proc.signalCode !== null);

    const second = await start();
    for (const a of apps) {
      const n = paneOf.get(a.id)!;
      if (a.id === 'gemini') continue;
      const want = EXPECTED[a.id]!.resumed(ids.get(a.id) ?? '');
      await until(`${a.id} resumed (${screen(n).replace(/"[^"]*"/g, "Q").slice(-1500)})`, () => screen(n).split('started: ').some((s) => want.test(s)));
    }
    if (paneOf.has('gemini')) {
      // Gemini refused the resume: the pane says so, and the CLI runs afresh (no --resume).
      const n = paneOf.get('gemini')!;
      const runs = () => fs.readFileSync(path.join(proj, 'gemini.runs'), 'utf8').split('\n').slice(0, -1);
      await until(`gemini started afresh (${screen(n)})`, () => /resuming failed: gemini exited with status 1 within .*started afresh/.test(screen(n)) && runs().length === 3);
      expect(runs()).toEqual(['', `--resume ${ids.get('gemini')}`, '']);
      expect(screen(n)).toContain(`no session found to resume: --resume ${ids.get('gemini')}`);
      expect(panes().find((p) => p.n === n)!.launch!.args).not.toContain('--resume');
      await until('the daemon’s log to say so', () => /resuming failed: gemini/.test(second.out()));
    }
    pane(['stop', '--yes']);
    await until('the daemon to stop', () => second.proc.exitCode !== null);
  }, 240_000);
});
