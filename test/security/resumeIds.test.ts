// Attack class: an agent's word becoming a relaunched CLI's argument. A session id
// reaches pane through the agent's hooks (its own words); after a kill -9 of the
// daemon it goes into the resumed CLI's argv. An id that starts with `-` (an option:
// `--rcfile=FILE`), holds a newline, or does not match the app file's idPattern is
// dropped, said, and the agent resumes with its `last` form instead; a good id still
// resumes its own conversation (the case above is not vacuous). Through the real
// daemon, `pane hook` and a stand-in `claude` on PATH that records its argv.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_ID_PATTERN, ResumeSpecSchema, sessionIdAllowed } from '../../kits/protocol/app';
import { binDaemon, home, until, type Home } from '../durable/helpers';
import { ensureBuilt, root } from '../e2e/shell';

let h: Home | undefined;
const procs: ChildProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  h?.cleanup();
});
const BIN = path.join(root, 'dist/pane.mjs');

describe('session ids are data, never options', () => {
  it('allows ids of the shapes CLIs use, and nothing that could be an option or a second line', () => {
    const claude = ResumeSpecSchema.parse({ args: ['--resume', '{session}'], last: ['--continue'] });
    for (const ok of ['0f8b7c1e-5a55-4c4e-9d1b-2f1a6f0c9e3a', '01HZX3J5Q9ZK8V', 'T-1', 'ses_abc.def:2']) expect(sessionIdAllowed(ok, claude), ok).toBe(true);
    for (const bad of ['--rcfile=/tmp/x', '-x', 'a\nb', 'a b', '', 'x'.repeat(300), '$(id)', 'a;b']) expect(sessionIdAllowed(bad, claude), JSON.stringify(bad)).toBe(false);
    // An app's own pattern narrows it; still never an option.
    const uuids = ResumeSpecSchema.parse({ args: ['--resume', '{session}'], idPattern: '[0-9a-f-]{36}' });
    expect(sessionIdAllowed('0f8b7c1e-5a55-4c4e-9d1b-2f1a6f0c9e3a', uuids)).toBe(true);
    expect(sessionIdAllowed('x0f8b7c1e-5a55-4c4e-9d1b-2f1a6f0c9e3a', uuids)).toBe(false);
    expect(sessionIdAllowed('-----------------------------------1', ResumeSpecSchema.parse({ args: ['{session}'], idPattern: '.*' }))).toBe(false);
    expect(new RegExp(DEFAULT_SESSION_ID_PATTERN).test('-a')).toBe(false);
  });

  it('refuses an app file that glues the id to an option, or names a pattern that is no regular expression', () => {
    expect(ResumeSpecSchema.safeParse({ args: ['--resume={session}'] }).success).toBe(false);
    expect(ResumeSpecSchema.safeParse({ args: ['--resume', '{session}'], idPattern: '([' }).success).toBe(false);
  });

  it('drops a hostile id after a kill -9 and resumes with the CLI’s last form; a good id resumes its conversation', async () => {
    ensureBuilt();
    h = home();
    const hm = h;
    const bin = path.join(hm.dir, 'bin');
    const proj = path.join(hm.dir, 'shop');
    fs.mkdirSync(bin);
    fs.mkdirSync(proj);
    // A stand-in claude: records its argv (one line per run, NUL-free), then waits like an interactive CLI.
    fs.writeFileSync(path.join(bin, 'claude'), `#!/bin/sh\n# Only an agent's run is recorded (pane also asks \`claude --version\`, from its own directory).\nif [ -n "$PANE_AGENT" ]; then for a in "$@"; do printf '[%s]' "$a"; done >> "$PWD/$PANE_AGENT.runs"; echo >> "$PWD/$PANE_AGENT.runs"; fi\necho "started: claude"\nexec cat\n`, { mode: 0o755 });
    const d = binDaemon(hm, BIN, bin, root, procs);
    const pane = d.pane;
    const start = d.start;
    const panes = () => JSON.parse(pane(['ls', '--json']).stdout) as { n: number; pid: number | null; attrs: Record<string, string> }[];
    const screen = (n: number) => pane(['screen', '-t', String(n)]).stdout;
    const ids: Record<string, string> = { evil: '--rcfile=/tmp/pwned', lines: 'abc\n--dangerously-skip-permissions', good: '0f8b7c1e-5a55-4c4e-9d1b-2f1a6f0c9e3a' };
    const first = await start();
    for (const [name, id] of Object.entries(ids)) {
      expect(pane(['agent', 'run', name, '--app', 'claude', '--cwd', proj]).status).toBe(0);
      const n = await until(`${name}'s pane`, () => panes().find((p) => p.attrs.agent === name)?.n);
      await until(`${name} started`, () => screen(n).includes('started: claude'));
      const hook = pane(['hook'], { env: { PANE_ID: String(n) }, input: JSON.stringify({ hook_event_name: 'SessionStart', session_id: id, cwd: proj, source: 'startup' }) });
      expect(hook.status, hook.stderr).toBe(0);
    }
    await until('the ids in the journal', () => {
      const all = fs.readdirSync(hm.stateDir).filter((f) => f.startsWith('journal-')).map((f) => fs.readFileSync(path.join(hm.stateDir, f), 'utf8')).join('');
      return all.includes('rcfile') && all.includes(ids.good!);
    });
    const before = panes();
    first.proc.kill('SIGKILL');
    for (const p of before) if (p.pid) try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
    await until('the daemon gone', () => first.proc.signalCode !== null);
    const second = await start();
    const runs = (name: string) => (fs.existsSync(path.join(proj, `${name}.runs`)) ? fs.readFileSync(path.join(proj, `${name}.runs`), 'utf8').split('\n').filter((l) => l !== '') : []);
    for (const name of Object.keys(ids)) await until(`${name} relaunched (${runs(name).join(' | ')})`, () => runs(name).length >= 2);
    // The hostile ids never reached an argv: those agents resumed with --continue, and the pane says why.
    for (const name of ['evil', 'lines']) {
      const last = runs(name).at(-1)!;
      expect(last, name).toContain('[--continue]');
      expect(last, name).not.toMatch(/rcfile|dangerously|--resume/);
      const n = panes().find((p) => p.attrs.agent === name)!.n;
      await until(`${name}'s pane to say why`, () => /is not an id claude's app file allows/.test(screen(n).replace(/\n/g, '')) || /is not an id claude's app file allows/.test(second.out()));
    }
    expect(runs('good').at(-1)).toContain(`[--resume][${ids.good}]`);
    pane(['stop', '--yes']);
    await until('the daemon to stop', () => second.proc.exitCode !== null);
  }, 180_000);
});
