// The plumber through the built CLI and a real daemon, with its doors attacked:
// `pane plumb test/send/read/rules` as a person types them; rule files edited live,
// a broken rule reported by file and line while the rest keep working; ports that
// hold a message for a reader to come; a project's rules (which an agent can
// write) starting nothing the person's rules don't; a matched value never an
// option; an agent's plumbing done as that agent, within its .access; a guest
// refused; a rule that plumbs to itself stopped; a pattern built to backtrack
// forever answered in linear time.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachServer } from '../../kits/node/cli/reach';
import { BIN, buildOnce, cleanEnv, collect, serve, until, type Served } from '../cli/harness';

let s: Served;
let proj: string;
let rulesFile: string;
const sh = (args: string[], env?: Record<string, string>) => s.pane(args, env ? { env: cleanEnv(env) } : undefined);
const json = (args: string[], env?: Record<string, string>) => {
  const r = sh([...args, '--json'], env);
  try {
    return JSON.parse(r.stdout) as { fired: boolean; rule?: string; action: string; data?: string; attrs?: Record<string, string>; pane?: number; errors: { file: string; line: number; message: string }[]; tried?: string[] };
  } catch {
    throw new Error(`${args.join(' ')}: ${r.stdout}${r.stderr}`);
  }
};

describe('pane plumb', () => {
  beforeAll(async () => {
    buildOnce();
    s = await serve();
    proj = path.join(s.dir, 'proj');
    fs.mkdirSync(path.join(proj, 'src'), { recursive: true });
    fs.writeFileSync(path.join(proj, 'src', 'x.ts'), 'a\n'.repeat(100));
    rulesFile = path.join(s.dir, '.config', 'pane', 'plumbing');
    fs.mkdirSync(path.dirname(rulesFile), { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('test names the rule that would fire, what it would do, and why each earlier one did not; nothing is done', () => {
    const r = sh(['plumb', 'test', '--wdir', proj, '--click', '2', 'src/x.ts:42:5: error: nope']);
    expect(r.status, r.stderr).toBe(0);
    // What a send would do, in words: the file at its line and column, in a new editor pane (no vim is open).
    expect(r.stdout).toMatch(new RegExp(`^\\(shipped\\):\\d+: would open ${path.join(proj, 'src/x.ts').replace(/[.]/g, '\\.')}:42:5 with \\S+ in a (pane beside pane \\d+|new pane of the focused session)$`, 'm'));
    expect(r.stdout).toContain(`data ${path.join(proj, 'src/x.ts')}`);
    expect(r.stdout).toContain('attrs line=42 col=5');
    expect(r.stdout).toMatch(/^ {2}\(shipped\):\d+: data matches File .*nothing matches around offset 2$/m);
    expect(sh(['ls']).stdout.trim().split('\n')).toHaveLength(2);
    const none = sh(['plumb', 'test', '--wdir', proj, 'nothing to see']);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no rule matches');
  });

  it('a commit hash in a repository runs git show in a pane beside, in that repository', async () => {
    const repo = path.join(s.dir, 'repo');
    fs.mkdirSync(repo);
    const git = (...a: string[]) => execFileSync('git', ['-C', repo, ...a], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' } }).trim();
    git('init', '-q');
    fs.writeFileSync(path.join(repo, 'f.txt'), 'one\n');
    git('add', '.');
    git('commit', '-qm', 'the-first-commit-subject');
    const hash = git('rev-parse', '--short=9', 'HEAD');
    const line = `${hash} the-first-commit-subject`;
    const r = json(['plumb', 'send', '--wdir', repo, '--click', '3', line]);
    expect(r.action).toMatch(new RegExp(`^started git show ${hash} in pane \\d+$`));
    expect(r.pane).toBeGreaterThan(1);
    const shown = await until('git show on the pane', () => {
      const out = sh(['screen', '-t', String(r.pane)]).stdout;
      return out.includes('the-first-commit-subject') && out.includes('+one') ? out : false;
    });
    expect(shown).toContain(`commit ${git('rev-parse', 'HEAD')}`);
    sh(['close', '-t', String(r.pane)]);
    // A hash that is no commit there fires nothing.
    expect(json(['plumb', 'test', '--wdir', repo, 'deadbeef12']).fired).toBe(false);
  });

  it("a rule file's error is named by file and line; its other rules work; an edit applies at once", async () => {
    fs.writeFileSync(rulesFile, ["data matches 'TICKET-([0-9]+)'", 'attr add id=$1', 'plumb to tickets', '', "data matches '(broken'", 'plumb to tickets', ''].join('\n'));
    const r = json(['plumb', 'send', '--wdir', proj, 'TICKET-77']);
    expect(r.fired).toBe(true);
    expect(r.rule).toBe(`${rulesFile}:1`);
    expect(r.action).toBe('held on port tickets for 120 s: nobody reads it (pane plumb read tickets)');
    expect(json(['plumb', 'test', '--wdir', proj, 'TICKET-77']).action).toBe('would hold it on port tickets for 120 s: nobody reads it (pane plumb read tickets)');
    expect(r.errors).toEqual([{ file: rulesFile, line: 5, message: expect.stringMatching(/^bad pattern "\(broken"/) }]);
    const rules = sh(['plumb', 'rules', '--wdir', proj]);
    expect(rules.status).toBe(1);
    expect(rules.stderr).toContain(`pane plumb: ${rulesFile}:5: bad pattern`);
    expect(rules.stdout).toMatch(/^tickets +0 +1$/m);
    // A reader that comes later gets what was held, then what comes next.
    const reader = spawn(BIN, ['--socket', s.socket, 'plumb', 'read', 'tickets'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const got = collect(reader);
    await until('the held message', () => got.out().includes('"id":"77"'));
    await until('a reader on the port', () => /^tickets +1 +0$/m.test(sh(['plumb', 'rules']).stdout));
    expect(json(['plumb', 'test', '--wdir', proj, 'TICKET-78']).action).toBe('would send it to port tickets (1 reading)');
    expect(json(['plumb', 'send', '--wdir', proj, 'TICKET-78']).action).toBe('sent to port tickets');
    await until('the next message', () => got.out().includes('"id":"78"'));
    const line = JSON.parse(got.out().trim().split('\n').at(-1)!);
    expect(line).toEqual({ src: 'the person', dst: 'tickets', wdir: proj, type: 'text', data: 'TICKET-78', attrs: { id: '78' }, rule: `${rulesFile}:1` });
    reader.kill('SIGINT');
    await got.exit;
    // The file is edited: the new rule is read at the next message, no restart.
    fs.writeFileSync(rulesFile, "data matches 'BUG-([0-9]+)'\nplumb to bugs\n");
    expect(json(['plumb', 'send', '--wdir', proj, 'BUG-1']).rule).toBe(`${rulesFile}:1`);
    expect(sh(['plumb', 'send', '--wdir', proj, 'TICKET-79']).status).toBe(1);
    // /pane/log says what fired, as whom.
    expect(sh(['cat', '/log']).stdout).toMatch(new RegExp(`^- plumb the_person ${rulesFile.replace(/[.]/g, '\\.')}:1 sent to port tickets$`, 'm'));
    fs.rmSync(rulesFile);
  });

  it("a project's .pane/plumbing starts nothing the person's rules don't name, word for word", () => {
    const marker = path.join(s.dir, 'pwned');
    fs.mkdirSync(path.join(proj, '.pane'), { recursive: true });
    const file = path.join(proj, '.pane', 'plumbing');
    fs.writeFileSync(file, ["data matches 'run-me'", `plumb start sh -c 'touch ${marker}'`, '', "data matches 'git-me'", 'plumb start git -c core.pager=sh show HEAD', '', "data matches 'NOTE-([0-9]+)'", 'plumb to notes', ''].join('\n'));
    const r = json(['plumb', 'send', '--wdir', path.join(proj, 'src'), 'run-me']);
    expect(r.fired).toBe(false);
    expect(r.errors.map((e) => [e.file, e.line])).toEqual([
      [file, 2],
      [file, 5],
    ]);
    expect(r.errors[0]!.message).toMatch(/a project's rules start only what the person's own or the shipped rules start, word for word/);
    expect(fs.existsSync(marker)).toBe(false);
    // Its rules that only send to a port work.
    expect(json(['plumb', 'send', '--wdir', path.join(proj, 'src'), 'NOTE-3']).rule).toBe(`${file}:7`);
    fs.rmSync(path.join(proj, '.pane'), { recursive: true });
  });

  it('a matched value is never an option to a program a rule starts', () => {
    const out = path.join(s.dir, 'out');
    fs.writeFileSync(rulesFile, "data matches 'make:(\\S+)'\nplumb start touch $1\n");
    const r = sh(['plumb', 'send', '--wdir', s.dir, '--', `make:--reference=${out}`]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/plumb: .*plumbing:2: the value "--reference=.*" would start an argument with "-" \(read as an option\): refused/);
    // A test says the same, as a refusal (exit 1), not as a start it would make.
    const t = sh(['plumb', 'test', '--wdir', s.dir, '--', `make:--reference=${out}`]);
    expect(t.status).toBe(1);
    expect(t.stderr).toMatch(/^pane: .*plumbing:1 matches, but .*plumbing:2: the value "--reference=.*" would start an argument with "-" \(read as an option\): refused$/m);
    expect(sh(['plumb', 'test', '--wdir', s.dir, 'make:all']).stdout).toMatch(/^.*plumbing:1: would start touch all in a (pane beside pane \d+|new pane of the focused session)$/m);
    expect(sh(['ls']).stdout.trim().split('\n')).toHaveLength(2);
    fs.rmSync(rulesFile);
  });

  it('stops a rule that fires again and again for the same text (a reader that plumbs back what it reads)', async () => {
    fs.writeFileSync(rulesFile, "data matches 'LOOP'\nplumb to loop\n");
    const c = await reachServer(s.socket);
    const actions: string[] = [];
    for (let i = 0; i < 10; i++) actions.push((await c.call('plumb/send', { text: 'LOOP', wdir: s.dir })).action);
    c.close();
    expect(actions.slice(0, 8).every((a) => a.startsWith('held on port loop'))).toBe(true);
    expect(actions[8]).toMatch(/^stopped: rule .*plumbing:1 fired 9 times in 10 s for the same text: it plumbs to itself/);
    expect(json(['plumb', 'send', '--wdir', s.dir, 'LOOP']).action).toMatch(/^stopped:/);
    fs.rmSync(rulesFile);
  });

  it('a pattern written to backtrack forever is matched in linear time, and the server keeps serving', () => {
    fs.writeFileSync(rulesFile, "data matches '(a+)+$'\nplumb to slow\n\ndata matches '(x|xx)+y'\nplumb to slow\n");
    const r = json(['plumb', 'test', '--wdir', s.dir, '--click', '1', `${'a'.repeat(8000)}!`]);
    expect(r.fired).toBe(false);
    expect(json(['plumb', 'test', '--wdir', s.dir, '--click', '1', `${'x'.repeat(8000)}!`]).fired).toBe(false);
    expect(sh(['ls']).status).toBe(0);
    fs.rmSync(rulesFile);
  });

  it('bad messages get errors that name the problem', () => {
    const long = sh(['plumb', 'send', 'x'.repeat(9000)]);
    expect(long.stderr).toMatch(/text: a plumbed text is at most 8192 characters/);
    expect(sh(['plumb', 'send', '--click', '9', 'short']).stderr).toMatch(/--click 9 is past the end of the text/);
    expect(sh(['plumb', 'send', '--wdir', 'rel/dir', 'x']).stderr).toMatch(/wdir rel\/dir is not an absolute path/);
    expect(sh(['plumb', 'read', 'Bad/Port']).stderr).toMatch(/is not a port name/);
  });

  it("an agent's click is the agent's: its editor pane is its own, and a pane outside its .access is refused", async () => {
    expect(sh(['agent', 'add', 'ada', '--project', proj]).status).toBe(0);
    const token = fs.readFileSync(path.join(s.dir, '.local/share/pane/agents/ada/.token'), 'utf8').trim();
    const ada = { PANE_AGENT: 'ada', PANE_TOKEN: token, EDITOR: 'vi' };
    const refused = sh(['plumb', 'send', '-t', '1', 'src/x.ts:3'], ada);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/denied: ada's \.access panes\.write does not include pane 1/);
    const r = json(['plumb', 'send', '--wdir', proj, 'src/x.ts:3'], ada);
    expect(r.fired, JSON.stringify(r)).toBe(true);
    const panes = JSON.parse(sh(['ls', '--json']).stdout) as { n: number; owner: string }[];
    expect(panes.find((p) => p.n === r.pane)?.owner).toBe('ada');
    expect(sh(['cat', '/log']).stdout).toMatch(new RegExp(`^- plumb agent_ada \\(shipped\\):\\d+ opened .*x\\.ts:3 with vi in pane ${r.pane}$`, 'm'));
    sh(['close', '-t', String(r.pane)]);
    // What its sandbox hides, the plumber does not look at for it: the person's files outside its project.
    fs.mkdirSync(path.join(s.dir, 'private'), { recursive: true });
    fs.writeFileSync(path.join(s.dir, 'private', 'notes.txt'), 'x\n');
    const probe = json(['plumb', 'test', '--wdir', proj, `${path.join(s.dir, 'private', 'notes.txt')}:1`], ada);
    expect(probe.fired).toBe(false);
    expect(json(['plumb', 'test', '--wdir', s.dir, `${path.join(s.dir, 'private', 'notes.txt')}:1`]).fired).toBe(true);
    const outside = sh(['plumb', 'test', '--wdir', path.join(s.dir, 'private'), 'notes.txt'], ada);
    expect(outside.stderr).toMatch(/denied: agent ada plumbs from the directories its sandbox shows it; .*private is not one/);
    // A project rule file that is a link to the person's secret is not read for the agent (its errors would quote it).
    fs.writeFileSync(path.join(s.dir, 'private', 'secret'), 'SECRET-LINE-1 not a rule\n');
    fs.mkdirSync(path.join(proj, '.pane'), { recursive: true });
    fs.symlinkSync(path.join(s.dir, 'private', 'secret'), path.join(proj, '.pane', 'plumbing'));
    expect(sh(['plumb', 'rules', '--wdir', proj, '--json'], ada).stdout).not.toContain('SECRET-LINE');
    expect(JSON.stringify(json(['plumb', 'test', '--wdir', proj, 'x'], ada))).not.toContain('SECRET-LINE');
    expect(sh(['plumb', 'rules', '--wdir', proj, '--json']).stdout).toContain('SECRET-LINE'); // the person may read their own file
    fs.rmSync(path.join(proj, '.pane'), { recursive: true });
  });

  it('a guest with an attach grant plumbs nothing, read-write or not', () => {
    const g = JSON.parse(sh(['grant', 'new', '--rw', '--json']).stdout) as { token: string };
    const r = sh(['plumb', 'send', '--wdir', proj, 'src/x.ts:3'], { PANE_GRANT: g.token });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/refused: grant g[0-9a-f]{8} \(read-write\) may not call plumb\/send/);
    expect(sh(['plumb', 'rules'], { PANE_GRANT: g.token }).stderr).toMatch(/may not call plumb\/rules/);
  });
});
