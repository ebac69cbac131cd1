// The hook doors, attacked for real: a `pane serve` with its TCP hook door, a second
// local user (nobody, through setpriv) squatting the port pane used to compute and
// calling the real door, slow clients filling it, made-up credentials, and a real
// bubblewrap-sandboxed agent pane posting Claude Code's HTTP hook from inside its
// walls through its own door (the relay to its hook.sock).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpHook } from '../../kits/node/cli/hookInstall';
import { runtimeDir } from '../../kits/node/paths';
import { sandboxUnavailable } from '../../server/agents/sandbox';
import { HOOK_REQUEST_TIMEOUT_MS, MAX_HOOK_CONNECTIONS } from '../../server/transport/hookListener';
import { MAX_HOOK_ONLY_AGENTS } from '../../server/agents/limits';
import { agentHarness, type AgentHarness } from '../agents/helpers';
import { BIN, buildOnce, cleanEnv, lineIn, until } from '../cli/harness';

const why = sandboxUnavailable(process.env.PATH);
/** A real Claude Code, where one is installed ($PANE_TEST_CLAUDE, else `claude` on PATH): it fires hooks with no network. */
const claudeBin = process.env.PANE_TEST_CLAUDE ?? (spawnSync('sh', ['-c', 'command -v claude'], { encoding: 'utf8' }).stdout.trim() || undefined);
const nobody = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', 'true']).status === 0;

const events = fs
  .readFileSync(path.resolve(__dirname, '../agents/recorded/claude-session.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const recorded = (name: string) => events.find((e) => e.hook_event_name === name)!;

/** The port pane computed from a socket path before this fix (and wrote into settings files). */
function oldHookPort(socketPath: string): number {
  return 20000 + (crypto.createHash('sha256').update(socketPath).digest().readUInt32BE(0) % 12000);
}

/**
 * One POST on a connection of its own, as an agent CLI's hook makes it. Not fetch: its
 * pool keeps an answered connection open, and the door's cap may cut that idle one for a
 * newcomer (as it should), which fetch then reuses and reads as "other side closed".
 */
function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

let dir: string;
let socket: string;
let server: ChildProcess;
let squatter: ChildProcess | undefined;
let squatted = '';
let hookUrl = '';
let personSecret = '';
const pane = (args: string[], o: { input?: string; env?: Record<string, string> } = {}) => {
  const r = spawnSync(BIN, ['--socket', socket, ...args], { env: o.env ?? cleanEnv({ HOME: dir }), input: o.input ?? '', encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
let envFiles = 0;
/** What an ordinary pane of the person's sees: the hook URL and the person's secret. */
async function personPaneEnv(): Promise<{ url: string; secret: string }> {
  const file = path.join(dir, `env-${++envFiles}`);
  expect(pane(['new', '--', 'sh', '-c', `printf '%s %s' "$PANE_HOOK_URL" "$PANE_HOOK_TOKEN" > ${file}; exec sleep 600`]).status).toBe(0);
  const [url, secret] = (await until('the person’s pane env', () => fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes(' ') && fs.readFileSync(file, 'utf8'), 20_000)).split(' ');
  return { url: url!, secret: secret! };
}
const logText = () => pane(['cat', '/log']).stdout;

beforeAll(async () => {
  buildOnce();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-hooks-sec-'));
  socket = path.join(dir, 's.sock');
  if (nobody) {
    // Another local user binds the port pane used to derive from this socket path, before pane starts.
    const port = oldHookPort(socket);
    const script = `require('net').createServer((s)=>{process.stdout.write('GOT ');s.on('data',(d)=>process.stdout.write(d.toString('latin1')));}).listen(${port},'127.0.0.1',()=>process.stdout.write('LISTENING\\n'))`;
    squatter = spawn('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    squatter.stdout!.on('data', (c) => (squatted += c));
    await until('the squatter to listen', () => squatted.includes('LISTENING') || squatter!.exitCode !== null, 10_000);
    expect(squatted).toContain('LISTENING');
  }
  server = spawn(BIN, ['serve', '--socket', socket], { env: cleanEnv({ HOME: dir }), stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  await until('pane serve', () => fs.existsSync(socket) && pane(['ls']).status === 0, 20_000);
  ({ url: hookUrl, secret: personSecret } = await personPaneEnv());
}, 120_000);

afterAll(async () => {
  for (const p of [server, squatter]) {
    if (!p || p.exitCode !== null) continue;
    const gone = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
  }
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

describe('the TCP hook door', () => {
  it('refuses a bearer token it did not issue (401 naming the rule, logged), never taking it for the person', async () => {
    const ev = JSON.stringify({ ...recorded('UserPromptSubmit'), session_id: 'forged', cwd: path.join(dir, 'forged') });
    for (const headers of <Record<string, string>[]>[{ authorization: 'Bearer not-a-token-of-this-server' }, { authorization: 'Bearer pane-agent-0000' }, { 'x-pane-hook': 'not-the-secret' }, { authorization: 'Basic eDp5' }]) {
      const r = await post(hookUrl, ev, { ...headers, 'x-pane-agent': 'ada' });
      expect(r.status).toBe(401);
      expect(r.text).toMatch(/not (an agent token|one) this server issued|not "Bearer TOKEN"/);
      expect(r.text).toMatch(/start the agent CLI in a pane of this server/);
    }
    // Nothing was done for anyone: no agent made from the forged request's cwd or name.
    expect(pane(['finger']).stdout).not.toMatch(/claude-forged|ada/);
    expect(logText()).toMatch(/refused hook door 127\.0\.0\.1:[0-9]+: 401 the bearer token is not an agent token this server issued/);
    // A real agent token and a secret naming someone else: one request speaks for one caller.
    expect(pane(['agent', 'add', 'dax']).status).toBe(0);
    const dax = fs.readFileSync(path.join(dir, '.local/share/pane/agents/dax/.token'), 'utf8').trim();
    const mixed = await post(hookUrl, ev, { authorization: `Bearer ${dax}`, 'x-pane-hook': personSecret });
    expect(mixed.status).toBe(401);
    expect(mixed.text).toMatch(/names dax and the hook secret the person/);
    // The credentials pane issued still work.
    expect((await post(hookUrl, JSON.stringify(recorded('Stop')), { authorization: `Bearer ${dax}` })).status).toBe(200);
    expect((await post(hookUrl, JSON.stringify({ ...recorded('Stop'), session_id: 'p1' }), { 'x-pane-hook': personSecret })).status).toBe(200);
  });

  it.skipIf(!nobody)('gives a user who squats the old computed port nothing, and refuses that user at the real door', async () => {
    // The port is the kernel's, not the squatted one; settings written to disk name no port at all.
    expect(hookUrl).not.toContain(`:${oldHookPort(socket)}/`);
    const project = path.join(dir, 'proj');
    fs.mkdirSync(project, { recursive: true });
    const http = pane(['hook', 'install', '--http', '--project', project]);
    expect(http.status).not.toBe(0);
    expect(http.stderr).toMatch(/writes no HTTP hooks.*chosen anew at each server start/);
    expect(pane(['hook', 'install', '--project', project]).status).toBe(0);
    const settings = fs.readFileSync(path.join(project, '.claude/settings.json'), 'utf8');
    expect(settings).not.toMatch(/"url"|127\.0\.0\.1|localhost/);
    // Fire each installed hook as Claude Code would (a command: the event on stdin), as agent eve.
    expect(pane(['agent', 'add', 'eve']).status).toBe(0);
    const eve = fs.readFileSync(path.join(dir, '.local/share/pane/agents/eve/.token'), 'utf8').trim();
    const spec = JSON.parse(settings).hooks.UserPromptSubmit[0].hooks[0] as { type: string; command: string };
    expect(spec.type).toBe('command');
    const fired = spawnSync('sh', ['-c', spec.command], { input: JSON.stringify({ ...recorded('UserPromptSubmit'), session_id: 'eve-1' }), env: cleanEnv({ HOME: dir, PANE_SOCKET: socket, PANE_AGENT: 'eve', PANE_TOKEN: eve }), encoding: 'utf8', timeout: 20_000 });
    expect(fired.status).toBe(0);
    expect(pane(['finger', 'eve']).stdout).toMatch(/State: working/);
    // nobody calls the real door with the person's own secret: the door knows the caller's uid, and refuses it.
    const script = `let said=false;const say=(...a)=>{said=true;process.stdout.write(a.join(' ')+'\\n')};process.on('exit',()=>{if(!said)console.log('ERR exited with the request unanswered')});fetch(${JSON.stringify(hookUrl)},{method:'POST',headers:{'content-type':'application/json','x-pane-hook':process.env.S},body:'{"hook_event_name":"Stop","session_id":"n1","cwd":"/tmp"}'}).then(async(r)=>{let t;try{t=await r.text()}catch(e){t='(body cut: '+e.message+')'}say(r.status,t)},(e)=>say('ERR',e.message))`;
    const other = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, '-e', script], { env: { ...process.env, S: personSecret }, encoding: 'utf8', timeout: 60_000 });
    // Closed as soon as its uid is known (or, if its request was quicker, answered 401, its body
    // perhaps cut by that close: under load the two race, and fetch's body read then fails; or
    // fetch's promise left pending by the close, and node exits with nothing to wait on): never served.
    expect(other.stdout, `nobody's fetch: status ${other.status}, signal ${other.signal}, stderr ${other.stderr}`).toMatch(/^(401 (the caller is uid 65534, not this server's user|\(body cut: )|ERR )/);
    expect(logText()).toMatch(/refused hook door .*: (401 the caller is uid 65534|a connection from uid 65534, not this server's user)/);
    // Its silent connections hold no slot: each is closed once its uid is known, long before the request deadline.
    // (The scripts print plain text: npm test sets FORCE_COLOR, under which console.log colours a number.)
    const silent = `const net=require('net');let n=0,worst=0;for(let i=0;i<10;i++){const t0=Date.now();const c=net.connect(${Number(new URL(hookUrl).port)},'127.0.0.1');c.on('error',()=>{});c.on('close',()=>{worst=Math.max(worst,Date.now()-t0);if(++n===10)process.stdout.write('CLOSED '+worst+'\\n')})}`;
    const held = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, '-e', silent], { encoding: 'utf8', timeout: 20_000 });
    const worst = Number(/^CLOSED (\d+)/.exec(held.stdout)?.[1]);
    expect(worst).toBeLessThan(HOOK_REQUEST_TIMEOUT_MS);
    // And the squatter never heard from anyone.
    expect(squatted.trim()).toBe('LISTENING');
  });

  it(`cuts slow clients at the deadline, and a real hook is answered while ${MAX_HOOK_CONNECTIONS} of them are open`, async () => {
    const port = Number(new URL(hookUrl).port);
    const slow: { sock: net.Socket; opened: number; closed?: number }[] = [];
    const drip: NodeJS.Timeout[] = [];
    try {
      for (let i = 0; i < MAX_HOOK_CONNECTIONS; i++) {
        const sock = net.connect(port, '127.0.0.1');
        const s: (typeof slow)[number] = { sock, opened: Date.now() };
        sock.on('error', () => undefined);
        sock.on('close', () => (s.closed = Date.now()));
        // A slowloris: the request line, then one header byte every 200 ms, never the blank line.
        sock.write('POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
        drip.push(setInterval(() => sock.writable && sock.write('a'), 200));
        slow.push(s);
      }
      await until('every slow client connected', () => slow.every((s) => s.sock.readyState === 'open' || s.closed !== undefined), 5000);
      const t0 = Date.now();
      const r = await post(hookUrl, JSON.stringify({ ...recorded('Stop'), session_id: 'p2' }), { 'x-pane-hook': personSecret });
      expect(r.status).toBe(200);
      // Not waiting for any deadline: the oldest unfinished connection gave way at once.
      expect(Date.now() - t0).toBeLessThan(HOOK_REQUEST_TIMEOUT_MS);
      // Each slow client is cut at the deadline (a timer per connection), not ~25 s later.
      const bound = HOOK_REQUEST_TIMEOUT_MS + 1500;
      await until('every slow client cut', () => slow.every((s) => s.closed !== undefined), bound + 2000);
      for (const s of slow) expect(s.closed! - s.opened).toBeLessThan(bound);
    } finally {
      for (const t of drip) clearInterval(t);
      for (const s of slow) s.sock.destroy();
    }
  });

  it(`lets hooks make at most ${MAX_HOOK_ONLY_AGENTS} live agents known only from hooks, and says so`, async () => {
    const start = (i: number) => post(hookUrl, JSON.stringify({ ...recorded('SessionStart'), session_id: `many-${i}`, cwd: `/tmp/many-${i}` }), { 'x-pane-hook': personSecret });
    const before = pane(['finger']).stdout.match(/claude-/g)?.length ?? 0;
    let refused: { status: number; text: string } | undefined;
    for (let i = 0; i < MAX_HOOK_ONLY_AGENTS + 2 && !refused; i++) {
      const r = await start(i);
      if (r.status !== 200) refused = r;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.text).toMatch(/agents known only from hooks are live, the most hooks may make \(MAX_HOOK_ONLY_AGENTS\).*pane agent add NAME/);
    expect(before + MAX_HOOK_ONLY_AGENTS).toBeGreaterThanOrEqual(pane(['finger']).stdout.match(/claude-/g)?.length ?? 0);
    // An ended session makes room again.
    expect((await post(hookUrl, JSON.stringify({ ...recorded('SessionEnd'), session_id: 'many-0', cwd: '/tmp/many-0' }), { 'x-pane-hook': personSecret })).status).toBe(200);
    expect((await start(1000)).status).toBe(200);
  });
});

describe.skipIf(why !== null)(`a sandboxed agent pane${why ? ` (skipped: ${why})` : ''}`, () => {
  let shell = 0;
  let project = '';
  /** Runs one command line in ada's sandboxed shell; its output and status. */
  const inside = (cmd: string) => lineIn(pane, shell, cmd);

  beforeAll(async () => {
    project = path.join(dir, 'ada-proj');
    fs.mkdirSync(project, { recursive: true });
    // The person's saved screens and the daemon's log, where pane keeps them.
    const state = path.join(dir, '.local/state/pane');
    fs.mkdirSync(state, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(state, 'daemon.log'), 'PERSON-DAEMON-LOG\n');
    fs.writeFileSync(path.join(state, 'snapshot-1.json'), '{"screen":"PERSON-SAVED-SCREEN"}\n');
    expect(pane(['agent', 'add', 'ada', '--project', project]).status).toBe(0);
    const r = pane(['agent', 'run', 'ada', '--', 'bash', '--norc', '--noprofile']);
    expect(r.stderr).toBe('');
    shell = Number(r.stdout.trim().split(':').pop());
    await inside('true');
  }, 60_000);

  it('carries no secret of the person’s, and its hook URL is the same string as outside', async () => {
    const env = (await inside('env')).out;
    expect(env).not.toContain(personSecret);
    expect(env).not.toMatch(/PANE_HOOK_TOKEN=\S/);
    expect(env).toContain(`PANE_HOOK_URL=${hookUrl}`);
  });

  it('sends Claude Code’s HTTP hook with curl from inside, through its own door: answered, and shown as its state in `pane finger`', async () => {
    // Exactly what Claude Code sends for pane's HTTP hook: POST, JSON, the headers the spec names filled from the env.
    const spec = httpHook(hookUrl);
    const headers = Object.entries(spec.headers!)
      .map(([k, v]) => `-H "${k}: ${v.replace(/\$([A-Z_]+)/g, '${$1}')}"`)
      .join(' ');
    const send = async (ev: Record<string, unknown>) => {
      fs.writeFileSync(path.join(project, 'ev.json'), JSON.stringify({ ...ev, cwd: project }));
      return inside(`curl -sS -o ${project}/answer -w '%{http_code}' -X POST -H 'Content-Type: application/json' ${headers} --max-time ${spec.timeout} --data-binary @${project}/ev.json "$PANE_HOOK_URL"`);
    };
    const start = await send(recorded('SessionStart'));
    expect(start.out).toMatch(/200$/);
    expect(JSON.parse(fs.readFileSync(path.join(project, 'answer'), 'utf8')).hookSpecificOutput.additionalContext).toMatch(/You are the agent "ada"/);
    const prompt = await send(recorded('UserPromptSubmit'));
    expect(prompt.out).toMatch(/200$/);
    const finger = pane(['finger', 'ada']).stdout;
    expect(finger).toMatch(/State: working/);
    expect(finger).toMatch(/fix the login redirect/);
    // Which socket was dialled is the identity: no token needed, and none borrowed (another agent's name changes nothing).
    fs.writeFileSync(path.join(project, 'ev.json'), JSON.stringify({ ...recorded('Stop'), cwd: project }));
    const bare = await inside(`curl -sS -o /dev/null -w '%{http_code}' -X POST -H 'X-Pane-Agent: gus' -H 'Authorization: Bearer forged' --data-binary @${project}/ev.json "$PANE_HOOK_URL"`);
    expect(bare.out).toMatch(/200$/);
    expect(pane(['finger', 'ada']).stdout).toMatch(/State: (idle|done|ready)/);
    expect(pane(['finger', 'gus']).stdout).not.toMatch(/State:/);
  });

  it('cannot read pane’s state directory, its runtime directory or daemon.log', async () => {
    const state = path.join(dir, '.local/state/pane');
    const r = await inside(`cat ${state}/daemon.log ${state}/snapshot-1.json`);
    expect(r.status).not.toBe(0);
    expect(r.out).not.toMatch(/PERSON-DAEMON-LOG|PERSON-SAVED-SCREEN/);
    // Under the person's home, hidden whole: not there at all, or empty.
    expect((await inside(`ls -A ${state} 2>/dev/null; echo LISTED`)).out).not.toMatch(/daemon\.log|snapshot|journal/);
    const rt = await inside(`ls -A ${runtimeDir(false)}`);
    // What is bound back in: the shell integration its shells source, and the sandbox helper's TMPDIR (srt-PID),
    // which holds the runtime's proxy sockets (its network's way out).
    expect(rt.out.split(/\s+/).filter((n) => n !== '' && !/^shell-[0-9a-f]+$/.test(n) && !/^srt-[0-9]+$/.test(n))).toEqual([]);
  });

  it.skipIf(claudeBin === undefined)('hears a real Claude Code in a sandboxed agent pane, with no network to reach its model', async () => {
    // Claude Code posts UserPromptSubmit before it asks the model (which it cannot reach from here): the hook arrives through the relay.
    const settings = path.join(project, 'claude-http.json');
    const hook = httpHook(hookUrl);
    fs.writeFileSync(settings, JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [hook] }], SessionStart: [{ hooks: [hook] }] } }));
    expect(pane(['agent', 'add', 'gus', '--project', project]).status).toBe(0);
    const id = pane(['agent', 'run', 'gus', '--', claudeBin!, '-p', 'real claude from the sandbox', '--settings', settings]).stdout.trim().split(':').pop()!;
    try {
      const finger = await until('gus’s prompt through its hook', () => {
        const f = pane(['finger', 'gus']).stdout;
        return /Last prompt .*real claude from the sandbox/.test(f) && f;
      }, 90_000);
      expect(finger).toMatch(/reported through hooks/);
    } finally {
      pane(['close', '-t', id]);
    }
  }, 120_000);

  it('leaves job control and resizes to the program beside its relay: Ctrl-C ends the job, the shell sees its new size, hooks still answer', async () => {
    // In ada's shell: Ctrl-C ends a foreground job, a resize reaches the shell (SIGWINCH), and hooks still answer.
    expect(pane(['send', '-t', String(shell), 'sleep 300']).status).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(spawnSync(BIN, ['--socket', socket, 'send', '--raw', '-t', String(shell), '-'], { input: '\x03', env: cleanEnv({ HOME: dir }) }).status).toBe(0);
    expect((await inside('echo after-ctrl-c')).out).toContain('after-ctrl-c');
    const size = async () => (await inside('echo "size=${COLUMNS}x${LINES}"')).out.match(/size=\d+x\d+/g)?.pop();
    const cols = await size();
    // Whichever edge of the pane can move (it may sit at the window's edge on one side).
    expect(['left', 'right', 'up', 'down'].some((d) => pane(['resize', '-t', String(shell), '-d', d, '-n', '6']).status === 0)).toBe(true);
    let now = cols;
    for (let i = 0; i < 20 && now === cols; i++) {
      await new Promise((r) => setTimeout(r, 250));
      now = await size();
    }
    expect(now).not.toBe(cols);
    fs.writeFileSync(path.join(project, 'ev.json'), JSON.stringify({ ...recorded('Stop'), cwd: project }));
    expect((await inside(`curl -sS -o /dev/null -w '%{http_code}' -X POST --data-binary @${project}/ev.json "$PANE_HOOK_URL"`)).out).toMatch(/200$/);
  });

  it('keeps the program’s exit status, and its relay dies with the sandbox', async () => {
    expect(pane(['agent', 'add', 'finn']).status).toBe(0);
    const id = pane(['agent', 'run', 'finn', '--', 'sh', '-c', 'sleep 1; exit 7']).stdout.trim().split(':').pop()!;
    const sock = path.join(dir, '.local/share/pane/agents/finn/hook.sock');
    await until('finn’s relay', () => spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout.includes(`UNIX-CONNECT:${sock}`), 10_000);
    await until('finn’s program to exit 7', () => /exited 7 at/.test(pane(['screen', '-t', id]).stdout), 20_000);
    await until('no relay left', () => !spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout.includes(`UNIX-CONNECT:${sock}`), 10_000);
  });
});

describe('an unsandboxed agent pane', () => {
  let h: AgentHarness;
  let bin: string;
  beforeAll(async () => {
    bin = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-nobwrap-'));
    h = await agentHarness({ env: { PATH: bin, HOME: bin, LANG: 'C.UTF-8' } });
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(bin, { recursive: true, force: true });
  });

  it('gets its own hook secret, never the person’s, and that secret speaks only for it', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'bob', access: { sandbox: { unsandboxed: 'allow' } } });
    await c.call('agent/add', { name: 'cleo' });
    const file = path.join(bin, 'bob-env');
    const r = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'bob' }, launch: { program: '/bin/sh', args: ['-c', `/usr/bin/env > ${file}; exec /bin/sleep 60`] } });
    expect((await c.call('pane/get', { pane: r.pane })).attrs['agent.sandbox']).toMatch(/^unsandboxed/);
    const env = await until('bob’s env', () => fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('PANE_HOOK_URL') && fs.readFileSync(file, 'utf8'), 20_000);
    const hooks = h.running.services.hooks!;
    expect(env).not.toContain(hooks.secret);
    const mine = /^PANE_HOOK_TOKEN=(\S+)$/m.exec(env)?.[1];
    expect(mine).toBe(hooks.agentSecret('bob'));
    const url = /^PANE_HOOK_URL=(\S+)$/m.exec(env)![1]!;
    // With it, bob reports as bob — naming cleo changes nothing.
    const res = await post(url, JSON.stringify({ ...recorded('UserPromptSubmit'), session_id: 'bob-1' }), { 'x-pane-hook': mine!, 'x-pane-agent': 'cleo' });
    expect(res.status).toBe(200);
    expect(h.svc.runtimes.get('bob')?.lastPrompt).toMatch(/fix the login redirect/);
    expect(h.svc.runtimes.get('cleo')?.lastPrompt ?? null).toBeNull();
  });
});
