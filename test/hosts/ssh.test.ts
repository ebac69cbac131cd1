// A second machine's pane daemon joined through real OpenSSH (issue 26): an sshd on
// 127.0.0.1 with its own host key and an authorized key made by ssh-keygen, a remote
// daemon with its own HOME whose `pane` is on the ssh session's PATH, and the local
// daemon's `pane host add/connect`; then the same remote through a `command` host
// (`sh -c` into its `pane serve --stdio`). Its panes are HOST:N in `pane ls`, their
// screens read and their input typed through the local daemon.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../cli/harness';
import { sshDaemons, type SshDaemons } from './pair';
import { eventually, type Daemon, type Sshd } from './remote';

let daemons: SshDaemons;
let remote: Daemon;
let local: Daemon;
let sshd: Sshd;
let bin: string;
/** The remote pane that prints a marker and then echoes what it is typed (cat). */
let n: string;

beforeAll(async () => {
  daemons = await sshDaemons({ remote: 'remote', local: 'local' }, 'REMOTE-MARK');
  ({ remote, local, sshd, n, bin } = daemons);
}, 120_000);

afterAll(async () => {
  await daemons?.stop();
});

/** Joins `name` and checks ls, screen and input through it. */
function throughHost(name: string): void {
  const c = local.pane(['host', 'connect', name]);
  expect(c.status, `${c.stderr}\nsshd: ${sshd.log().slice(-1500)}`).toBe(0);
  expect(c.stdout).toMatch(new RegExp(`^${name}: connected`));

  const ls = local.pane(['ls']);
  expect(ls.status, ls.stderr).toBe(0);
  expect(ls.stdout).toMatch(new RegExp(`^${name}:${n}\\s`, 'm'));
  // Its session is named as the host names it (HOST:NAME), not by an id only that host knows.
  const there = JSON.parse(remote.pane(['session', 'ls', '--json']).stdout) as { name: string }[];
  expect(ls.stdout).toMatch(new RegExp(`^${name}:${n}\\s+${name}:${there[0]!.name}\\s`, 'm'));
  // Local panes stay bare numbers beside them.
  expect(ls.stdout).toMatch(/^1\s/m);

  const screen = local.pane(['screen', '-t', `${name}:${n}`]);
  expect(screen.status, screen.stderr).toBe(0);
  expect(screen.stdout).toContain('REMOTE-MARK-42');

  const word = `typed-through-${name}`;
  const send = local.pane(['send', '-t', `${name}:${n}`, word]);
  expect(send.status, send.stderr).toBe(0);
  return;
}

/** The remote daemon's clients that the link to `host` made there (the link's own and its relay's), by name. */
function linkClients(host = 'box'): { name: string; transport: string }[] {
  const r = remote.pane(['clients', '--json']);
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { name: string; transport: string }[])
    .filter((c) => c.name === `host link ${host}` || c.name === 'pane serve --stdio')
    .map(({ name, transport }) => ({ name, transport }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

describe('a host over ssh', () => {
  it('is added, joined, listed as HOST:N, its screen read and its input typed', async () => {
    const add = local.pane(['host', 'add', 'box', `ssh://root@127.0.0.1:${sshd.port}`, '--ssh-config', sshd.clientConfig]);
    expect(add.status, add.stderr).toBe(0);
    throughHost('box');
    await eventually('the typed word on the remote pane', () => remote.pane(['screen', '-t', n]).stdout.includes('typed-through-box'));
    const hosts = local.pane(['host', 'ls']);
    expect(hosts.stdout).toMatch(/^box\s+ssh root@127\.0\.0\.1:\d+\s+connected\s+\d+/m);
    // sshd gave pane serve --stdio pipes: the remote daemon took them over (stdio/adopt), and the relay only waits.
    expect(linkClients()).toEqual([
      { name: 'host link box', transport: 'stdio' },
      { name: 'pane serve --stdio', transport: 'unix' },
    ]);
  }, 60_000);

  it('opens a pane on the host with split -t HOST:N, lists it at once, and closes it', () => {
    const split = local.pane(['split', '-t', `box:${n}`, '--', 'sh', '-c', 'echo SPLIT-ON-BOX; exec cat']);
    expect(split.status, split.stderr).toBe(0);
    const id = split.stdout.trim();
    expect(id).toMatch(/^box:\d+$/);
    expect(local.pane(['ls']).stdout).toMatch(new RegExp(`^${id}\\s`, 'm'));
    const m = id.slice('box:'.length);
    expect(remote.pane(['ls']).stdout).toMatch(new RegExp(`^${m}\\s`, 'm'));
    expect(local.pane(['close', '-t', id]).status).toBe(0);
    expect(remote.pane(['ls']).stdout).not.toMatch(new RegExp(`^${m}\\s`, 'm'));
  });

  it('names the pane a word opened on the host as box:N (exec -t HOST:N split), never as a number that is a local pane', () => {
    const run = local.pane(['exec', '-t', `box:${n}`, 'split', 'v']);
    expect(run.status, run.stderr).toBe(0);
    const id = run.stdout.trim();
    expect(id).toMatch(/^box:\d+$/);
    const m = id.slice('box:'.length);
    expect(remote.pane(['ls']).stdout).toMatch(new RegExp(`^${m}\\s`, 'm'));
    expect(local.pane(['close', '-t', id]).status).toBe(0);
  });

  it("tells its panes' changes here as they happen (host/pane, named box:N): one opened, retitled and closed on the host itself", async () => {
    const watch = spawn(BIN, ['watch', 'host'], { env: local.env, cwd: local.home, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    watch.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await new Promise((res) => setTimeout(res, 500)); // pane watch subscribed
      const made = remote.pane(['new', '--', 'sh', '-c', 'exec cat']);
      expect(made.status, made.stderr).toBe(0);
      const m = made.stdout.trim();
      const seen = (event: string) => out.split('\n').some((l) => l.includes('"event":"host/pane"') && l.includes(`"event":"${event}"`) && l.includes(`"id":"box:${m}"`));
      await eventually('pane/created of box:M', () => seen('pane/created'), 10_000);
      expect(local.pane(['ls']).stdout).toMatch(new RegExp(`^box:${m}\\s`, 'm'));
      expect(remote.pane(['tag', '-t', m, '--user', 'retitled-there']).status).toBe(0);
      await eventually('its tag change', () => seen('pane/tag-changed') && out.includes('retitled-there'), 10_000);
      expect(remote.pane(['close', '-t', m]).status).toBe(0);
      await eventually('pane/closed of box:M', () => seen('pane/closed'), 10_000);
      expect(local.pane(['ls']).stdout).not.toMatch(new RegExp(`^box:${m}\\s`, 'm'));
      // Never a bare remote number: each host/pane names the pane box:N, and its pane says host box.
      for (const l of out.split('\n').filter((x) => x.includes('"event":"host/pane"'))) {
        const e = JSON.parse(l) as { data: { id: string; pane?: { host: string } } };
        expect(e.data.id).toMatch(/^box:\d+$/);
        if (e.data.pane) expect(e.data.pane.host).toBe('box');
      }
    } finally {
      watch.kill('SIGKILL');
    }
  }, 60_000);

  it('is dialled again when its ssh dies, and HOST:N works again', async () => {
    // The daemon's own children running ssh to this sshd: the link's transport process.
    const kids = spawnSync('pgrep', ['-P', String(local.proc.pid), '-f', `ssh .*-p ${sshd.port}`], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
    expect(kids.length).toBeGreaterThan(0);
    for (const pid of kids) process.kill(Number(pid), 'SIGKILL');
    await eventually('the link to drop and come back', () => /^box\s.*connected/m.test(local.pane(['host', 'ls']).stdout) && local.pane(['screen', '-t', `box:${n}`]).stdout.includes('REMOTE-MARK-42'), 30_000);
    const after = spawnSync('pgrep', ['-P', String(local.proc.pid), '-f', `ssh .*-p ${sshd.port}`], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
    expect(after.some((p) => !kids.includes(p))).toBe(true);
    // The killed session's adopted stream and its waiting relay ended with it on the remote: one of each is left, the new link's.
    await eventually('the old session gone on the remote', () => linkClients().length === 2, 15_000);
    expect(linkClients()).toEqual([
      { name: 'host link box', transport: 'stdio' },
      { name: 'pane serve --stdio', transport: 'unix' },
    ]);
  }, 45_000);

  it('skips what a noisy login prints before the preamble (a host file naming its remote pane program)', () => {
    // A remote whose session prints a banner first, as a .bashrc that echoes does.
    fs.writeFileSync(path.join(bin, 'noisy-pane'), `#!/bin/sh\necho 'Welcome to box! Last login: never'\necho '*** maintenance tonight ***'\nexec pane "$@"\n`, { mode: 0o755 });
    const file = path.join(local.home, '.config', 'pane', 'hosts', 'noisy.json');
    fs.writeFileSync(file, JSON.stringify({ how: { via: 'ssh', destination: 'root@127.0.0.1', port: sshd.port, configFile: sshd.clientConfig, pane: 'noisy-pane' } }));
    const c = local.pane(['host', 'connect', 'noisy']);
    expect(c.status, c.stderr).toBe(0);
    expect(local.pane(['screen', '-t', `noisy:${n}`]).stdout).toContain('REMOTE-MARK-42');
    expect(local.pane(['host', 'disconnect', 'noisy']).status).toBe(0);
  });

  it('is left by host disconnect, after which HOST:N is refused naming the fix', () => {
    expect(local.pane(['host', 'disconnect', 'box']).status).toBe(0);
    expect(local.pane(['ls']).stdout).not.toMatch(/^box:/m);
    const r = local.pane(['screen', '-t', `box:${n}`]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/host box is disconnected.*pane host connect box/);
  });
});

describe('a host through a command', () => {
  it('reaches the same daemon with sh -c into its pane serve --stdio', async () => {
    const add = local.pane(['host', 'add', 'viash', '--', 'sh', '-c', `exec ${bin}/pane serve --stdio`]);
    expect(add.status, add.stderr).toBe(0);
    throughHost('viash');
    await eventually('the typed word on the remote pane', () => remote.pane(['screen', '-t', n]).stdout.includes('typed-through-viash'));
    // pane gave the command pipes (fifoStdio.ts), as sshd does: the remote daemon took them over from its relay here too.
    // (Waited for: the links of the hosts disconnected above leave the remote's list as their relays exit.)
    const want = [
      { name: 'host link viash', transport: 'stdio' },
      { name: 'pane serve --stdio', transport: 'unix' },
    ];
    await eventually('the one adopted link of viash', () => JSON.stringify(linkClients('viash')) === JSON.stringify(want)).catch(() => undefined);
    expect(linkClients('viash')).toEqual(want);
  }, 60_000);

  it('joined read-only, shows the remote pane and refuses to type into it', () => {
    const add = local.pane(['host', 'add', 'peek', '--read-only', '--', 'sh', '-c', `exec ${bin}/pane serve --stdio`]);
    expect(add.status, add.stderr).toBe(0);
    expect(local.pane(['host', 'connect', 'peek']).status).toBe(0);
    expect(local.pane(['screen', '-t', `peek:${n}`]).stdout).toContain('REMOTE-MARK-42');
    const r = local.pane(['send', '-t', `peek:${n}`, 'nope']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/host peek is joined read-only/);
    const close = local.pane(['close', '-t', `peek:${n}`]);
    expect(close.status).not.toBe(0);
    expect(remote.pane(['ls']).stdout).toMatch(new RegExp(`^${n}\\s`, 'm'));
  });
});
