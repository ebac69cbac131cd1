// The server never acts as the person on a path an agent controls: a real `pane
// serve`, an agent shell in its bubblewrap sandbox planting links from inside, and
// links, FIFOs and hooks planted on disk in its home, Maildir, project and repository.
// Each case fails against the code before kits/node/safeFile.ts and repoGit.ts.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxUnavailable } from '../../server/agents/sandbox';
import { loadFuse } from '../../kits/node/fuse/mounts';
import { buildOnce, cleanEnv, serve, BIN, type Served } from '../cli/harness';

const why = sandboxUnavailable(process.env.PATH);
const loaded = loadFuse();
const noFuse = typeof loaded === 'string' ? loaded : fs.existsSync('/dev/fuse') ? '' : 'no /dev/fuse';

let s: Served;
let human: string;
let project: string;
let home: (name: string) => string;
let seq = 0;

/** Every line /pane/log holds now. */
const paneLog = () => s.pane(['cat', '/log']).stdout;

/** Waits up to `ms` for `f` to hold, polling. */
async function until(f: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (f()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return f();
}

beforeAll(async () => {
  buildOnce();
  s = await serve();
  human = s.dir;
  home = (name) => path.join(human, '.local/share/pane/agents', name);
  project = path.join(human, 'proj');
  fs.mkdirSync(project);
  fs.mkdirSync(path.join(human, '.ssh'), { mode: 0o700 });
  fs.writeFileSync(path.join(human, '.ssh', 'id_ed25519'), 'SECRET-KEY\n');
  fs.writeFileSync(path.join(human, 'victim.txt'), 'the person’s file\n');
  expect(s.pane(['agent', 'add', 'ada', '--project', project]).status).toBe(0);
  expect(s.pane(['agent', 'add', 'bob']).status).toBe(0);
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

describe.skipIf(why !== null)(`links an agent plants from inside its sandbox${why ? ` (skipped: ${why})` : ''}`, () => {
  let shell: number;

  /** Runs one command line in ada's sandboxed shell; resolves with its exit status. */
  async function inside(cmd: string): Promise<number> {
    const mark = `M${++seq}X`;
    expect(s.pane(['send', '-t', String(shell), `${cmd}; echo ${mark}=$?`]).stderr).toBe('');
    let status = -1;
    const seen = await until(() => {
      const m = new RegExp(`${mark}=([0-9]+)`).exec(s.pane(['cat', `/${shell}/body`]).stdout);
      if (m) status = Number(m[1]);
      return m !== null;
    }, 20_000);
    expect(seen).toBe(true);
    return status;
  }

  beforeAll(async () => {
    const r = s.pane(['agent', 'run', 'ada', '--', 'bash', '--norc', '--noprofile']);
    expect(r.stderr).toBe('');
    shell = Number(r.stdout.trim().split(':').pop());
    expect(s.pane(['cat', `/${shell}/attrs`]).stdout).toMatch(/agent\.sandbox.*bubblewrap/);
    expect(await inside('true')).toBe(0);
  }, 60_000);

  it('finger does not hand out a file the agent may not read through a .plan link it planted', async () => {
    const key = path.join(human, '.ssh', 'id_ed25519');
    // From inside: the key itself is hidden, but a link to it is just a name.
    expect(await inside(`cat ${key}`)).not.toBe(0);
    expect(await inside(`ln -sfn ${key} ${home('ada')}/.plan`)).toBe(0);
    expect(fs.lstatSync(path.join(home('ada'), '.plan')).isSymbolicLink()).toBe(true);
    const f = s.pane(['finger', 'ada']);
    expect(f.status).toBe(0);
    expect(f.stdout).not.toContain('SECRET-KEY');
    const refusal = `refused ${home('ada')}/.plan: it is a symbolic link`;
    expect(await until(() => paneLog().includes(refusal), 5000)).toBe(true);
    expect(fs.readFileSync(path.join(home('ada'), 'log'), 'utf8')).toContain(refusal);
  });

  it('pane plan writes no file outside the walls through a link at .plan or at its old temp name', async () => {
    const victim = path.join(human, 'victim.txt');
    expect(await inside(`ln -sfn ${victim} ${home('ada')}/.plan.tmp && ln -sfn ${victim} ${home('ada')}/.plan`)).toBe(0);
    const r = s.pane(['plan', 'ada', 'the new plan']);
    expect(r.stderr).toBe('');
    expect(fs.readFileSync(victim, 'utf8')).toBe('the person’s file\n');
    // The link at .plan was replaced by the plan itself, never written through.
    expect(fs.lstatSync(path.join(home('ada'), '.plan')).isFile()).toBe(true);
    expect(s.pane(['plan', 'ada']).stdout).toContain('the new plan');
  });
});

describe('links, FIFOs and hooks planted in an agent’s files', () => {
  it('keeps answering while a FIFO sits at a project’s .pane/awareness.json, and logs the refusal', async () => {
    const src = path.join(project, 'src');
    fs.mkdirSync(path.join(project, '.pane'), { recursive: true });
    fs.mkdirSync(src, { recursive: true });
    const fifo = path.join(project, '.pane', 'awareness.json');
    execFileSync('mkfifo', [fifo]);
    try {
      // bob holds src/: ada's write there makes the server look up the project's claim-conflict setting.
      expect(s.pane(['claim', '--as', 'bob', '--dir', `${src}/`]).status).toBe(0);
      const token = fs.readFileSync(path.join(home('ada'), '.token'), 'utf8').trim();
      const event = { hook_event_name: 'PreToolUse', session_id: 'fifo-1', cwd: project, tool_name: 'Write', tool_input: { file_path: path.join(src, 'a.ts'), content: 'x' } };
      const hook = spawn(BIN, ['--socket', s.socket, 'hook'], { env: cleanEnv({ PANE_TOKEN: token, PANE_AGENT: 'ada' }), stdio: ['pipe', 'pipe', 'pipe'] });
      let answer = '';
      hook.stdout.on('data', (c) => (answer += c));
      hook.stdin.end(JSON.stringify(event));
      await new Promise((r) => hook.once('exit', r));
      // The server's main loop is free: a round trip answers at once.
      const t = Date.now();
      const ls = s.pane(['ls']);
      expect(ls.status).toBe(0);
      expect(Date.now() - t).toBeLessThan(2000);
      expect(answer).toContain('bob');
      const refusal = `refused ${fifo}: it is a FIFO`;
      expect(await until(() => paneLog().includes(refusal), 5000)).toBe(true);
      expect(fs.readFileSync(path.join(home('ada'), 'log'), 'utf8')).toContain(refusal);
    } finally {
      // Against the old code the server sits in open(2) on the FIFO: a writer lets it go.
      try {
        fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
      } catch {
        // no reader: nothing is stuck
      }
      fs.rmSync(fifo, { force: true });
      s.pane(['release', '--as', 'bob', '--dir', `${src}/`]);
    }
  });

  it('makes a worktree without running the repository’s post-checkout hook or its core.fsmonitor command', () => {
    const repo = path.join(human, 'repo');
    const marks = path.join(human, 'marks');
    fs.mkdirSync(marks);
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' } });
    fs.mkdirSync(repo);
    git('init', '-q');
    fs.writeFileSync(path.join(repo, 'f.txt'), 'hi\n');
    fs.writeFileSync(path.join(repo, '.gitattributes'), '* filter=own\n');
    git('add', '.');
    git('commit', '-qm', 'one');
    // What the agent can leave in its repository: hooks, an fsmonitor command, a filter driver
    // (filter.NAME.process is pinned the same way; a command that is no filter process would only make git fail).
    for (const hook of ['post-checkout', 'reference-transaction', 'post-index-change']) {
      fs.writeFileSync(path.join(repo, '.git', 'hooks', hook), `#!/bin/sh\ntouch ${marks}/${hook}\n`, { mode: 0o755 });
    }
    git('config', 'core.fsmonitor', `touch ${marks}/fsmonitor; echo`);
    git('config', 'filter.own.smudge', `touch ${marks}/smudge; cat`);
    const r = s.pane(['agent', 'run', 'ada', '--worktree', '--cwd', repo, '--', '/bin/cat']);
    expect(r.stderr).toBe('');
    const pane = r.stdout.trim().split(':').pop()!;
    const attrs = s.pane(['cat', `/${pane}/attrs`]).stdout;
    const wt = /agent\.worktree[ =]+(\S+)/.exec(attrs)?.[1];
    expect(wt).toMatch(/\.pane\/worktrees\/ada-/);
    expect(fs.readFileSync(path.join(wt!, 'f.txt'), 'utf8')).toBe('hi\n');
    expect(fs.readdirSync(marks)).toEqual([]);
    s.pane(['close', '-t', pane]);
  });

  it('pane hook install and pane mcp install, run by the person in a project, write nothing through a link planted there', () => {
    const victim = path.join(human, 'victim.txt');
    const outside = path.join(human, 'outside-claude');
    fs.mkdirSync(outside);
    const p = path.join(human, 'proj-cli');
    fs.mkdirSync(p);
    // .claude is a link to a directory of the person's; the old code wrote settings.json (and its temp) there.
    fs.symlinkSync(outside, path.join(p, '.claude'));
    const hook = s.pane(['hook', 'install', '--project', p]);
    expect(hook.status).not.toBe(0);
    expect(hook.stderr).toContain(`refused ${p}/.claude: it is a symbolic link`);
    expect(fs.readdirSync(outside)).toEqual([]);
    // A link at the fixed temp name the old code wrote through, and one at .mcp.json itself.
    fs.symlinkSync(victim, path.join(p, '.mcp.json.pane-tmp'));
    expect(s.pane(['mcp', 'install', '--project', p]).status).toBe(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe('the person’s file\n');
    fs.rmSync(path.join(p, '.mcp.json'));
    fs.symlinkSync(victim, path.join(p, '.mcp.json'));
    const mcp = s.pane(['mcp', 'install', '--project', p]);
    expect(mcp.status).not.toBe(0);
    expect(mcp.stderr).toContain(`refused ${p}/.mcp.json: it is a symbolic link`);
    expect(fs.readFileSync(victim, 'utf8')).toBe('the person’s file\n');
  });

  it.skipIf(noFuse !== '')(`keeps answering when a pane names a path on the person’s own /pane mount (OSC 7, a hook, through a link)${noFuse ? ` (skipped: ${noFuse})` : ''}`, async () => {
    const mnt = path.join(human, 'mnt');
    expect(s.pane(['mount', mnt]).stderr).toBe('');
    try {
      const src = path.join(project, 'm');
      fs.symlinkSync(mnt, src);
      const r = s.pane(['new', '--', 'bash', '--norc', '--noprofile']);
      const n = r.stdout.trim().split(':').pop()!;
      expect(await until(() => /[#$] *$/m.test(s.pane(['cat', `/${n}/body`]).stdout), 10_000)).toBe(true);
      // Any program says where it is with OSC 7; the old server stat()ed that path on its own thread,
      // and a stat on the mount waits on the mount's process, which waits on the server.
      s.pane(['send', '-t', n, `printf '\\e]7;file://localhost${mnt}/1\\a'; printf '\\e]7;file://localhost${src}/1\\a'`]);
      await new Promise((res) => setTimeout(res, 1000));
      let t = Date.now();
      expect(s.pane(['ls']).status).toBe(0);
      expect(Date.now() - t).toBeLessThan(2000);
      // A hook naming a claimed file there: the claim-conflict lookup must not look.
      expect(s.pane(['claim', '--as', 'bob', '--dir', `${src}/1/`]).status).toBe(0);
      const token = fs.readFileSync(path.join(home('ada'), '.token'), 'utf8').trim();
      const event = { hook_event_name: 'PreToolUse', session_id: 'mnt-1', cwd: project, tool_name: 'Write', tool_input: { file_path: `${src}/1/x`, content: 'x' } };
      const hook = spawn(BIN, ['--socket', s.socket, 'hook'], { env: cleanEnv({ PANE_TOKEN: token, PANE_AGENT: 'ada' }), stdio: ['pipe', 'ignore', 'ignore'] });
      hook.stdin.end(JSON.stringify(event));
      await new Promise((res) => hook.once('exit', res));
      t = Date.now();
      expect(s.pane(['ls']).status).toBe(0);
      expect(Date.now() - t).toBeLessThan(2000);
      s.pane(['close', '-t', n]);
      // A program or a working directory on the mount: the server answers without looking there itself.
      const prog = s.pane(['new', '--', `${mnt}/1/x`]);
      expect(prog.status).not.toBe(0);
      expect(prog.stderr).toMatch(/no executable file/);
      const inMnt = s.pane(['new', '--cwd', `${src}/1`, '--', 'sleep', '30']);
      expect(inMnt.stderr).toBe('');
      t = Date.now();
      expect(s.pane(['ls']).status).toBe(0);
      expect(Date.now() - t).toBeLessThan(2000);
      s.pane(['close', '-t', inMnt.stdout.trim().split(':').pop()!]);
    } finally {
      s.pane(['umount', mnt]);
      spawnSync('fusermount', ['-u', '-z', mnt]);
    }
  });

  it('delivers no mail outside the walls through a link planted in the Maildir', () => {
    const outside = path.join(human, 'outside-mail');
    fs.mkdirSync(outside);
    const md = path.join(home('bob'), 'Maildir');
    fs.rmSync(path.join(md, 'tmp'), { recursive: true });
    fs.symlinkSync(outside, path.join(md, 'tmp'));
    const r = s.pane(['mail', 'bob', '-s', 'hello'], { input: 'body\n' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`refused ${md}/tmp: it is a symbolic link`);
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(paneLog()).toContain(`refused ${md}/tmp: it is a symbolic link`);
    // The new/ side too: a link there is refused, and the message stays in tmp/ of no one.
    fs.unlinkSync(path.join(md, 'tmp'));
    fs.mkdirSync(path.join(md, 'tmp'));
    fs.rmSync(path.join(md, 'new'), { recursive: true });
    fs.symlinkSync(outside, path.join(md, 'new'));
    expect(s.pane(['mail', 'bob', '-s', 'again'], { input: 'body\n' }).status).not.toBe(0);
    expect(fs.readdirSync(outside)).toEqual([]);
  });
});
