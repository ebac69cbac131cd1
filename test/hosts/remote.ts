// Real parts for the host tests (issue 26): a second pane daemon with its own HOME
// and XDG dirs (the "remote"), its `pane` on PATH through a small bin dir wrapper,
// an OpenSSH sshd on 127.0.0.1 with its own host key and an authorized key made by
// ssh-keygen (bench/sshd.ts, shared with the hosts bench), and the local daemon
// whose config dir holds hosts/ files.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { paneWrapperDir, startSshd, stopProc, until, type Sshd } from '../../bench/sshd';
import { BIN, cleanEnv, type Run } from '../cli/harness';

export { freePort, startSshd, type Sshd } from '../../bench/sshd';

export interface Daemon {
  /** Its home; config is home/.config/pane, the runtime dir home/run. */
  home: string;
  env: Record<string, string>;
  socket: string;
  proc: ChildProcess;
  /** What it has printed on stderr so far (joins, cut-offs, refusals): for a failure's message. */
  readonly log: string;
  /** `pane ARGS` as this daemon's user (its env), waited for. */
  pane(args: string[], input?: string): Run;
  stop(): Promise<void>;
}

/** A daemon of its own (`pane serve` on its default socket), with HOME and every XDG dir under one temp dir. */
export async function startDaemon(label: string, o: { state?: boolean; wrap?: readonly string[] } = {}): Promise<Daemon> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `pane-host-${label}-`));
  const run = path.join(home, 'run');
  fs.mkdirSync(run, { mode: 0o700 });
  const env = cleanEnv({
    HOME: home,
    XDG_RUNTIME_DIR: run,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_STATE_HOME: path.join(home, '.state'),
    XDG_DATA_HOME: path.join(home, '.data'),
  });
  const socket = path.join(run, 'pane', 'default.sock');
  // With state: its journal and snapshots under $XDG_STATE_HOME/pane, as the daemon `npm start` starts keeps them.
  // `wrap`: what runs it (e.g. `ip netns exec NS`: a daemon on a network of the test's own).
  const argv = [...(o.wrap ?? []), BIN, 'serve', ...(o.state ? ['--state', path.join(home, '.state', 'pane')] : [])];
  const proc = spawn(argv[0]!, argv.slice(1), { env, cwd: home, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  await until(`the ${label} daemon (${log})`, () => fs.existsSync(socket) || proc.exitCode !== null);
  if (proc.exitCode !== null) throw new Error(`the ${label} daemon exited: ${log}`);
  const pane = (args: string[], input = ''): Run => {
    const r = spawnSync(BIN, args, { env, input, encoding: 'utf8', timeout: 30_000, cwd: home });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return {
    home,
    env,
    socket,
    proc,
    pane,
    get log() {
      return log;
    },
    async stop() {
      await stopProc(proc);
      fs.rmSync(home, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
    },
  };
}

/**
 * A bin dir whose `pane` runs the built dist/pane.mjs as `d`'s user (its HOME and XDG
 * dirs): what a remote machine's PATH would hold.
 */
export function binDirFor(d: Daemon): string {
  return paneWrapperDir(path.join(d.home, 'bin'), d.env, BIN);
}

/** Polls `f` until it returns true (bounded). */
export async function eventually(what: string, f: () => boolean, ms = 20_000): Promise<void> {
  await until(what, f, ms);
}

/** A remote daemon behind a real sshd, and a local daemon that has joined it over ssh as host `name`. */
export interface SshJoined {
  remote: Daemon;
  local: Daemon;
  sshd: Sshd;
  /** Leaves the host, then stops the local daemon, sshd and the remote daemon. */
  stop(): Promise<void>;
}

export async function joinedOverSsh(labels: { remote: string; local: string }, name = 'box'): Promise<SshJoined> {
  const remote = await startDaemon(labels.remote);
  const sshd = await startSshd(binDirFor(remote));
  const local = await startDaemon(labels.local);
  const add = local.pane(['host', 'add', name, `ssh://root@127.0.0.1:${sshd.port}`, '--ssh-config', sshd.clientConfig]);
  if (add.status !== 0) throw new Error(`pane host add ${name} exited ${add.status}: ${add.stderr}`);
  const c = local.pane(['host', 'connect', name]);
  if (c.status !== 0) throw new Error(`pane host connect ${name} exited ${c.status}: ${c.stderr}\nsshd: ${sshd.log().slice(-1500)}`);
  return {
    remote,
    local,
    sshd,
    async stop() {
      local.pane(['host', 'disconnect', name]);
      await local.stop();
      await sshd.stop();
      await remote.stop();
    },
  };
}
