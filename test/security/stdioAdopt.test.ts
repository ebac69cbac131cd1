// Attack class: the stdio hand-over (stdio/adopt, server/transport/stdioAdopt.ts). The
// daemon opens /proc/PID/fd/0 and /1 of a pid its caller names, as the person. Only a
// client of the person's own socket may ask (an agent's socket and the TLS door may
// not), and only the very pipes the caller's fstat described are taken: a socket, a
// terminal or /dev/null, a pid that is gone, pipes of another process than the caller
// said, and a FIFO nobody reads are each refused by name, at once, leaving no
// descriptor open in the daemon. Through real pipes the relay then only waits, and the
// relay and the stream it handed over end together.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../kits/client/connection';
import type { WireFrame } from '../../kits/client/transport';
import { dial } from '../../kits/node/endpoint';
import { MAX_STREAM_FRAME } from '../../kits/node/framing';
import type { StreamTransport } from '../../kits/node/streamTransport';
import { connectUnix } from '../../kits/node/socketTransport';
import type { PaneFault } from '../../kits/protocol/fault';
import type { PipeIdentity } from '../../kits/protocol/stdioAdopt';
import { ensureEndpoint } from '../../server/transport/agentSocket';
import { agentHarness, sleep, type AgentHarness } from '../agents/helpers';
import { BIN, buildOnce } from '../cli/harness';
import { socketPairStdio } from '../server/socketPairStdio';

let h: AgentHarness;
const kids: ChildProcess[] = [];

beforeAll(async () => {
  buildOnce();
  h = await agentHarness({ shell: '/bin/cat' });
}, 120_000);
afterAll(async () => {
  for (const c of opened) c.close();
  for (const k of kids) if (k.exitCode === null && k.signalCode === null) k.kill('SIGKILL');
  await h?.close();
});

/** A child of ours kept until the end: `sh -c SCRIPT`, its stdio as given. */
function child(script: string, stdio: 'pipe' | 'ignore' = 'ignore'): ChildProcess {
  const k = spawn('sh', ['-c', script], { stdio });
  kids.push(k);
  return k;
}

/** The pid of `parent`'s child running `name`, once it runs (bounded). */
async function kidOf(parent: number, name: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const out = spawnSync('pgrep', ['-P', String(parent), '-x', name], { encoding: 'utf8' }).stdout.trim();
    if (out) return Number(out.split('\n')[0]);
    await sleep(20);
  }
  throw new Error(`no ${name} under ${parent}`);
}

/** What /proc/PID/fd/N is, by stat (no open): as the process itself would fstat it. */
function identity(pid: number, n: number): PipeIdentity {
  const st = fs.statSync(`/proc/${pid}/fd/${n}`, { bigint: true });
  return { dev: String(st.dev), ino: String(st.ino) };
}

/** Descriptors this process (the daemon's, in the harness) holds on the pipe or FIFO `id` names. */
function held(id: PipeIdentity): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const st = fs.statSync(`/proc/self/fd/${fd}`, { bigint: true });
      if (String(st.dev) === id.dev && String(st.ino) === id.ino) n++;
    } catch {
      // closed while listed (the one readdir itself used)
    }
  }
  return n;
}

/** A client of the person's own socket, as a local process is. */
async function person(): Promise<Connection> {
  const c = new Connection(await connectUnix(h.socketPath));
  await c.hello({ client: { name: 'the person', kind: 'test' }, capabilities: ['read', 'write', 'attach', 'admin'] });
  opened.push(c);
  return c;
}
const opened: Connection[] = [];

async function refusal(c: Connection, params: { pid: number; stdin: PipeIdentity; stdout: PipeIdentity }): Promise<PaneFault> {
  const e = await c.call('stdio/adopt', params).then(
    () => null,
    (x: PaneFault) => x,
  );
  if (e === null) throw new Error('stdio/adopt was taken');
  return e;
}

describe('stdio/adopt refuses what it cannot prove', () => {
  it("refuses an agent's socket, even one whose access grants admin", async () => {
    const human = await person();
    await human.call('agent/add', { name: 'mallory', access: { capabilities: ['read', 'write', 'attach', 'admin'], commands: { allow: ['*'], deny: [] } } });
    const sock = await ensureEndpoint(h.running.services, h.svc, 'mallory');
    const a = new Connection(await connectUnix(sock));
    await a.hello({ client: { name: 'mallory', kind: 'test' }, capabilities: ['admin'] });
    // Real pipes of a real process, described truly: only the door is wrong.
    const sh = child('true | sleep 30 | cat > /dev/null');
    const pid = await kidOf(sh.pid!, 'sleep');
    const e = await refusal(a, { pid, stdin: identity(pid, 0), stdout: identity(pid, 1) });
    expect(e.code).toBe('denied');
    // The principal table refuses it first, whatever the .access grants.
    expect(e.message).toMatch(/refused: agent mallory may not call stdio\/adopt: it takes over the caller’s pipes as the person/);
    expect([held(identity(pid, 0)), held(identity(pid, 1))]).toEqual([0, 0]);
    a.close();
  });

  it('refuses what is no pipe: /dev/null, a socket', async () => {
    const c = await person();
    const quiet = child('exec sleep 30');
    const sock = child('exec sleep 30', 'pipe');
    await sleep(100);
    let e = await refusal(c, { pid: quiet.pid!, stdin: identity(quiet.pid!, 0), stdout: identity(quiet.pid!, 1) });
    expect(e.message).toBe(`/proc/${quiet.pid}/fd/0 (the caller's stdin) is no pipe; only pipes are taken over`);
    // Node gives a child's stdio as a socket pair (which /proc could not open anyway): refused by what it is, before any open.
    e = await refusal(c, { pid: sock.pid!, stdin: identity(sock.pid!, 0), stdout: identity(sock.pid!, 1) });
    expect(e.message).toBe(`/proc/${sock.pid}/fd/0 (the caller's stdin) is no pipe; only pipes are taken over`);
  });

  it('refuses a pid that is gone and pipes that are not the ones described', async () => {
    const c = await person();
    const sh = child('true | sleep 30 | cat > /dev/null');
    const pid = await kidOf(sh.pid!, 'sleep');
    const other = child('true | sleep 30 | cat > /dev/null');
    const otherPid = await kidOf(other.pid!, 'sleep');
    // Another process's pipes named as if they were this one's (a pid reused, a lie): the inode tells.
    const e = await refusal(c, { pid, stdin: identity(otherPid, 0), stdout: identity(pid, 1) });
    expect(e.message).toMatch(new RegExp(`^/proc/${pid}/fd/0 is not the stdin the caller described \\(device \\d+ inode \\d+, not \\d+ \\d+\\): another process, or another pid namespace$`));
    const gone = spawnSync('sh', ['-c', 'echo $$']).stdout.toString().trim();
    const g = await refusal(c, { pid: Number(gone), stdin: identity(pid, 0), stdout: identity(pid, 1) });
    expect(g.message).toBe(`cannot open /proc/${gone}/fd/0 (the caller's stdin): ENOENT`);
    // The stdin it opened to look at is closed again.
    expect(held(identity(pid, 0))).toBe(0);
  });

  it('refuses at once a stdout FIFO that nobody reads, where a blocking open would wait for a reader for ever', async () => {
    const c = await person();
    // sleep's stdout: a named FIFO whose only reader (cat) was killed once the write end was open.
    const fifo = path.join(h.dir, 'unread.fifo');
    const sh = child(`true | { mkfifo ${fifo}; cat ${fifo} > /dev/null & r=$!; exec 3>${fifo}; kill $r; wait $r; exec sleep 30 >&3 3>&-; }`);
    const pid = await kidOf(sh.pid!, 'sleep');
    const t0 = Date.now();
    const e = await refusal(c, { pid, stdin: identity(pid, 0), stdout: identity(pid, 1) });
    expect(e.message).toBe(`cannot open /proc/${pid}/fd/1 (the caller's stdout): ENXIO`);
    expect(Date.now() - t0).toBeLessThan(2000);
    // Its stdin was opened first, and closed again when stdout was refused.
    expect(held(identity(pid, 0))).toBe(0);
  });
});

describe('pane serve --stdio on pipes', () => {
  it('hands its pipes to the daemon and only waits; the two end together, and the relay exits', async () => {
    const watcher = await person();
    const argv = ['sh', '-c', `cat | ${BIN} serve --stdio --socket ${h.socketPath} | cat`];
    const c = new Connection(await dial({ kind: 'exec', argv }));
    const w = await c.hello({ client: { name: 'through pipes', kind: 'test' }, capabilities: ['read', 'write', 'attach'] });
    const list = (await watcher.call('client/list', {})).clients;
    const mine = list.find((x) => x.id === w.client);
    expect(mine?.transport).toBe('stdio');
    const relay = list.find((x) => x.name === 'pane serve --stdio');
    expect(relay?.transport).toBe('unix');
    // The stream works both ways, output included.
    const s = await c.call('session/new', { name: 'piped', launch: { program: 'sh', args: ['-c', 'sleep 0.3; head -c 300000 /dev/zero | tr "\\0" x; echo; echo END; exec sleep 30'] } });
    const pane = (await c.call('session/get', { session: s.session })).focused!;
    let got = '';
    c.onOutput((p, _o, d) => {
      if (p === pane) got += Buffer.from(d).toString('latin1');
    });
    await c.call('pty/attach', { pane, mode: 'from', from: 0 });
    for (let i = 0; i < 250 && !got.includes('END'); i++) await sleep(20);
    expect(got.split('x').length - 1).toBe(300000);
    const relayPid = Number(spawnSync('pgrep', ['-f', `serve --stdio --socket ${h.socketPath}`], { encoding: 'utf8' }).stdout.trim().split('\n')[0]);
    expect(relayPid).toBeGreaterThan(1);
    c.close();
    // Its peer gone, the adopted stream closes, and with it the relay's own connection: the relay exits.
    for (let i = 0; i < 250; i++) {
      const now = (await watcher.call('client/list', {})).clients;
      if (!now.some((x) => x.id === w.client || x.id === relay!.id)) break;
      await sleep(20);
    }
    const after = (await watcher.call('client/list', {})).clients;
    expect(after.some((x) => x.id === w.client || x.id === relay!.id)).toBe(false);
    for (let i = 0; i < 250 && fs.existsSync(`/proc/${relayPid}`); i++) await sleep(20);
    expect(fs.existsSync(`/proc/${relayPid}`)).toBe(false);
  }, 30_000);

  it('tells a stream over the pipes that breaks the framing what it did, as the relay did, then closes it', async () => {
    const t = (await dial({ kind: 'exec', argv: ['sh', '-c', `cat | ${BIN} serve --stdio --socket ${h.socketPath} | cat`] })) as StreamTransport;
    const frames: WireFrame[] = [];
    t.onFrame((f) => frames.push(f));
    const head = Buffer.alloc(4);
    head.writeUInt32BE(MAX_STREAM_FRAME + 1);
    t.output.write(head);
    // (The pipeline's first cat holds our end open until we close it, so the stream's end is not waited for here.)
    await expect.poll(() => frames.length, { timeout: 5000 }).toBe(1);
    expect(frames.map((f) => JSON.parse(f as string) as unknown)).toEqual([
      { t: 'res', id: null, ok: false, error: { code: 'too-large', message: `pane serve --stdio: a frame of ${MAX_STREAM_FRAME + 1} bytes is over the ${MAX_STREAM_FRAME}-byte limit (MAX_STREAM_FRAME); the connection is closed — a client of another pane version, or a stream that is no pane protocol` } },
    ]);
    // The daemon read it itself (no relay between): its log names the adopted stdio client.
    await expect.poll(() => h.events.some((e) => e.event === 'client/refused' && /^stdio client \?$/.test(e.data.door as string) && /bad framing: a frame of \d+ bytes/.test(e.data.reason as string)), { timeout: 5000 }).toBe(true);
    t.close();
  }, 30_000);

  it('relays as before when its stdio is a socket (as Node gives a child), where /proc opens nothing', async () => {
    const watcher = await person();
    // Started with Node's own 'pipe' stdio (socket pairs): dial's exec gives pipes (fifoStdio.ts), which are taken over.
    const { transport, child: k } = await socketPairStdio([BIN, 'serve', '--stdio', '--socket', h.socketPath]);
    kids.push(k);
    const c = new Connection(transport);
    const w = await c.hello({ client: { name: 'through a socket pair', kind: 'test' }, capabilities: ['read'] });
    const list = (await watcher.call('client/list', {})).clients;
    expect(list.find((x) => x.id === w.client)?.transport).toBe('unix');
    expect(list.filter((x) => x.name === 'pane serve --stdio')).toEqual([]);
    c.close();
  }, 30_000);
});
