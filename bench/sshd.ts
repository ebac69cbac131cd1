// OpenSSH's sshd on 127.0.0.1 for the host tests and the hosts bench (issue 26): a
// free port, its own host key and one authorized key made by ssh-keygen, and an
// ssh_config that pins that host key and uses that key only (nothing of root's own).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A port the kernel had free a moment ago, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function stopProc(p: ChildProcess | undefined): Promise<void> {
  if (!p || p.exitCode !== null || p.signalCode !== null) return;
  const gone = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
  if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
}

export interface Sshd {
  port: number;
  dir: string;
  /** An ssh_config for the client: the test's key and known_hosts, nothing of root's own. */
  clientConfig: string;
  proc: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

/**
 * OpenSSH's sshd on 127.0.0.1:PORT (a free port), its own host key, one authorized
 * key (ssh-keygen) whose sessions get PATH=`pathDir`:... (PermitUserEnvironment), as
 * root with that key only. The client's ssh_config pins the host key.
 */
export async function startSshd(pathDir: string): Promise<Sshd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-sshd-'));
  const port = await freePort();
  const keygen = (file: string) => execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
  keygen(path.join(dir, 'host_key'));
  keygen(path.join(dir, 'client_key'));
  const clientPub = fs.readFileSync(path.join(dir, 'client_key.pub'), 'utf8').trim();
  const hostPub = fs.readFileSync(path.join(dir, 'host_key.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' ');
  fs.writeFileSync(path.join(dir, 'authorized_keys'), `environment="PATH=${pathDir}:/usr/local/bin:/usr/bin:/bin" ${clientPub}\n`, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${hostPub}\n`);
  fs.writeFileSync(
    path.join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${dir}/host_key`,
      `PidFile ${dir}/sshd.pid`,
      `AuthorizedKeysFile ${dir}/authorized_keys`,
      'StrictModes no',
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'PermitUserEnvironment yes',
      'PrintMotd no',
      'LogLevel VERBOSE',
      '',
    ].join('\n'),
  );
  const clientConfig = path.join(dir, 'ssh_config');
  fs.writeFileSync(
    clientConfig,
    ['Host *', `  IdentityFile ${dir}/client_key`, '  IdentitiesOnly yes', `  UserKnownHostsFile ${dir}/known_hosts`, '  GlobalKnownHostsFile /dev/null', '  StrictHostKeyChecking yes', ''].join('\n'),
  );
  // sshd wants its privilege-separation directory; Debian's package makes it at boot.
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const proc = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  await until(`sshd on ${port} (${log})`, () => /Server listening/.test(log) || proc.exitCode !== null);
  if (proc.exitCode !== null) throw new Error(`sshd exited: ${log}`);
  return {
    port,
    dir,
    clientConfig,
    proc,
    log: () => log,
    async stop() {
      await stopProc(proc);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}


/** The environment variables a `pane` wrapper carries over: the user's home and XDG dirs. */
const WRAPPED_VARS = ['HOME', 'XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_DATA_HOME', 'PANE_SOCKET'];

/**
 * A bin dir (`bin`) whose `pane` runs `paneMjs` (the built bin, dist/pane.cjs) with `env`'s
 * home, XDG dirs and PANE_SOCKET: what a remote machine's PATH would hold.
 */
export function paneWrapperDir(bin: string, env: Record<string, string | undefined>, paneMjs: string): string {
  fs.mkdirSync(bin, { recursive: true });
  const vars = WRAPPED_VARS.filter((k) => env[k] !== undefined)
    .map((k) => `export ${k}='${env[k]}'`)
    .join('\n');
  fs.writeFileSync(path.join(bin, 'pane'), `#!/bin/sh\n${vars}\nexec '${process.execPath}' '${paneMjs}' "$@"\n`, { mode: 0o755 });
  return bin;
}
