// A peer of the TLS door whose machine vanishes is let go (TLS_KEEPALIVE_MS). The
// real daemon's door (serve.json) on a veth link into a network namespace this test
// makes; a viewer there (`pane watch` with an attach grant: a connection that sits
// idle, as a window or a watch on another machine does) is listed by `pane clients`;
// then its link goes down, as a laptop shut or a cable pulled: nothing is sent again,
// so nothing fails without TCP keepalive and the daemon held the client forever.
// The other way round too: a daemon in the namespace, `pane watch` over its door from
// here; its link goes down and the watch ends saying so, instead of waiting for ever.
// And a follower (`pane output --follow` of a pane printing all the while) whose link
// goes down with output on its way: keepalive never asks while bytes are unacknowledged,
// so the door's own look at TCP's state (TLS_UNACKED_MS) ends it before ~15 min of
// retransmits; while a follower that is there but stopped (Ctrl-Z) is kept, its kernel
// answering the window probes as they back off past that bound. The dialler's side
// too: a follower here of a busy pane of the daemon in the namespace acknowledges what
// it reads, and what it read after that machine went waits in the dead link; it ends.
// Needs root for the namespace (CI runs as root).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TLS_KEEPALIVE_MS, TLS_UNACKED_MS } from '../../kits/node/endpoint';
import { BIN } from '../cli/harness';
import { eventually, freePort, startDaemon, type Daemon } from '../hosts/remote';

const root = typeof process.getuid === 'function' && process.getuid() === 0 && spawnSync('ip', ['netns', 'list']).status === 0;
/** Names of this run's own namespace and link ends (interface names: 15 bytes at most). */
const tag = String(process.pid % 100_000);
const NS = `pane-ka-${tag}`;
const [HERE, THERE] = [`pka${tag}a`, `pka${tag}b`];
/** A /30 of 10.213.0.0/16 picked by pid, so parallel runs do not share one. */
const net = `10.213.${process.pid % 250}`;
const [HERE_IP, THERE_IP] = [`${net}.1`, `${net}.2`];

const ip = (...args: string[]) => {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.stderr}`);
};

interface Door {
  url: string;
  token: string;
  /** The grant's guests connected now, as `pane grant ls` counts them. */
  guests(): number;
}

/** `daemon`'s TLS door opened on `address` (serve.json, as pairing writes it), and a read-only grant to a new session of it, `session`. */
async function doorWithGrant(daemon: Daemon, address: string, session = 'shared'): Promise<Door> {
  fs.mkdirSync(path.join(daemon.env.XDG_CONFIG_HOME!, 'pane'), { recursive: true });
  const port = await freePort();
  fs.writeFileSync(path.join(daemon.env.XDG_CONFIG_HOME!, 'pane', 'serve.json'), JSON.stringify({ tls: { address, port } }));
  const ca = path.join(daemon.env.XDG_STATE_HOME!, 'pane', 'tls', 'ca.pem');
  await eventually('the TLS door to make its CA', () => fs.existsSync(ca), 15_000);
  expect(daemon.pane(['session', 'new', session]).status).toBe(0);
  const g = JSON.parse(daemon.pane(['grant', 'new', '--json', '--session', session]).stdout) as { id: string; token: string };
  return {
    url: `tls://${address}:${port}?ca=${ca}`,
    token: g.token,
    guests: () => (JSON.parse(daemon.pane(['grant', 'ls', '--json']).stdout) as { id: string; clients: number }[]).find((x) => x.id === g.id)?.clients ?? -1,
  };
}

/** `pane watch` (or `command`) over the door as the grant's guest, run through `wrap` (a namespace, or nothing: here), started again until the door has opened and counts it. */
async function watchAsGuest(door: Door, env: Record<string, string>, wrap: readonly string[], command: readonly string[] = ['watch']): Promise<{ proc: ChildProcess; said: () => string; got: () => number }> {
  let said = '';
  let got = 0;
  let proc: ChildProcess | undefined;
  for (let attempt = 0; attempt < 50 && door.guests() === 0; attempt++) {
    if (!proc || proc.exitCode !== null) {
      const argv = [...wrap, BIN, '--socket', door.url, ...command];
      proc = spawn(argv[0]!, argv.slice(1), { env: { ...env, PANE_GRANT: door.token }, stdio: ['ignore', 'pipe', 'pipe'] });
      proc.stdout!.on('data', (b: Buffer) => (got += b.byteLength));
      proc.stderr!.on('data', (b: Buffer) => (said += b.toString()));
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(door.guests(), `the ${command[0]} did not get in: ${said}`).toBe(1);
  return { proc: proc!, said: () => said, got: () => got };
}

let d: Daemon;
let far: Daemon | undefined;
let viewer: ChildProcess | undefined;
let watcher: ChildProcess | undefined;
let follower: ChildProcess | undefined;

/** A new session `session` of `on` (its door on `address`) whose pane runs `program`, and its output followed over the door by the session's guest (`pane output --follow`, run through `wrap`). */
async function followBusyPane(session: string, program: string, wrap: readonly string[], on: Daemon = d, address = HERE_IP): Promise<{ door: Door; n: string; f: Awaited<ReturnType<typeof watchAsGuest>> }> {
  const door = await doorWithGrant(on, address, session);
  const n = new RegExp(`^(\\d+)\\s+${session}\\s`, 'm').exec(on.pane(['ls']).stdout)?.[1];
  expect(n, `the ${session} session has a pane`).toBeDefined();
  expect(on.pane(['send', '-t', n!, program]).status).toBe(0);
  return { door, n: n!, f: await watchAsGuest(door, d.env, wrap, ['output', '-t', n!, '--follow']) };
}

describe.skipIf(!root)('a TLS door peer whose machine vanishes (needs root: a network namespace)', () => {
  beforeAll(async () => {
    ip('netns', 'add', NS);
    ip('link', 'add', HERE, 'type', 'veth', 'peer', 'name', THERE);
    ip('link', 'set', THERE, 'netns', NS);
    ip('addr', 'add', `${HERE_IP}/30`, 'dev', HERE);
    ip('link', 'set', HERE, 'up');
    ip('netns', 'exec', NS, 'ip', 'addr', 'add', `${THERE_IP}/30`, 'dev', THERE);
    ip('netns', 'exec', NS, 'ip', 'link', 'set', THERE, 'up');
    d = await startDaemon('vanish');
  }, 60_000);
  afterAll(async () => {
    for (const p of [viewer, watcher, follower]) if (p && p.exitCode === null) p.kill('SIGKILL');
    await d?.stop();
    await far?.stop();
    spawnSync('ip', ['link', 'del', HERE]);
    spawnSync('ip', ['netns', 'del', NS]);
  });

  it('is closed once TCP keepalive finds it gone, and its grant counts no guest any more', async () => {
    const door = await doorWithGrant(d, HERE_IP);
    // The viewer, from the namespace: `pane watch` over the door, idle once its snapshot is in.
    const w = await watchAsGuest(door, d.env, ['ip', 'netns', 'exec', NS]);
    viewer = w.proc;
    // Its machine goes: the link down, no FIN, no RST, nothing more on the wire.
    ip('netns', 'exec', NS, 'ip', 'link', 'set', THERE, 'down');
    const gone = Date.now();
    // TLS_KEEPALIVE_MS of silence, then 10 probes a second apart (libuv), then the daemon's close: bounded here with room.
    await eventually('the vanished viewer to be let go', () => door.guests() === 0, TLS_KEEPALIVE_MS + 25_000);
    expect(Date.now() - gone).toBeGreaterThan(TLS_KEEPALIVE_MS - 1_000);
    // The door still serves the person.
    expect(d.pane(['ls']).status).toBe(0);
  }, TLS_KEEPALIVE_MS + 90_000);

  it('lets go of a follower whose machine vanished with output on its way to it, at the same bound, not after ~15 min of retransmits', async () => {
    ip('netns', 'exec', NS, 'ip', 'link', 'set', THERE, 'up');
    // A line every 10 ms, for as long as the test runs: the door always has bytes on their way to the follower.
    const { door, f } = await followBusyPane('flood', 'i=0; while :; do i=$((i+1)); echo "line $i"; sleep 0.01; done', ['ip', 'netns', 'exec', NS]);
    follower = f.proc;
    const seen = f.got();
    await eventually('the follower to be streamed lines', () => f.got() > seen + 1_000, 10_000);
    ip('netns', 'exec', NS, 'ip', 'link', 'set', THERE, 'down');
    const gone = Date.now();
    await eventually('the vanished follower to be let go', () => door.guests() === 0, TLS_UNACKED_MS + 25_000);
    expect(Date.now() - gone).toBeGreaterThan(TLS_UNACKED_MS - 5_000);
    expect(d.pane(['ls']).status).toBe(0);
    follower.kill('SIGKILL'); // its own side would end by keepalive; the next case has a follower of its own
  }, TLS_UNACKED_MS + 90_000);

  it('keeps a follower that is stopped (Ctrl-Z) with output waiting for it, and it carries on when continued', async () => {
    const { door, n, f } = await followBusyPane('paused', 'yes "a line of output for a follower that stops reading"', []);
    follower = f.proc;
    let ended: number | null = null;
    follower.once('exit', (code) => (ended = code ?? -1));
    await eventually('the follower to be streamed lines', () => f.got() > 1 << 20, 20_000);
    follower.kill('SIGSTOP');
    // Its machine is there and its kernel answers: only the program does not read. The kernel's window probes
    // back off (0.2 s doubling: 51 s apart from ~51 s on), so for a while its last acknowledgment is older
    // than the bound: it is kept all the same, each probe answered.
    await new Promise((r) => setTimeout(r, 2 * TLS_UNACKED_MS + 30_000));
    expect(door.guests()).toBe(1);
    follower.kill('SIGCONT');
    const at = f.got();
    await eventually('the continued follower to read on', () => f.got() > at + (1 << 20), 20_000);
    expect(ended).toBe(null);
    expect(d.pane(['send', '-t', n, '--raw', '\x03']).status).toBe(0);
  }, 2 * TLS_UNACKED_MS + 120_000);

  it('ends a watch over the door from here once the daemon’s machine vanished, saying the server stopped answering', async () => {
    ip('netns', 'exec', NS, 'ip', 'link', 'set', THERE, 'up');
    ip('netns', 'exec', NS, 'ip', 'link', 'set', 'lo', 'up');
    far = await startDaemon('vanishfar', { wrap: ['ip', 'netns', 'exec', NS] });
    const door = await doorWithGrant(far, THERE_IP);
    const w = await watchAsGuest(door, d.env, []);
    watcher = w.proc;
    let ended: number | null = null;
    const before = w.said().length;
    watcher.once('exit', (code) => (ended = code ?? -1));
    // The daemon's machine goes: its link down, nothing more on the wire either way.
    ip('netns', 'exec', NS, 'ip', 'link', 'set', THERE, 'down');
    await eventually('the watch to end', () => ended !== null, TLS_KEEPALIVE_MS + 25_000);
    expect(ended).not.toBe(0);
    expect(w.said().slice(before)).toMatch(/^pane: the server stopped answering: its machine, or the network to it, is gone \(.*ETIMEDOUT\)$/m);
  }, TLS_KEEPALIVE_MS + 90_000);

  it('ends a follower over the door from here once the daemon’s machine vanished with its acknowledgments on their way, at the same bound', async () => {
    // The follower acknowledges what it reads (flow control): when the far machine goes mid-output the bytes already
    // in its kernel are read and acknowledged into a dead link, and keepalive never asks while they wait.
    ip('netns', 'exec', NS, 'ip', 'link', 'set', THERE, 'up');
    ip('netns', 'exec', NS, 'ip', 'link', 'set', 'lo', 'up');
    far ??= await startDaemon('vanishfar', { wrap: ['ip', 'netns', 'exec', NS] });
    const { f } = await followBusyPane('farflood', 'i=0; while :; do i=$((i+1)); echo "line $i"; sleep 0.01; done', [], far, THERE_IP);
    follower = f.proc;
    let ended: number | null = null;
    follower.once('exit', (code) => (ended = code ?? -1));
    const seen = f.got();
    await eventually('the follower to be streamed lines', () => f.got() > seen + 1_000, 10_000);
    const before = f.said().length;
    ip('netns', 'exec', NS, 'ip', 'link', 'set', THERE, 'down');
    const gone = Date.now();
    await eventually('the follower to end', () => ended !== null, TLS_UNACKED_MS + 25_000);
    expect(Date.now() - gone).toBeGreaterThan(TLS_KEEPALIVE_MS - 1_000);
    expect(ended).not.toBe(0);
    expect(f.said().slice(before)).toMatch(/^pane: the server stopped answering: its machine, or the network to it, is gone \(.*ETIMEDOUT\)$/m);
  }, TLS_UNACKED_MS + 90_000);
});
