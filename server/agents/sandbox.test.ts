import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AccessSchema } from '../../kits/protocol/agent';
import { MAX_RELAYS, RELAY_WAIT_CS, sandboxRelays, keepTerminal, programLine, rootFromPlaces, runtimePrograms, startRelayFirst } from '../../kits/node/cli/commands/sandbox';
import { runtimeDir, stateDir } from '../../kits/node/paths';
import { which } from '../../kits/node/which';
import { peoplePlaces, rewrapProgram, rootPlaces, servicePlaces, sandboxSettings, sandboxUnavailable, unwrapSandbox } from './sandbox';
import { typable, type AgentService } from './service';
import { helperSocket, helperTmp, LAUNCHER, LAUNCHER_NAME, launcherArgs, launcherOf } from '../../kits/node/sandboxHelper';

// The parts of a service the settings read: where homes, data and the socket are.
const svc = {
  options: { dataDir: '/h/.local/share/pane' },
  store: { home: (n: string) => `/h/.local/share/pane/agents/${n}` },
  server: { env: { HOME: '/h' }, socketPath: '/run/user/1/pane/pane.sock' },
  deps: { persistDir: () => '/srv/state/pane' },
} as unknown as AgentService;

describe('sandbox settings from .access', () => {
  it('lets it write its project, home and extra paths, never its account files, and hides state, socket and secrets', () => {
    const access = AccessSchema.parse({ sandbox: { write: ['~/.npm'], network: ['example.org'] } });
    const s = sandboxSettings(svc, 'ada', access, '/src/shop');
    expect(s.filesystem.allowWrite).toEqual(['/src/shop', '/h/.local/share/pane/agents/ada', '/h/.npm']);
    expect(s.filesystem.denyWrite).toContain('/h/.local/share/pane/agents/ada/.access');
    expect(s.filesystem.denyRead).toEqual(expect.arrayContaining(['/h/.local/share/pane', '/run/user/1/pane/pane.sock', '/h/.ssh', '/srv/state/pane', stateDir(), runtimeDir(false)]));
    expect(s.filesystem.denyWrite).toContain('/h/.local/share/pane/agents/ada/hook.sock');
    expect(s.filesystem.allowRead[0]).toBe('/h/.local/share/pane/agents/ada');
    expect(s.network.allowedDomains).toEqual(['example.org']);
  });

  it('does not make the person’s home or / writable because an agent was started there', () => {
    const access = AccessSchema.parse({});
    expect(sandboxSettings(svc, 'ada', access, '/h').filesystem.allowWrite).toEqual(['/h/.local/share/pane/agents/ada']);
    expect(sandboxSettings(svc, 'ada', access, '/').filesystem.allowWrite).toEqual(['/h/.local/share/pane/agents/ada']);
  });

  it.runIf(process.platform === 'linux')('makes unix sockets only where .access allows them, through the helper whose walls allow them (its own proxies’ dir bound in)', () => {
    const refused = sandboxSettings(svc, 'ada', AccessSchema.parse({}), '/src/shop');
    expect(refused.network.allowAllUnixSockets).toBe(false);
    expect(refused.filesystem.allowRead).toContain(helperTmp(runtimeDir(false), process.pid));
    const allowed = sandboxSettings(svc, 'ada', AccessSchema.parse({ sandbox: { unixSockets: 'allow' } }), '/src/shop');
    expect(allowed.network.allowAllUnixSockets).toBe(true);
    expect(allowed.filesystem.allowRead).toContain(helperTmp(runtimeDir(false), process.pid, true));
    expect(allowed.filesystem.allowRead).not.toContain(helperTmp(runtimeDir(false), process.pid));
    expect(helperSocket('/r', 9, true)).not.toBe(helperSocket('/r', 9));
    // Anything else is named, and grants nothing.
    expect(AccessSchema.safeParse({ sandbox: { unixSockets: 'yes' } }).success).toBe(false);
  });
});

describe('the machine’s services’ places', () => {
  it.runIf(process.platform === 'linux')('hides /run whole and sealed (its sockets, secrets and every session’s runtime dir), one spelling of it, and binds back a socket .access grants', () => {
    expect(servicePlaces()).toContain('/run');
    // Debian's /var/run is a link to /run: the same place, hidden once.
    if (fs.existsSync('/var/run') && fs.realpathSync('/var/run') === '/run') expect(servicePlaces()).not.toContain('/var/run');
    expect(peoplePlaces()).not.toContain('/run');
    const s = sandboxSettings(svc, 'ada', AccessSchema.parse({ sandbox: { unixSockets: 'allow', read: ['/run/docker.sock'] } }), '/src/shop');
    expect(s.filesystem.denyRead).toContain('/run');
    expect(s.pane.sealed).toContain('/run');
    expect(s.filesystem.allowRead).toContain('/run/docker.sock');
    expect(sandboxSettings(svc, 'ada', AccessSchema.parse({}), '/src/shop').filesystem.allowRead).not.toContain('/run/docker.sock');
  });

  it.runIf(process.platform === 'linux')('keeps in view the children of /run that PATH has programs in (NixOS’s current-system and wrappers), and hides the rest one by one', () => {
    const run = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-run-'));
    try {
      for (const d of ['current-system/sw/bin', 'wrappers/bin', 'secrets', 'docker']) fs.mkdirSync(path.join(run, d), { recursive: true });
      fs.writeFileSync(path.join(run, 'docker.sock'), '');
      expect(servicePlaces('/usr/bin:/bin', [run])).toEqual([run]);
      fs.mkdirSync(path.join(run, 'user/1000/fnm_multishells/1_2/bin'), { recursive: true });
      const nix = servicePlaces(`${run}/current-system/sw/bin:/usr/bin:${run}/wrappers/bin:relative/bin:${run}/user/1000/fnm_multishells/1_2/bin`, [run]);
      // Every session's runtime dir stays hidden, though a PATH directory is in one (fnm's).
      expect(nix.sort()).toEqual([path.join(run, 'docker'), path.join(run, 'docker.sock'), path.join(run, 'secrets'), path.join(run, 'user')]);
    } finally {
      fs.rmSync(run, { recursive: true, force: true });
    }
  });
});

describe('the sandbox’s root', () => {
  it('is made of the places named alone (a link as a link), where the runtime bound the whole of /, and sealed read-only after every mount', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-root-'));
    try {
      fs.mkdirSync(path.join(dir, 'usr'));
      fs.symlinkSync('usr/bin', path.join(dir, 'bin'));
      const usr = path.join(dir, 'usr');
      const bin = path.join(dir, 'bin');
      const wrapped = "bwrap --die-with-parent --ro-bind / / --tmpfs /home --proc /proc -- /bin/sh -c 'echo --ro-bind / / inside'";
      const made = rootFromPlaces(wrapped, [usr, bin, path.join(dir, 'absent')]);
      expect(made).toBe(`bwrap --die-with-parent --ro-bind '${usr}' '${usr}' --symlink 'usr/bin' '${bin}' --tmpfs /home --proc /proc --remount-ro / -- /bin/sh -c 'echo --ro-bind / / inside'`);
      // Nothing named (not Linux): as the runtime made it.
      expect(rootFromPlaces(wrapped, [])).toBe(wrapped);
      // A runtime that no longer binds / so (or twice) is refused, not run with other walls.
      expect(() => rootFromPlaces('bwrap --ro-bind-try / / -- true', [usr])).toThrow(/does not bind \/ once/);
      expect(() => rootFromPlaces('bwrap --ro-bind / / --ro-bind / / -- true', [usr])).toThrow(/does not bind \/ once/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(process.platform === 'linux')('names the system’s places and the children of /run PATH keeps, never a people place', () => {
    const root = rootPlaces('/usr/bin:/bin');
    expect(root).toContain('/usr');
    expect(root).toContain('/etc');
    for (const p of [...peoplePlaces(), '/run', '/tmp', '/home', '/root']) expect(root).not.toContain(p);
    expect(sandboxSettings(svc, 'ada', AccessSchema.parse({}), '/src/shop').pane.root).toEqual(rootPlaces(svc.server.env.PATH ?? process.env.PATH));
  });
});

describe('what reaches a terminal', () => {
  it('keeps the pane as the sandboxed program’s terminal (no bubblewrap --new-session)', () => {
    expect(keepTerminal("bwrap --new-session --die-with-parent -- bash -c 'x'")).toBe("bwrap --die-with-parent -- bash -c 'x'");
    expect(keepTerminal("/usr/bin/bwrap --new-session -- x")).toBe('/usr/bin/bwrap -- x');
  });

  it('starts each relay in a session of its own, only for plain PORT:SOCKET words', () => {
    const r = sandboxRelays('41457:/h/agents/ada/hook.sock')!;
    expect(r.start).toMatch(/^setsid socat TCP4-LISTEN:41457,bind=127\.0\.0\.1,fork,[^ ]* UNIX-CONNECT:\/h\/agents\/ada\/hook\.sock .*&\n$/);
    expect(r.wait).toMatch(/for _pane_p in A1F1 \$PANE_SANDBOX_LISTENERS; .*\*:\$_pane_p:0A\)/);
    // Neither may hold a quote: the start stands inside a single-quoted word (startRelayFirst).
    expect(`${r.start}${r.wait}`).not.toMatch(/'/);
    // The hook door's and the pane socket's: both started, both waited for.
    const two = sandboxRelays('41457:/h/agents/ada/hook.sock 7519:/h/agents/ada/pane.sock')!;
    expect(two.ports).toEqual([41457, 7519]);
    expect(two.start.split('\n').filter((l) => l.startsWith('setsid socat'))).toHaveLength(2);
    expect(two.start).toContain('TCP4-LISTEN:7519,bind=127.0.0.1,');
    expect(two.start).toContain('UNIX-CONNECT:/h/agents/ada/pane.sock ');
    expect(two.wait).toMatch(/for _pane_p in A1F1 1D5F \$PANE_SANDBOX_LISTENERS;/);
    const many = Array.from({ length: MAX_RELAYS + 1 }, (_, i) => `${7000 + i}:/h/s${i}.sock`).join(' ');
    for (const bad of [undefined, '', ' ', 'x:/a', '0:/a', '70000:/a', '1:relative', '1:/a,b', '1:/a:b', "1:/a'b", '1:/a 1:/b', '1:/a 2:rel', many]) expect(sandboxRelays(bad)).toBeNull();
  });

  it('starts the relay before bubblewrap’s program, leaving that program’s words as they were', () => {
    const wrapped = "/usr/bin/bwrap --die-with-parent --setenv X 'a -- b' --ro-bind / / -- /usr/bin/bash -c 'echo '\"'\"'hi -- there'\"'\"''";
    const out = startRelayFirst(wrapped, 'setsid socat A B &\n');
    expect(out).toBe("/usr/bin/bwrap --die-with-parent --setenv X 'a -- b' --ro-bind / / -- /bin/sh -c 'setsid socat A B &\nexec \"$@\"' sh /usr/bin/bash -c 'echo '\"'\"'hi -- there'\"'\"''");
    expect(() => startRelayFirst("sandbox-exec -p 'x' bash -c 'y'", 'setsid socat A B &\n')).toThrow(/no bubblewrap `--`/);
    // The runtime's bridges (before the program's line) are named for the program's wait; a listen in the program's own words is not.
    const line = programLine(['socat', 'TCP4-LISTEN:9', 'STDIO'], undefined, '41457:/h/hook.sock');
    const runtime = `/usr/bin/bwrap --unshare-net -- /usr/bin/bash -c '{ socat TCP6-LISTEN:3128,fork X; } & { socat TCP6-LISTEN:1080,fork Y; } & ${line.command}'`;
    expect(line.withRelay(runtime)).toContain(`' -- /bin/sh -c 'setsid socat TCP4-LISTEN:41457,`.slice(1));
    expect(line.withRelay(runtime)).toContain(`&\nexport PANE_SANDBOX_LISTENERS="0C38 0438"\nexec "$@"' sh /usr/bin/bash -c '{ socat TCP6-LISTEN:3128`);
    // Without a relay the line is the program's alone, and the wrapped command is left as it is.
    const plain = programLine(['claude', "it's"], '/h/tmp', undefined);
    expect(plain.command).toBe("TMPDIR='/h/tmp' exec 'claude' 'it'\\''s'");
    expect(plain.withRelay(wrapped)).toBe(wrapped);
  });

  // The relay's lines run by bash as the runtime runs them (its command is bash's), the relay's socat real: how long the
  // program is held back is the wait's whole point.
  const relayRun = (relay: string, setsid: string): { ms: number; listening: boolean; relayPid: number | null } => {
    const t0 = performance.now();
    const lines = sandboxRelays(relay)!;
    const r = spawnSync('/bin/bash', ['-c', `${setsid}\n${lines.start}${lines.wait}if : 2>/dev/null 3<>/dev/tcp/127.0.0.1/\${1}; then echo listening; fi; echo "relay \${!-}"`, 'relay', relay.split(':')[0]!], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    const pid = /relay (\d+)/.exec(r.stdout);
    return { ms: performance.now() - t0, listening: r.stdout.includes('listening'), relayPid: pid ? Number(pid[1]) : null };
  };
  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });

  it('holds the program back until the hook relay listens, and no longer', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-relay-'));
    const sock = path.join(dir, 'hook.sock');
    const hooks = net.createServer((c) => c.end()).listen(sock);
    try {
      const port = await freePort();
      // The line after the wait connects at once: refused, unless the wait ended only once socat listened.
      const r = relayRun(`${port}:${sock}`, '');
      // setsid execs socat in place (bash's background job leads no process group): $! is the relay, ended here.
      if (r.relayPid !== null) process.kill(r.relayPid, 'SIGTERM');
      expect(r.listening).toBe(true);
      expect(r.ms).toBeLessThan(RELAY_WAIT_CS * 10);
    } finally {
      hooks.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives up on a relay that never listens after RELAY_WAIT_CS, and the program starts', async () => {
    const port = await freePort();
    // setsid that starts nothing: no relay will ever listen.
    const r = relayRun(`${port}:/nowhere/hook.sock`, 'setsid() { :; }');
    expect(r.listening).toBe(false);
    expect(r.ms).toBeGreaterThanOrEqual(RELAY_WAIT_CS * 10 * 0.9);
    expect(r.ms).toBeLessThan(RELAY_WAIT_CS * 10 + 5_000);
  });

  // The relay as a launch starts it: first thing inside a real bubblewrap with a network namespace of its own, the
  // program's line waiting for it, the program's hook carried to a real hook socket outside.
  it.skipIf(sandboxUnavailable(process.env.PATH) !== null)('carries a hook from inside a real sandbox, the relay started before bubblewrap’s program, and holds the program until the runtime’s bridges listen too', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-relay-'));
    const sock = path.join(dir, 'hook.sock');
    let got = '';
    const hooks = net.createServer((c) => {
      c.setEncoding('utf8');
      c.on('data', (d: string) => {
        got += d;
        if (got.includes('\n')) c.end('ok\n');
      });
    }).listen(sock);
    // The relay started first and the bridge slow to listen are the case startRelayFirst's listeners are for.
    try {
      const port = await freePort();
      // The program connects at once, with no retry: refused, unless the wait ended only once socat listened.
      const bridge = await freePort();
      // The program connects to both at once, with no retry: refused, unless the wait ended only once both listened.
      const program = `exec 4<>/dev/tcp/127.0.0.1/${bridge} && exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'SessionStart\\n' >&3 && IFS= read -r a <&3 && echo "answer $a \${PANE_SANDBOX_LISTENERS-none}"`;
      const line = programLine(['/bin/bash', '-c', program], undefined, `${port}:${sock}`);
      const q = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;
      const bwrap = which('bwrap', process.env.PATH)!;
      // As the runtime's script: a proxy bridge in the background (one slow to listen), then the program's line, with
      // no wait of its own (the runtime's counts TCP sockets, which the relay started first makes too many).
      const runtime = `{ sleep 0.3; exec socat TCP6-LISTEN:${bridge},ipv6only=0,fork,reuseaddr UNIX-CONNECT:${sock}; } >/dev/null 2>&1 &\n${line.command}`;
      const wrapped = `${bwrap} --die-with-parent --unshare-net --unshare-pid --ro-bind / / --bind ${q(dir)} ${q(dir)} --dev /dev --proc /proc -- /bin/bash -c ${q(runtime)}`;
      // Not spawnSync: the hook socket is served by this process.
      const child = spawn('/bin/sh', ['-c', line.withRelay(wrapped)], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += String(d)));
      child.stderr.on('data', (d: Buffer) => (err += String(d)));
      const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
      // The bridges' list is the wait's, not the program's: gone from its environment.
      expect({ out, err }).toEqual({ out: 'answer ok none\n', err: '' });
      expect(got).toBe('SessionStart\n');
      expect(status).toBe(0);
    } finally {
      hooks.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('types text without control bytes: line ends become spaces, ^C, ESC and C1 go', () => {
    expect(typable('one\r\ntwo\rthree\x03\x1b[2J\x9bX\tend')).toBe('one two three[2JX end');
  });
});

describe('the programs the runtime runs', () => {
  it('names bubblewrap and socat by their paths, and a scan of the helper’s empty directory as the nothing it finds', () => {
    if (process.platform !== 'linux') return;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-bin-'));
    try {
      for (const p of ['bwrap', 'socat']) fs.symlinkSync(which(p, process.env.PATH)!, path.join(dir, p));
      const found = runtimePrograms(`/nonexistent:${dir}:/usr/bin:/bin`);
      expect(found.bwrapPath).toBe(path.join(dir, 'bwrap'));
      expect(found.socatPath).toBe(path.join(dir, 'socat'));
      // What the runtime runs as its ripgrep, with ripgrep's arguments: it lists nothing and says "no match" (exit 1).
      const scan = spawnSync(found.ripgrep!.command, ['--files', '--hidden', '--max-depth', '4', '--iglob', '.bashrc', dir], { encoding: 'utf8' });
      expect(scan.status).toBe(1);
      expect(scan.stdout).toBe('');
      // Not on PATH: the runtime looks them up itself, as before.
      expect(runtimePrograms('/nonexistent')).toEqual({ ripgrep: { command: '/bin/false' } });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a launch brought back from a snapshot', () => {
  it('is unwrapped to the program it sandboxed, so walls are never nested', () => {
    const wrapped = { program: '/usr/bin/node', args: ['/opt/pane/dist/pane.mjs', 'sandbox', '--settings', '{}', '--', 'claude', '--settings', 'x.json'], env: { PANE_AGENT_TMPDIR: '/h/tmp', PANE_HOOK_RELAY: '4:/h/hook.sock', FOO: '1' } };
    expect(unwrapSandbox(wrapped)).toEqual({ program: 'claude', args: ['--settings', 'x.json'], env: { FOO: '1' } });
  });

  it('is unwrapped from the helper’s launcher too (the form every sandboxed pane runs now)', () => {
    const access = AccessSchema.parse({});
    const req = { argv: ['claude', '--settings', 'x.json'], settings: sandboxSettings(svc, 'ada', access, '/src/shop'), cwd: '/src/shop', tmp: '/h/tmp' };
    const launched = { program: '/bin/sh', args: launcherArgs('/run/user/1/pane/sandbox-helper-9.sock', req), env: { FOO: '1' }, cwd: '/src/shop' };
    expect(unwrapSandbox(launched)).toEqual({ program: 'claude', args: ['--settings', 'x.json'], env: { FOO: '1' }, cwd: '/src/shop' });
    // A launcher whose request is not one (edited in a saved file) is left as it is: no program is made up from it.
    const bad = { program: '/bin/sh', args: ['-c', LAUNCHER, LAUNCHER_NAME, '/s', '{"argv":[]}'] };
    expect(unwrapSandbox(bad)).toBe(bad);
  });

  it('is rewrapped as a request of its own: a wrap made ahead for the old program is not asked for', () => {
    const access = AccessSchema.parse({});
    const req = { argv: ['claude'], settings: sandboxSettings(svc, 'ada', access, '/src/shop'), cwd: '/src/shop', prewrap: 'AAAAAAAAAAAAAAAAAAAAAA' };
    const launched = { program: '/bin/sh', args: launcherArgs('/run/user/1/pane/sandbox-helper-9.sock', req) };
    const again = rewrapProgram(launched, (argv) => [...argv, '--resume', 'x'])!;
    expect(launcherOf(again)).toEqual({ argv: ['claude', '--resume', 'x'], settings: req.settings, cwd: '/src/shop' });
    expect(launcherOf(launched)?.prewrap).toBe('AAAAAAAAAAAAAAAAAAAAAA');
  });

  it('leaves any other launch as it is', () => {
    const plain = { program: 'bash', args: ['-l'] };
    expect(unwrapSandbox(plain)).toBe(plain);
  });
});

describe('the launcher', () => {
  const req = { argv: ['true'], settings: sandboxSettings(svc, 'ada', AccessSchema.parse({}), '/src/shop'), cwd: '/src/shop' };

  /** A unix socket file nothing listens on: a node that listened there, SIGKILLed (so it never unlinked it). */
  async function deadSocket(at: string): Promise<void> {
    const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(at)}, () => process.stdout.write('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    child.kill('SIGKILL');
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  }

  /** A helper answering each ask with `answer`, counting the asks. */
  function helper(at: string, answer: string): { server: net.Server; asks: string[] } {
    const asks: string[] = [];
    const server = net.createServer((c) => {
      let got = '';
      c.setEncoding('utf8');
      c.on('data', (d: string) => {
        got += d;
        if (got.includes('\n')) {
          asks.push(got);
          c.end(answer);
        }
      });
    });
    server.listen(at);
    return { server, asks };
  }

  function launch(socket: string): Promise<{ code: number | null; out: string; err: string; ms: number }> {
    const t0 = Date.now();
    const child = spawn('/bin/sh', launcherArgs(socket, req), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err, ms: Date.now() - t0 })));
  }

  it('asks again while the helper’s socket refuses (a dead helper’s, or one bound but not yet listening), and once it is taken, never again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-launcher-'));
    const socket = path.join(dir, 'h.sock');
    try {
      await deadSocket(socket);
      expect(fs.statSync(socket).isSocket()).toBe(true);
      const run = launch(socket);
      // The launcher meets the refusing socket for a while; then a helper takes its place.
      await new Promise((r) => setTimeout(r, 400));
      fs.unlinkSync(socket);
      const h = helper(socket, '#pane-sandbox\necho launched\n');
      const r = await run;
      h.server.close();
      expect(r.err).toBe('');
      expect([r.code, r.out]).toEqual([0, 'launched\n']);
      expect(h.asks).toHaveLength(1);
      expect(h.asks[0]).toMatch(/^wrap \d+ \{"argv":\["true"\]/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not ask twice when the helper answered, even with an error that names a missing file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-launcher-'));
    const socket = path.join(dir, 'h.sock');
    try {
      const h = helper(socket, '#pane-sandbox-error cwd /src/shop: No such file or directory');
      await new Promise((r) => h.server.once('listening', r));
      const r = await launch(socket);
      h.server.close();
      expect(r.code).toBe(126);
      expect(r.err).toBe('pane: cannot start the sandbox: cwd /src/shop: No such file or directory\n');
      expect(h.asks).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
