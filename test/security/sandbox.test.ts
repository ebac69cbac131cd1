// An agent's shell in its OS sandbox, for real: `pane serve`, `pane agent run ada
// -- bash` through the built CLI, bubblewrap underneath. Inside, the kernel holds
// the .access: no writes outside its paths, hidden paths stay hidden, the person's
// socket cannot be reached — and `pane` still works, as ada and only as ada.
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxUnavailable } from '../../server/agents/sandbox';
import { agentHarness } from '../agents/helpers';
import { buildOnce, lineIn, ROOT, serve, type Served } from '../cli/harness';

const why = sandboxUnavailable(process.env.PATH);

let s: Served;
let shell: number;
let human: string;
let project: string;
/**
 * Where the person's own sockets are (their session bus, their ssh agent): outside their home and
 * outside the temp places (each sandbox has those empty), so a sandbox sees them, as it would a
 * socket in the system's places: the seccomp filter, not a hidden path, is what must stop it.
 */
let personSockets: string;
const personListeners: net.Server[] = [];
const within = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
/** The person's $XDG_RUNTIME_DIR (pane's runtime dir is in it): an address an agent must not be given. */
let personRuntime: string;

/** The person's environment as a desktop session has it: logins, keys and sockets an agent must not inherit. */
function personEnv(): Record<string, string> {
  return {
    GITHUB_TOKEN: 'PERSONS-GITHUB-TOKEN',
    AWS_SECRET_ACCESS_KEY: 'PERSONS-AWS-SECRET',
    NPM_TOKEN: 'PERSONS-NPM-TOKEN',
    OPENAI_API_KEY: 'PERSONS-OPENAI-KEY',
    PROBE_API_KEY: 'PERSONS-PROBE-KEY',
    SSH_AUTH_SOCK: path.join(personSockets, 'ssh-agent.sock'),
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(personSockets, 'bus')}`,
    DISPLAY: ':0',
    XDG_RUNTIME_DIR: personRuntime,
    LANG: 'C.UTF-8',
  };
}

/** A line that connects to the unix socket `p` from inside and prints what it answers, or the error's code (exit 1). */
const connect = (p: string) => `node -e "require('net').connect('${p}').on('data',d=>{console.log(String(d));process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(1)})"`;

/** Runs one command line in the agent's shell (pane `pane`): its output and status. */
function inside(cmd: string, pane = shell): Promise<{ out: string; status: number }> {
  return lineIn((args) => s.pane(args), pane, cmd);
}

/** The sandbox helper's socket pane `n`'s launcher asks (its argv: /bin/sh -c LAUNCHER pane-sandbox SOCKET REQUEST). */
function helperOf(n: number): string {
  const row = (JSON.parse(s.pane(['ls', '--json']).stdout) as Array<{ n: number; pid?: number }>).find((p) => p.n === n)!;
  const argv = fs.readFileSync(`/proc/${row.pid}/cmdline`, 'utf8').split('\0');
  expect(argv[3]).toBe('pane-sandbox');
  return argv[4]!;
}

/** One line sent to the helper's socket, as a launcher sends it; its whole answer. */
function askHelper(socket: string, line: string): string {
  return execFileSync('socat', ['-t', '10', '-', `UNIX-CONNECT:${socket}`], { input: line, encoding: 'utf8' });
}

describe.skipIf(why !== null)(`an agent shell in its sandbox${why ? ` (skipped: ${why})` : ''}`, () => {
  beforeAll(async () => {
    buildOnce();
    const cache = path.join(ROOT, 'node_modules', '.cache');
    fs.mkdirSync(cache, { recursive: true });
    personSockets = fs.mkdtempSync(path.join(cache, 'pane-person-run-'));
    personRuntime = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-xdg-'));
    // The person's session bus and ssh agent, answering whoever connects: what a sandboxed program could drive the
    // person's desktop with (systemd-run --user over the bus, ssh logins over the agent).
    for (const name of ['bus', 'ssh-agent.sock']) {
      const srv = net.createServer((c) => {
        c.on('error', () => undefined);
        c.end(`PERSONS-${name}\n`);
      });
      await new Promise<void>((res) => srv.listen(path.join(personSockets, name), res));
      personListeners.push(srv);
    }
    s = await serve([], personEnv());
    human = s.dir;
    project = path.join(s.dir, 'proj');
    fs.mkdirSync(project);
    // A repository with editor settings of its own: what the agent may not rewrite.
    execFileSync('git', ['init', '-q', project]);
    fs.mkdirSync(path.join(project, '.vscode'));
    fs.writeFileSync(path.join(project, '.vscode', 'settings.json'), '{}\n');
    fs.mkdirSync(path.join(human, '.ssh'), { mode: 0o700 });
    fs.writeFileSync(path.join(human, '.ssh', 'id_ed25519'), 'SECRET-KEY\n');
    // The person's logins for three agent CLIs, by the paths those CLIs keep them at.
    for (const [dir, file] of [['.claude', '.credentials.json'], ['.codex', 'auth.json'], ['.gemini', 'oauth_creds.json']]) {
      fs.mkdirSync(path.join(human, dir!), { recursive: true });
      fs.writeFileSync(path.join(human, dir!, file!), `PERSONS-LOGIN-${dir}\n`);
    }
    expect(s.pane(['agent', 'add', 'ada', '--project', project]).status).toBe(0);
    expect(s.pane(['agent', 'add', 'bob', '--plan', 'BOBS-PLAN']).status).toBe(0);
    const r = s.pane(['agent', 'run', 'ada', '--', 'bash', '--norc', '--noprofile']);
    expect(r.stderr).toBe('');
    shell = Number(r.stdout.trim().split(':').pop());
    await inside('true');
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    for (const l of personListeners) l.close();
    for (const d of [personSockets, personRuntime]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it('inherits none of the person’s tokens, keys or sockets from the environment: only what a terminal program needs', async () => {
    const env = await inside('env');
    for (const leak of ['PERSONS-GITHUB-TOKEN', 'PERSONS-AWS-SECRET', 'PERSONS-NPM-TOKEN', 'PERSONS-OPENAI-KEY', 'PERSONS-PROBE-KEY', 'SSH_AUTH_SOCK', 'DBUS_SESSION_BUS_ADDRESS', 'DISPLAY=', 'XDG_RUNTIME_DIR', personSockets, personRuntime]) expect(env.out, leak).not.toContain(leak);
    expect(env.out).toMatch(/^LANG=C\.UTF-8$/m);
    expect(env.out).toMatch(/^PATH=/m);
    expect(env.out).toMatch(/^PANE_AGENT=ada$/m);
    // Its way to pane is the relay on its own loopback, to its own socket.
    expect(env.out).toMatch(/^PANE_SOCKET=tcp:\/\/127\.0\.0\.1:\d+$/m);
    // The person's own panes keep the person's environment.
    expect(s.pane(['send', '-t', '1', 'echo "gh=$GITHUB_TOKEN"']).status).toBe(0);
    const deadline = Date.now() + 10_000;
    while (!/gh=PERSONS-GITHUB-TOKEN/.test(s.pane(['cat', '/1/body']).stdout) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 150));
    expect(s.pane(['cat', '/1/body']).stdout).toMatch(/gh=PERSONS-GITHUB-TOKEN/);
    expect(s.pane(['access', 'ada']).stdout).toMatch(/environment: of the person's, only PATH, locale/);
  });

  it('gets the login variables its app file names, as its .access sandbox.credentials allows, and nothing else', async () => {
    const apps = path.join(process.env.XDG_CONFIG_HOME ?? path.join(human, '.config'), 'pane', 'apps');
    fs.mkdirSync(apps, { recursive: true });
    fs.writeFileSync(path.join(apps, 'probe.json'), JSON.stringify({ name: 'Probe CLI', signature: 'com.example.probe', kind: 'agent', launch: { program: 'bash', args: ['--norc', '--noprofile'] }, agent: { home: { env: ['PROBE_API_KEY'] } } }));
    const launch = async (name: string): Promise<number> => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const r = s.pane(['agent', 'run', name, '--app', 'probe']);
        if (r.status === 0) return Number(r.stdout.trim().split(':').pop());
        if (Date.now() > deadline) throw new Error(`agent run ${name} --app probe: ${r.stderr}`);
        await new Promise((res) => setTimeout(res, 200)); // the app file is picked up by a watch
      }
    };
    const cara = await launch('cara');
    const withKey = await inside('env', cara);
    expect(withKey.out).toMatch(/^PROBE_API_KEY=PERSONS-PROBE-KEY$/m);
    for (const leak of ['PERSONS-GITHUB-TOKEN', 'PERSONS-OPENAI-KEY', 'SSH_AUTH_SOCK']) expect(withKey.out, leak).not.toContain(leak);
    expect(s.pane(['access', 'cara']).stdout).toMatch(/login env: +PROBE_API_KEY/);
    // credentials "none": not even its app's.
    const accessFile = path.join(human, '.local/share/pane/agents/cara/.access');
    const access = JSON.parse(fs.readFileSync(accessFile, 'utf8')) as { sandbox?: Record<string, unknown> };
    fs.writeFileSync(accessFile, JSON.stringify({ ...access, sandbox: { ...(access.sandbox ?? {}), credentials: 'none' } }));
    // Read again once its cache (500 ms) has passed: `pane access` says so before the launch.
    const seen = Date.now() + 10_000;
    while (!/login env: +none/.test(s.pane(['access', 'cara']).stdout) && Date.now() < seen) await new Promise((res) => setTimeout(res, 100));
    expect(s.pane(['access', 'cara']).stdout).toMatch(/login env: +none/);
    expect(s.pane(['close', '-t', String(cara)]).status).toBe(0);
    const again = await launch('cara');
    const without = await inside('env', again);
    expect(without.out).not.toContain('PERSONS-PROBE-KEY');
    expect(s.pane(['close', '-t', String(again)]).status).toBe(0);
  });

  it('has /tmp and /var/tmp empty and its own: the person’s files there unseen, what it writes there left there', async () => {
    // The window's browser profile is in the temp dir (electron/chromium.ts): its cookies are the person's.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-chromium-'));
    fs.writeFileSync(path.join(profile, 'Cookies'), 'PERSONS-COOKIE\n');
    try {
      // Listed inside: nothing of the person's (the paths bound back in, such as this test's home, are directories
      // bubblewrap made on the way to them, each hidden in turn).
      const listed = await inside(`ls -A /tmp /var/tmp | grep -c pane-chromium; cat ${profile}/Cookies 2>/dev/null | grep -c PERSONS`);
      expect(listed.out.split('\n').slice(-2)).toEqual(['0', '0']);
      // A write there stays there: into its own /tmp (read-only where the person's home is inside it, as here in the
      // suite's homes under /tmp, so a write into that hidden home is refused), never the machine's.
      const scratch = `agent-scratch-${process.pid}`;
      const wrote = await inside(`echo mine > /tmp/${scratch} && cat /tmp/${scratch}`);
      if (within(human, os.tmpdir())) expect(wrote.out).toMatch(/Read-only file system/);
      else expect(wrote.out).toBe('mine');
      expect(fs.existsSync(path.join('/tmp', scratch))).toBe(false);
      // Its network still goes out through the runtime's proxies, whose sockets are bound in from the helper's own dir.
      // An HTTP status line from the proxy (a refusal: no token, a loopback target) is that way working; nothing leaves the machine.
      const proxy = await inside(`exec 3<>/dev/tcp/127.0.0.1/3128 && printf 'GET http://127.0.0.1:9/ HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3; exec 3<&-`);
      expect(proxy.out).toMatch(/HTTP\/1\.[01] [0-9]{3}/);
      expect(s.pane(['access', 'ada']).stdout).toMatch(/and the temp dirs \(\/tmp, \/var\/tmp.*each its own and empty inside\)/);
    } finally {
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });

  it('makes no unix socket: the person’s session bus and ssh agent, which it can see, do not answer it', async () => {
    // Outside they answer: the walls, not a dead socket, are what the agent meets.
    const answer = await new Promise<string>((res, rej) => {
      let got = '';
      net.connect(path.join(personSockets, 'bus')).on('data', (d) => (got += String(d))).on('end', () => res(got)).on('error', rej);
    });
    expect(answer).toContain('PERSONS-bus');
    for (const name of ['bus', 'ssh-agent.sock']) {
      const sock = path.join(personSockets, name);
      expect((await inside(`test -S ${sock} && echo VISIBLE`)).out).toBe('VISIBLE');
      const viaSocat = await inside(`socat -t 5 - UNIX-CONNECT:${sock} </dev/null`);
      expect(viaSocat.out, name).not.toContain('PERSONS-');
      expect(viaSocat.status).not.toBe(0);
      const viaNode = await inside(connect(sock));
      expect(viaNode.out, name).not.toContain('PERSONS-');
      expect(viaNode.out).toMatch(/EPERM|EACCES/);
    }
    // Its own pane still answers, as ada, through the relay.
    expect((await inside('pane ls')).out).toMatch(/com\.pane\.ai\.agent\.ada/);
  });

  it('makes unix sockets of its own only where its .access allows them: through the helper whose walls allow them, nested namespaces still refused, hidden places still hidden', async () => {
    expect(s.pane(['agent', 'add', 'uma', '--project', project]).status).toBe(0);
    const file = path.join(human, '.local/share/pane/agents/uma/.access');
    const a = JSON.parse(fs.readFileSync(file, 'utf8')) as { sandbox?: Record<string, unknown> };
    const allow = (read: string[]) => fs.writeFileSync(file, JSON.stringify({ ...a, sandbox: { ...(a.sandbox ?? {}), unixSockets: 'allow', read } }));
    allow([]);
    // A socket of the person's in their home (hidden whole): not there to connect to, filter or none.
    const personal = path.join(human, '.person.sock');
    const srv = net.createServer((c) => c.end('PERSONS-home-socket\n'));
    await new Promise<void>((res) => srv.listen(personal, res));
    // A service's socket in /run (docker's gives its group root) and a container's secret there (/run/secrets), where
    // this user may make them (root in CI): hidden with the rest of /run, the socket answering only once granted.
    const service = path.join('/run', `pane-probe-${process.pid}.sock`);
    const secrets = path.join('/run', `pane-probe-${process.pid}`);
    const svcSrv = net.createServer((c) => c.end('SERVICE-socket\n'));
    const planted = await new Promise<boolean>((res) => svcSrv.once('error', () => res(false)).listen(service, () => res(true)));
    if (planted) {
      fs.mkdirSync(secrets);
      fs.writeFileSync(path.join(secrets, 'token'), 'SERVICE-SECRET\n');
    }
    try {
      const seen = Date.now() + 10_000;
      while (!/unix sockets: MAY BE MADE/.test(s.pane(['access', 'uma']).stdout) && Date.now() < seen) await new Promise((res) => setTimeout(res, 100));
      const access = s.pane(['access', 'uma']).stdout;
      expect(access).toMatch(/unix sockets: MAY BE MADE inside \(\.access sandbox\.unixSockets is "allow"\): its programs may connect to every socket they can see/);
      expect(access).toMatch(/the machine's services' are hidden with the rest of \/run/);
      expect(access).toMatch(/its services' sockets and secrets \(\/run\)/);
      expect(s.pane(['access', 'ada']).stdout).toMatch(/unix sockets: none can be made inside \(a seccomp filter\)/);
      const r = s.pane(['agent', 'run', 'uma', '--', 'bash', '--norc', '--noprofile']);
      expect(r.stderr).toBe('');
      const uma = Number(r.stdout.trim().split(':').pop());
      await inside('true', uma);
      // Its launcher asked the helper whose walls allow sockets; ada's asks the other.
      const helper = helperOf(uma);
      expect(helper).toMatch(/sandbox-helper-\d+-unix\.sock$/);
      expect(helperOf(shell)).toMatch(/sandbox-helper-\d+\.sock$/);
      // A socket of its own, listened on and answered, in its temp dir: what a tmux server or a database does.
      const own = `node -e "const n=require('net');const p=require('path').join(process.env.TMPDIR||'/tmp','own.sock');n.createServer(c=>c.end('OWN-SOCKET')).listen(p,()=>n.connect(p).on('data',d=>{console.log(String(d));process.exit(0)})).on('error',e=>{console.log(e.code);process.exit(1)})"`;
      expect(await inside(own, uma)).toEqual({ out: 'OWN-SOCKET', status: 0 });
      // ada, whose .access says nothing of sockets, still makes none.
      const refused = await inside(own, shell);
      expect(refused.out).toMatch(/EPERM|EACCES/);
      // No user namespace inside it (one would let it unmount its walls from a copy of them).
      const userns = await inside('unshare -U -r true', uma);
      expect(userns.status).not.toBe(0);
      expect(userns.out).toMatch(/unshare failed: (No space left on device|Operation not permitted)/);
      // The person's home socket is hidden: nothing to connect to.
      const home = await inside(connect(personal), uma);
      expect(home.out).not.toContain('PERSONS-');
      expect(home.out).toMatch(/ENOENT/);
      // pane still answers, as uma, through the relay.
      expect((await inside('pane ls', uma)).out).toMatch(/com\.pane\.ai\.agent\.uma/);
      // Each helper refuses a request for the other's walls, by name.
      const req = (sockets: boolean) => `wrap 1 ${JSON.stringify({ argv: ['true'], settings: { pane: { sealed: [], root: [] }, network: { allowedDomains: [], deniedDomains: [], allowAllUnixSockets: sockets }, filesystem: { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] } }, cwd: project })}\n`;
      expect(askHelper(helper, req(false))).toMatch(/^#pane-sandbox-error the request's settings\.network\.allowAllUnixSockets is false; this helper's walls allow unix sockets/);
      expect(askHelper(helperOf(shell), req(true))).toMatch(/^#pane-sandbox-error the request's settings\.network\.allowAllUnixSockets is true; this helper's walls refuse unix sockets/);
      // /run is hidden whole and sealed: a service's socket is not there, nor a secret, nor room to write.
      // (At most the way to pane's runtime dir, where the daemon keeps it in /run/user: its proxies' sockets are bound back.)
      const runListed = await inside('ls -A /run', uma);
      expect(runListed.status).toBe(0);
      expect(runListed.out.split(/\s+/).filter((n) => n !== '' && n !== 'user')).toEqual([]);
      expect((await inside('echo x > /run/planted && echo WROTE', uma)).out).not.toContain('WROTE');
      if (planted) {
        const asked = await inside(connect(service), uma);
        expect(asked.out).not.toContain('SERVICE-');
        expect(asked.out).toMatch(/ENOENT/);
        const secret = await inside(`cat ${secrets}/token`, uma);
        expect(secret.status).not.toBe(0);
        expect(secret.out).not.toContain('SERVICE-SECRET');
        expect(await inside(`cat /var/run/pane-probe-${process.pid}/token`, uma)).not.toMatchObject({ status: 0 });
      }
      expect(s.pane(['close', '-t', String(uma)]).status).toBe(0);
      if (planted) {
        // Granted by name (.access sandbox.read), the one socket is bound back, and answers; the secret beside it stays hidden.
        allow([service]);
        const seen = Date.now() + 10_000;
        while (!s.pane(['access', 'uma']).stdout.includes(`${service}  (.access sandbox.read)`) && Date.now() < seen) await new Promise((res) => setTimeout(res, 100));
        const g = s.pane(['agent', 'run', 'uma', '--', 'bash', '--norc', '--noprofile']);
        expect(g.stderr).toBe('');
        const granted = Number(g.stdout.trim().split(':').pop());
        await inside('true', granted);
        expect(await inside(connect(service), granted)).toEqual({ out: 'SERVICE-socket', status: 0 });
        expect((await inside(`cat ${secrets}/token`, granted)).out).not.toContain('SERVICE-SECRET');
        expect(s.pane(['close', '-t', String(granted)]).status).toBe(0);
      }
    } finally {
      srv.close();
      svcSrv.close();
      fs.rmSync(secrets, { recursive: true, force: true });
    }
  });

  it('says in its tag attrs and in `pane access` that it runs under bubblewrap', () => {
    expect(s.pane(['cat', `/${shell}/attrs`]).stdout).toMatch(/agent\.sandbox.*bubblewrap/);
    const access = s.pane(['access', 'ada']).stdout;
    expect(access).toMatch(/sandbox: +its programs run under bubblewrap/);
    expect(access).toMatch(/network: +only api\.anthropic\.com/);
  });

  it('cannot write outside its project, home and temp dir', async () => {
    expect((await inside(`echo ok > ${project}/inside.txt`)).status).toBe(0);
    expect(fs.readFileSync(path.join(project, 'inside.txt'), 'utf8')).toBe('ok\n');
    const out = await inside(`echo pwned > ${human}/outside.txt`);
    expect(out.status).not.toBe(0);
    expect(out.out).toMatch(/Read-only file system|Permission denied/);
    expect(fs.existsSync(path.join(human, 'outside.txt'))).toBe(false);
    // Its own account files are not its to edit: no granting itself more.
    const home = path.join(human, '.local/share/pane/agents/ada');
    expect((await inside(`echo '{}' > ${home}/.access`)).status).not.toBe(0);
    expect((await inside(`echo x > $TMPDIR/t && echo tmp-ok`)).out).toContain('tmp-ok');
  });

  it('cannot read a denied path: ~/.ssh, pane’s state, another agent’s home', async () => {
    const key = await inside(`cat ${human}/.ssh/id_ed25519`);
    expect(key.status).not.toBe(0);
    expect(key.out).not.toContain('SECRET-KEY');
    const plan = await inside(`cat ${human}/.local/share/pane/agents/bob/.plan`);
    expect(plan.status).not.toBe(0);
    expect(plan.out).not.toContain('BOBS-PLAN');
  });

  it('cannot connect to the person’s socket', async () => {
    const r = await inside(`pane --socket ${s.socket} ls`);
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/no pane server|refused|denied|ENOENT|ECONNREFUSED/i);
    const raw = await inside(`node -e "require('net').connect('${s.socket}').on('connect',()=>{console.log('CONNECTED');process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(1)})"`);
    expect(raw.out).not.toContain('CONNECTED');
    expect(raw.status).not.toBe(0);
  });

  it('cannot reach the sandbox helper (which would wrap it a wider network), whose socket the person’s side reaches', async () => {
    const helper = helperOf(shell);
    expect(helper).toMatch(/sandbox-helper-\d+\.sock$/);
    expect(fs.statSync(helper).mode & 0o077).toBe(0);
    const seen = await inside(`test -e ${helper} && echo SEEN || echo HIDDEN`);
    expect(seen.out).toBe('HIDDEN');
    const raw = await inside(`node -e "require('net').connect('${helper}').on('connect',()=>{console.log('CONNECTED');process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(1)})"`);
    expect(raw.out).not.toContain('CONNECTED');
    // Outside, a request that is not one is answered with what is wrong, and the helper goes on serving.
    expect(askHelper(helper, 'wrap 1 {"argv":[]}\n')).toMatch(/^#pane-sandbox-error the request's argv: /);
    expect(askHelper(helper, 'hello\n')).toMatch(/^#pane-sandbox-error not a request: "hello"/);
    expect(askHelper(helper, `wrap 1 ${JSON.stringify({ argv: ['true'], settings: { pane: { sealed: [], root: [] }, network: { allowedDomains: ['*'], deniedDomains: [], allowAllUnixSockets: true }, filesystem: { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] } }, cwd: 'relative' })}\n`)).toMatch(/^#pane-sandbox-error the request's cwd: /);
    expect((await inside('echo still')).out).toBe('still');
  });

  it('makes a wrap ahead for the daemon’s prewrap, and hands it only to the very request it was made for', async () => {
    const helper = helperOf(shell);
    const dir = path.join(s.dir, 'proj-ahead');
    fs.mkdirSync(dir, { recursive: true });
    // The default helper's walls refuse unix sockets; a request that says otherwise is refused by name (below).
    const settings = { pane: { sealed: [], root: [] }, network: { allowedDomains: [], deniedDomains: [], allowAllUnixSockets: false }, filesystem: { denyRead: [], allowRead: [], allowWrite: [dir], denyWrite: [] } };
    const token = () => crypto.randomBytes(16).toString('base64url');
    // What the script names as absent from the project (its after-lines' check) is what was absent when the wrap was
    // made: a .bashrc made between the prewrap and the ask is in that list only if the wrap was made ahead.
    const madeBefore = (script: string) => script.includes(`'${dir}/.bashrc'`);
    const ask = (line: string) => {
      const script = askHelper(helper, line);
      const id = /^#pane-sandbox ([A-Za-z0-9_-]{22})\n/.exec(script)?.[1];
      if (id !== undefined) askHelper(helper, `done ${id}\n`); // this test's registration ends here
      return script;
    };
    const settled = () => new Promise((res) => setTimeout(res, 1_000));
    // Asked ahead, then by its launcher: the script made ahead.
    const t1 = token();
    const req = { argv: ['true'], settings, cwd: dir, prewrap: t1 };
    expect(askHelper(helper, `prewrap ${t1} ${JSON.stringify(req)}\n`)).toBe('');
    await settled();
    fs.writeFileSync(path.join(dir, '.bashrc'), '');
    const ahead = ask(`wrap ${process.pid} ${JSON.stringify(req)}\n`);
    expect(ahead).toMatch(/^#pane-sandbox /);
    expect(madeBefore(ahead)).toBe(true);
    fs.rmSync(path.join(dir, '.bashrc'));
    // A request that names the token but is not the one made ahead (another program) is wrapped anew, as itself.
    const t2 = token();
    expect(askHelper(helper, `prewrap ${t2} ${JSON.stringify({ ...req, prewrap: t2 })}\n`)).toBe('');
    await settled();
    fs.writeFileSync(path.join(dir, '.bashrc'), '');
    const other = ask(`wrap ${process.pid} ${JSON.stringify({ ...req, argv: ['false'], prewrap: t2 })}\n`);
    expect(other).toContain(`'"'"'false'"'"'`);
    expect(other).not.toMatch(/'"'"'true'"'"'/);
    expect(madeBefore(other)).toBe(false);
    // Taken once: the same token again is a wrap made then.
    expect(madeBefore(ask(`wrap ${process.pid} ${JSON.stringify(req)}\n`))).toBe(false);
    // A prewrap whose token is not its request's, or that is no request, is refused by name; the helper goes on serving.
    expect(askHelper(helper, `prewrap ${token()} ${JSON.stringify(req)}\n`)).toMatch(/^#pane-sandbox-error the request's prewrap is not the token it is sent with/);
    expect(askHelper(helper, `prewrap ${token()} {"argv":[]}\n`)).toMatch(/^#pane-sandbox-error the request's argv: /);
    expect(askHelper(helper, `prewrap ${token()} {not json}\n`)).toMatch(/^#pane-sandbox-error the request is not JSON: /);
    expect((await inside('echo still')).out).toBe('still');
    fs.rmSync(dir, { recursive: true, force: true });
    // The daemon asks ahead as it starts an agent pane (its helper listening): the launcher's request carries the token.
    const r = s.pane(['agent', 'run', 'bob', '--', 'bash', '--norc', '--noprofile']);
    expect(r.stderr).toBe('');
    const bob = Number(r.stdout.trim().split(':').pop());
    const row = (JSON.parse(s.pane(['ls', '--json']).stdout) as Array<{ n: number; pid?: number }>).find((p) => p.n === bob)!;
    const argv = fs.readFileSync(`/proc/${row.pid}/cmdline`, 'utf8').split('\0');
    expect(argv[3]).toBe('pane-sandbox');
    expect((JSON.parse(argv[5]!) as { prewrap?: string }).prewrap).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await inside('echo bob-ok', bob)).out).toBe('bob-ok');
    expect(s.pane(['close', '-t', String(bob)]).status).toBe(0);
  });

  it('has a helper that ends with the daemon that started it (its stdin closes) and on SIGTERM, taking its socket', async () => {
    for (const how of ['stdin', 'SIGTERM'] as const) {
      const socket = path.join(s.dir, `helper-${how}.sock`);
      const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'pane.mjs'), 'sandboxd', '--listen', socket], { stdio: ['pipe', 'ignore', 'pipe'] });
      const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
      const t0 = Date.now();
      while (!fs.existsSync(socket) && Date.now() - t0 < 20_000) await new Promise((res) => setTimeout(res, 20));
      expect(fs.existsSync(socket)).toBe(true);
      if (how === 'stdin') child.stdin!.end();
      else child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise<'hung'>((res) => setTimeout(() => res('hung'), 10_000))]);
      if (code === 'hung') child.kill('SIGKILL');
      expect(code).toBe(0);
      expect(fs.existsSync(socket)).toBe(false);
    }
  }, 60_000);

  it('has a helper that, told to end while it starts, ends and takes every process it started (its proxies’ bridges)', async () => {
    // Each helper carries a mark in its environment, which what it starts inherits: after it ends, no process may hold it.
    const marked = (mark: string) =>
      fs.readdirSync('/proc').filter((e) => {
        if (!/^[0-9]+$/.test(e)) return false;
        try {
          return fs.readFileSync(`/proc/${e}/environ`, 'latin1').includes(mark);
        } catch {
          return false;
        }
      });
    for (const delay of [100, 250, 400, 700]) {
      const mark = `PANE_HELPER_MARK=${process.pid}-${delay}`;
      const socket = path.join(s.dir, `helper-early-${delay}.sock`);
      const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'pane.mjs'), 'sandboxd', '--listen', socket], {
        stdio: ['pipe', 'ignore', 'pipe'],
        env: { ...process.env, PANE_HELPER_MARK: mark.split('=')[1] },
      });
      // Ended: at 0 once it has its handlers; before them (node still starting) by the signal, having started nothing.
      const exited = new Promise<string>((res) => child.once('exit', (code, signal) => res(code === 0 || signal === 'SIGTERM' ? 'ended' : `exit ${code ?? signal}`)));
      await new Promise((res) => setTimeout(res, delay));
      child.kill('SIGTERM');
      const how = await Promise.race([exited, new Promise<string>((res) => setTimeout(() => res('hung'), 10_000))]);
      if (how === 'hung') child.kill('SIGKILL');
      expect(how, `SIGTERM after ${delay} ms`).toBe('ended');
      const t0 = Date.now();
      while (marked(mark).length > 0 && Date.now() - t0 < 5_000) await new Promise((res) => setTimeout(res, 100));
      const left = marked(mark).map((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
      for (const pid of marked(mark)) process.kill(Number(pid), 'SIGKILL');
      expect(left, `SIGTERM after ${delay} ms`).toEqual([]);
      expect(fs.existsSync(socket)).toBe(false);
    }
  }, 90_000);

  it('holds no terminal but its own: no pane’s program inherits another pane’s terminal (whose master would let it type into the person’s shell)', async () => {
    // The person's shell is already open; one more after the agent, so masters would have been there to inherit both ways.
    const extra = s.pane(['new']);
    expect(extra.status, extra.stderr).toBe(0);
    const masters = await inside('ls -l /proc/self/fd/ | grep -c ptmx');
    expect(masters.out).toBe('0');
    const rows = JSON.parse(s.pane(['ls', '--json']).stdout) as Array<{ n: number; pid?: number }>;
    expect(rows.filter((r) => r.pid !== undefined).length).toBeGreaterThanOrEqual(3);
    for (const r of rows) {
      if (r.pid === undefined) continue;
      const held = fs.readdirSync(`/proc/${r.pid}/fd`).filter((fd) => {
        try {
          return /ptmx$/.test(fs.readlinkSync(`/proc/${r.pid}/fd/${fd}`));
        } catch {
          return false;
        }
      });
      expect(held, `pane ${r.n}'s program (pid ${r.pid})`).toEqual([]);
    }
    s.pane(['close', '-t', String(Number(extra.stdout.trim().split(':').pop()))]);
  });

  it('can use `pane` as itself: its own requests work, and its .access holds', async () => {
    const ls = await inside('pane ls');
    expect(ls.status).toBe(0);
    expect(ls.out).toMatch(/com\.pane\.ai\.agent\.ada/);
    expect((await inside(`pane plan ada 'from-the-sandbox'`)).status).toBe(0);
    expect(s.pane(['plan', 'ada']).stdout).toMatch(/from-the-sandbox/);
    const close = await inside('pane close -t 1');
    expect(close.status).not.toBe(0);
    expect(close.out).toMatch(/denied: ada's \.access panes\.write does not include pane 1/);
    // Even with another agent's name and no token, its socket speaks as ada.
    const bob = await inside('PANE_TOKEN= PANE_AGENT= pane plan bob stolen');
    expect(bob.status).not.toBe(0);
    expect(s.pane(['plan', 'bob']).stdout).toMatch(/BOBS-PLAN/);
  });

  it('sees nothing of the person’s home but what is bound in: logins, keys made after launch, everything else', async () => {
    // Logins by full path (the old list of hidden paths did not name them).
    for (const f of ['.claude/.credentials.json', '.codex/auth.json', '.gemini/oauth_creds.json']) {
      const r = await inside(`cat ${human}/${f}`);
      expect(r.status, f).not.toBe(0);
      expect(r.out).not.toContain('PERSONS-LOGIN');
    }
    // A key made after the agent started is hidden too: the home is hidden whole.
    fs.writeFileSync(path.join(human, '.ssh', 'id_new'), 'NEW-SECRET\n');
    fs.writeFileSync(path.join(human, 'notes.txt'), 'PERSONS-NOTES\n');
    expect((await inside(`cat ${human}/.ssh/id_new ${human}/notes.txt`)).out).not.toMatch(/NEW-SECRET|PERSONS-NOTES/);
    // A write into the hidden home is refused, not swallowed by a throwaway tmpfs.
    const w = await inside(`echo x > ${human}/planted`);
    expect(w.status).not.toBe(0);
    expect(w.out).toMatch(/Read-only file system|Permission denied/);
    // Everything readable under the home, listed from inside, is under what `pane access` says is visible.
    const access = s.pane(['access', 'ada']).stdout;
    const visible = [...access.matchAll(/^ +(\/\S+) {2}\(/gm)].map((m) => m[1]!);
    expect(visible, access).toContain(project);
    expect(visible).toContain(path.join(human, '.local/share/pane/agents/ada'));
    const listed = await inside(`find ${human} -mindepth 1 \\( -type f -o -type l \\) 2>/dev/null | head -n 5000`);
    const files = listed.out.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('/'));
    expect(files.length).toBeGreaterThan(0);
    const outside = files.filter((f) => !visible.some((v) => f === v || f.startsWith(`${v}/`)));
    expect(outside).toEqual([]);
  });

  it('sees none of the machine’s other people places (other homes, /root, /srv, /mnt, checkouts at the top) but what is bound in', async () => {
    // Someone's files in a place at the top, made before the launch (as root, where the suite may make one), and one
    // in /srv where that is there and writable: what a shell launched now must not read, nor write beside.
    const planted: string[] = [];
    const plant = (dir: string) => {
      try {
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'secret.txt'), 'SOMEONES-FILE\n');
        planted.push(dir);
      } catch {
        // not this user's to make: the listing below still holds
      }
    };
    plant(`/pane-probe-${process.pid}`);
    if (fs.existsSync('/srv')) plant(`/srv/pane-probe-${process.pid}`);
    try {
      const r = s.pane(['agent', 'run', 'ada', '--', 'bash', '--norc', '--noprofile']);
      expect(r.stderr).toBe('');
      const fresh = Number(r.stdout.trim().split(':').pop());
      await inside('true', fresh);
      // A place made at the top after the launch: not in this launch's root either (its root is the system's places alone).
      const late = `/pane-late-${process.pid}`;
      plant(late);
      if (planted.includes(late)) {
        const read = await inside(`cat ${late}/secret.txt`, fresh);
        expect(read.out).not.toContain('SOMEONES-FILE');
        expect(read.out).toMatch(/No such file/);
      }
      // The root itself takes no write (a tmpfs of bubblewrap's, sealed read-only).
      const wroteRoot = await inside(`echo x > /pane-root-write-${process.pid}`, fresh);
      expect(wroteRoot.status).not.toBe(0);
      expect(wroteRoot.out).toMatch(/Read-only file system|Permission denied/);
      for (const dir of planted.filter((d) => d !== late)) {
        const read = await inside(`cat ${dir}/secret.txt`, fresh);
        expect(read.status, dir).not.toBe(0);
        expect(read.out).not.toContain('SOMEONES-FILE');
        const wrote = await inside(`echo x > ${dir}/planted.txt`, fresh);
        expect(wrote.status, dir).not.toBe(0);
        expect(wrote.out).toMatch(/Read-only file system|Permission denied|No such file/);
        expect(fs.existsSync(path.join(dir, 'planted.txt'))).toBe(false);
      }
      // Every file readable in a place at the top that is not the system's is under what `pane access` says is visible.
      const access = s.pane(['access', 'ada']).stdout;
      const places = /where people keep things \(([^)]*)\)/.exec(access)?.[1]?.split(', ').filter((p) => p.startsWith('/')) ?? [];
      for (const dir of planted.filter((d) => d.split('/').length === 2 && d !== late)) expect(places, access).toContain(dir);
      if (fs.existsSync('/srv')) expect(places).toContain('/srv');
      const visible = [...access.matchAll(/^ +(\/\S+) {2}\(/gm)].map((m) => m[1]!);
      // -H: into each place a link names (/home → var/home), not the link alone.
      const listed = await inside(`find -H ${places.join(' ')} -maxdepth 4 \\( -type f -o -type l \\) 2>/dev/null | head -n 5000`, fresh);
      const outside = listed.out.split('\n').map((l) => l.trim()).filter((f) => f.startsWith('/') && !visible.some((v) => f === v || f.startsWith(`${v}/`)));
      expect(outside).toEqual([]);
      s.pane(['close', '-t', String(fresh)]);
    } finally {
      for (const dir of planted) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs its own line in its own sandboxed +Errors pane, never in the person’s shell', async () => {
    const marker = path.join(human, 'ran-as-the-person');
    const r = await inside(`pane exec -t ${shell} --shell 'touch ${marker}; echo AGENT-LINE-$((6*7))'`);
    const errors = Number(/\+Errors \(pane ([0-9]+)\)/.exec(r.out)?.[1]);
    expect(errors, r.out).toBeGreaterThan(0);
    const deadline = Date.now() + 15_000;
    while (!/AGENT-LINE-42/.test(s.pane(['cat', `/${errors}/body`]).stdout) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 150));
    expect(s.pane(['cat', `/${errors}/body`]).stdout).toMatch(/AGENT-LINE-42/);
    // It ran inside ada's walls: the file in the person's home was not made, and the pane is ada's, under bubblewrap.
    expect(fs.existsSync(marker)).toBe(false);
    expect(s.pane(['cat', `/${errors}/attrs`]).stdout).toMatch(/agent\.sandbox.*bubblewrap/);
    expect(s.pane(['cat', `/${errors}/attrs`]).stdout).toMatch(/^owner\s*=?\s*ada$/m);
    // The person's line goes to the person's own +Errors, even after ada marks its pane as one.
    expect((await inside(`pane attr -t ${shell} errors=1`)).status).toBe(0);
    const mine = s.pane(['exec', '-t', '1', '--shell', 'echo PERSON-LINE-$((7*6))']);
    expect(mine.stderr).toBe('');
    const personErrors = Number(/\+Errors \(pane ([0-9]+)\)/.exec(mine.stdout)?.[1]);
    expect(personErrors).not.toBe(shell);
    expect(personErrors).not.toBe(errors);
    await new Promise((res) => setTimeout(res, 500));
    expect(s.pane(['cat', `/${shell}/body`]).stdout).not.toMatch(/PERSON-LINE/);
  });

  it('leaves nothing in its project, keeps what is there from its writes, and never blocks the person', async () => {
    // While it runs, the project holds what the person and the agent put there, and nothing else:
    // no empty .bashrc, .mcp.json or `.idea` file standing in for what is absent.
    expect(fs.readdirSync(project).sort()).toEqual(['.git', '.vscode', 'inside.txt']);
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: project, encoding: 'utf8' });
    expect(status.split('\n').filter(Boolean).sort()).toEqual(['?? .vscode/settings.json', '?? inside.txt']);
    // What exists and runs when the person next works here is read-only to the agent.
    for (const f of ['.vscode/settings.json', '.git/hooks/pre-commit', '.git/config']) {
      const r = await inside(`echo pwned >> ${project}/${f}`);
      expect(r.status, f).not.toBe(0);
      expect(r.out, f).toMatch(/Read-only file system|Permission denied/);
    }
    expect(fs.existsSync(path.join(project, '.git/hooks/pre-commit'))).toBe(false);
    expect(fs.readFileSync(path.join(project, '.git/config'), 'utf8')).not.toContain('pwned');
    expect(fs.readFileSync(path.join(project, '.vscode/settings.json'), 'utf8')).toBe('{}\n');
    // The person makes an editor folder while the agent runs; the agent goes on with its work.
    fs.mkdirSync(path.join(project, '.idea'));
    fs.writeFileSync(path.join(project, '.idea', 'workspace.xml'), '<project/>\n');
    expect((await inside(`mkdir -p ${project}/src && echo ok > ${project}/src/a.ts && cat ${project}/.idea/workspace.xml`)).out).toContain('<project/>');
    fs.rmSync(path.join(project, '.idea'), { recursive: true });
    fs.rmSync(path.join(project, 'src'), { recursive: true });
  });

  it('shows a .access edit as pending until the next launch', async () => {
    const file = path.join(human, '.local/share/pane/agents/ada/.access');
    const a = JSON.parse(fs.readFileSync(file, 'utf8'));
    a.sandbox.network = ['example.org'];
    fs.writeFileSync(file, JSON.stringify(a));
    const deadline = Date.now() + 10_000;
    let out = '';
    while (Date.now() < deadline && !/pending/.test(out)) {
      out = s.pane(['access', 'ada']).stdout;
      await new Promise((res) => setTimeout(res, 200));
    }
    expect(out).toMatch(new RegExp(`pending: pane ${shell} runs with the sandbox of its launch; this \\.access applies at its next launch`));
  });

  it('says, when it ends, what it made in its project that tools run or obey (absent ones are watched, not stood in for)', async () => {
    const made = await inside(`echo '{"mcpServers":{}}' > ${project}/.mcp.json && echo made`);
    expect(made.out).toContain('made');
    s.pane(['send', '-t', String(shell), 'exit']);
    const deadline = Date.now() + 15_000;
    let body = '';
    while (Date.now() < deadline && !/appeared in/.test(body)) {
      body = s.pane(['cat', `/${shell}/body`]).stdout;
      await new Promise((res) => setTimeout(res, 150));
    }
    expect(body).toMatch(new RegExp(`while this agent ran, \\.mcp\\.json appeared in ${project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    // And after the sandbox, the project holds what the two of them made: nothing of pane's.
    expect(fs.readdirSync(project).sort()).toEqual(['.git', '.mcp.json', '.vscode', 'inside.txt']);
  });
});

describe.skipIf(why !== null)('a daemon killed outright', () => {
  it('leaves no sandbox, program or helper behind (bubblewrap dies with its launcher, the helper with its stdin)', async () => {
    const d = await serve();
    try {
      expect(d.pane(['agent', 'add', 'zed']).status).toBe(0);
      const r = d.pane(['agent', 'run', 'zed', '--', 'sh', '-c', 'exec sleep 3171']);
      expect(r.status, r.stderr).toBe(0);
      // And one whose walls allow unix sockets: its launches go through the daemon's second helper.
      expect(d.pane(['agent', 'add', 'yan']).status).toBe(0);
      const file = path.join(d.dir, '.local/share/pane/agents/yan/.access');
      const a = JSON.parse(fs.readFileSync(file, 'utf8')) as { sandbox?: Record<string, unknown> };
      fs.writeFileSync(file, JSON.stringify({ ...a, sandbox: { ...(a.sandbox ?? {}), unixSockets: 'allow' } }));
      const seen = Date.now() + 10_000;
      while (!/unix sockets: MAY BE MADE/.test(d.pane(['access', 'yan']).stdout) && Date.now() < seen) await new Promise((res) => setTimeout(res, 100));
      const y = d.pane(['agent', 'run', 'yan', '--', 'sh', '-c', 'exec sleep 3172']);
      expect(y.status, y.stderr).toBe(0);
      // Everything of their sandboxes, as ps shows it: the launchers, bubblewrap, the proxy's wrappers and the programs
      // (each names the program in its arguments), and its daemon's helpers (named by the daemon's pid).
      const alive = () => execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).split('\n').filter((l) => l.includes('sleep 3171') || l.includes('sleep 3172') || l.includes(`sandbox-helper-${d.proc.pid}`));
      // Running: the programs themselves (exec'd at the end of each chain) and both helpers. The chains' other parts come
      // and go while they start, so the count is not what is waited for.
      const running = () => {
        const ps = alive();
        const helper = (name: string) => ps.some((l) => l.includes('sandboxd') && l.includes(name));
        return ps.some((l) => l.trim() === 'sleep 3171') && ps.some((l) => l.trim() === 'sleep 3172') && helper(`sandbox-helper-${d.proc.pid}.sock`) && helper(`sandbox-helper-${d.proc.pid}-unix.sock --unix-sockets`);
      };
      const t0 = Date.now();
      while (!running() && Date.now() - t0 < 20_000) await new Promise((res) => setTimeout(res, 100));
      expect(running(), alive().join('\n')).toBe(true);
      d.proc.kill('SIGKILL');
      const t1 = Date.now();
      while (alive().length > 0 && Date.now() - t1 < 10_000) await new Promise((res) => setTimeout(res, 100));
      expect(alive()).toEqual([]);
    } finally {
      await d.stop().catch(() => undefined);
    }
  }, 60_000);

  it('starts its next agent after its helper was killed outright (whose socket was left behind), not refused', async () => {
    const d = await serve();
    try {
      expect(d.pane(['agent', 'add', 'zed']).status).toBe(0);
      const helper = () => execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n').find((l) => l.includes('sandboxd') && l.includes(`sandbox-helper-${d.proc.pid}.sock`));
      const first = d.pane(['agent', 'run', 'zed', '--', 'sh', '-c', 'echo FIRST-RAN; exec sleep 3173']);
      expect(first.status, first.stderr).toBe(0);
      const n1 = first.stdout.trim().split(':').pop()!;
      const t0 = Date.now();
      while (!/FIRST-RAN/.test(d.pane(['cat', `/${n1}/body`]).stdout) && Date.now() - t0 < 20_000) await new Promise((res) => setTimeout(res, 100));
      const line = helper();
      expect(line).toBeDefined();
      const socket = /--listen (\S+)/.exec(line!)![1]!;
      process.kill(Number(line!.trim().split(/\s+/)[0]), 'SIGKILL');
      const t1 = Date.now();
      while (helper() !== undefined && Date.now() - t1 < 10_000) await new Promise((res) => setTimeout(res, 50));
      // Its socket is still there: nothing closed it.
      expect(fs.existsSync(socket)).toBe(true);
      const next = d.pane(['agent', 'run', 'zed', '--', 'sh', '-c', 'echo NEXT-RAN; exec sleep 3174']);
      expect(next.status, next.stderr).toBe(0);
      const n2 = next.stdout.trim().split(':').pop()!;
      const t2 = Date.now();
      let body = '';
      while (!/NEXT-RAN|cannot start the sandbox/.test(body) && Date.now() - t2 < 20_000) {
        await new Promise((res) => setTimeout(res, 100));
        body = d.pane(['cat', `/${n2}/body`]).stdout;
      }
      expect(body).toMatch(/NEXT-RAN/);
    } finally {
      await d.stop().catch(() => undefined);
    }
  }, 60_000);
});

/** The processes left in session `sid` (a launcher's: its pane's terminal session), as `ps` shows them: `SID PID ARGS`, one space apart (ps pads its columns to the widest pid, so a run with shorter pids has two). */
function inSession(sid: number): string[] {
  return execFileSync('ps', ['-eo', 'sid=,pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().replace(/^(\d+)\s+(\d+)\s+/, '$1 $2 '))
    .filter((l) => l.startsWith(`${sid} `));
}

describe.skipIf(why !== null)('an agent’s sandbox after its pane or daemon ends', () => {
  for (const how of ['its launcher killed outright (SIGKILL), the daemon running on', 'its daemon stopped (SIGTERM)'] as const) {
    it(`leaves nothing in its pane’s session: ${how}`, async () => {
      const d = await serve();
      try {
        expect(d.pane(['agent', 'add', 'quin']).status).toBe(0);
        const r = d.pane(['agent', 'run', 'quin', '--', 'sh', '-c', 'exec sleep 3172']);
        expect(r.status, r.stderr).toBe(0);
        const n = Number(r.stdout.trim().split(':').pop());
        const launcher = (JSON.parse(d.pane(['ls', '--json']).stdout) as Array<{ n: number; pid?: number }>).find((p) => p.n === n)!.pid!;
        // Up: the program, under bubblewrap, with the runtime's network bridges beside it in the sandbox.
        const t0 = Date.now();
        while (!inSession(launcher).some((l) => / sleep 3172$/.test(l)) && Date.now() - t0 < 20_000) await new Promise((res) => setTimeout(res, 100));
        expect(inSession(launcher).some((l) => /^\d+ \d+ \S*bwrap /.test(l)), inSession(launcher).join('\n')).toBe(true);
        if (how.startsWith('its launcher')) process.kill(launcher, 'SIGKILL');
        else {
          const gone = new Promise((res) => d.proc.once('exit', res));
          d.proc.kill('SIGTERM');
          await gone;
        }
        // The helper looks for launchers gone every SWEEP_MS (10 s); a stopping daemon's helper ends them at once.
        const t1 = Date.now();
        while (inSession(launcher).length > 0 && Date.now() - t1 < 15_000) await new Promise((res) => setTimeout(res, 200));
        const left = inSession(launcher);
        for (const l of left) process.kill(Number(l.split(/\s+/)[1]), 'SIGKILL');
        expect(left).toEqual([]);
      } finally {
        await d.stop().catch(() => undefined);
      }
    }, 60_000);
  }
});

describe('where no sandbox can run (no bubblewrap on the server’s PATH)', () => {
  it('refuses an agent launch unless its .access allows it, and then says "unsandboxed" in the tag and /pane/log', async () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-nobwrap-'));
    fs.symlinkSync('/bin/cat', path.join(bin, 'cat'));
    const h = await agentHarness({ env: { PATH: bin, HOME: bin, LANG: 'C.UTF-8' } });
    try {
      const c = await h.connect();
      await c.call('agent/add', { name: 'ada' });
      await c.call('agent/add', { name: 'bob', access: { sandbox: { unsandboxed: 'allow' } } });
      const launch = { program: '/bin/cat', args: [] };
      const e = (await c.call('pane/split', { kind: 'agent', attrs: { agent: 'ada' }, launch }).catch((x: Error) => x)) as Error;
      expect(e.message).toMatch(/no sandbox can run here: bubblewrap \(bwrap\) is not installed.*ada's \.access sandbox\.unsandboxed is "refuse"/);
      const r = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'bob' }, launch });
      const p = await c.call('pane/get', { pane: r.pane });
      expect(p.tag.name).toBe('bob [unsandboxed]');
      expect(p.attrs['agent.sandbox']).toMatch(/^unsandboxed: bubblewrap/);
      expect((await c.call('ns/read', { path: '/log', count: 1 << 20 })).data).toMatch(new RegExp(`^${r.pane} new .*\\[unsandboxed\\]`, 'm'));
      expect((await c.call('agent/access', { name: 'bob' })).summary.join('\n')).toMatch(new RegExp(`UNSANDBOXED: pane ${r.pane} runs without a sandbox`));
      expect(fs.readFileSync(path.join(h.svc.store.home('bob'), 'log'), 'utf8')).toMatch(/launch UNSANDBOXED: bubblewrap/);
    } finally {
      await h.close();
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});
