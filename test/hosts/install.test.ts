// `pane host install NAME` through a real sshd (issue 26): the remote is a fresh HOME
// on this machine whose ssh sessions have no pane on PATH; install packs the running
// pane (npm pack), sends it over ssh and the remote's npm installs it under ~/.local
// (no root); then `pane --version` answers there, on the PATH the session has.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, buildOnce, collect } from '../cli/harness';
import { startDaemon, startSshd, type Daemon, type Sshd } from './remote';

let local: Daemon;
let sshd: Sshd;
let home: string;

beforeAll(async () => {
  buildOnce();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-install-home-'));
  sshd = await startSshd('/nonexistent');
  // The remote user's sessions: this fresh HOME, ~/.local/bin on PATH (as a profile puts it), no pane anywhere on it.
  // npm reads the machine's existing cache first (no network needed for what it holds).
  const keys = path.join(sshd.dir, 'authorized_keys');
  const env = [`HOME=${home}`, `PATH=${home}/.local/bin:/usr/local/bin:/usr/bin:/bin`, 'npm_config_cache=/root/.npm', 'npm_config_prefer_offline=true'].map((e) => `environment="${e}"`).join(',');
  fs.writeFileSync(keys, fs.readFileSync(keys, 'utf8').replace(/^environment="[^"]*"/, env), { mode: 0o600 });
  local = await startDaemon('ins');
}, 120_000);

afterAll(async () => {
  await local?.stop();
  await sshd?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

function remote(cmd: string) {
  return spawnSync('ssh', ['-F', sshd.clientConfig, '-p', String(sshd.port), '-o', 'BatchMode=yes', 'root@127.0.0.1', cmd], { encoding: 'utf8', timeout: 30_000 });
}

describe('pane host install', () => {
  it('puts pane in the remote HOME with its npm, no root, and pane --version answers there', async () => {
    const before = remote('command -v pane || echo NO-PANE');
    expect(before.stdout.trim(), before.stderr).toBe('NO-PANE');
    const add = local.pane(['host', 'add', 'box', `ssh://root@127.0.0.1:${sshd.port}`, '--ssh-config', sshd.clientConfig]);
    expect(add.status, add.stderr).toBe(0);
    // Run without blocking this process: sshd's log (-e, VERBOSE) and the daemon's go to pipes this process reads,
    // and a spawnSync here stopped that reading; once sshd's pipe was full, sshd blocked writing its log and the
    // install waited on it until the timeout (seen as the install's "registry stall": 280 s, no output at all).
    const child = spawn(process.execPath, [BIN, 'host', 'install', 'box'], { env: local.env, cwd: local.home, stdio: ['ignore', 'pipe', 'pipe'] });
    const run = collect(child);
    const timer = setTimeout(() => child.kill('SIGTERM'), 280_000);
    const status = await run.exit.finally(() => clearTimeout(timer));
    const r = { status, stdout: run.out(), stderr: run.err() };
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const version = (JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;
    const v = version.replace(/\./g, '\\.');
    expect(r.stdout).toMatch(new RegExp(`^box: installed pane ${v} \\(protocol \\d+\\) in ~/\\.local \\(from pane-${v}\\.tgz`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^box: pane --version answers pane ${v}`, 'm'));
    // Installed in the remote's HOME, found on its PATH.
    expect(fs.existsSync(path.join(home, '.local', 'bin', 'pane'))).toBe(true);
    const after = remote('command -v pane && pane --version');
    expect(after.status, after.stderr).toBe(0);
    expect(after.stdout).toContain(`${home}/.local/bin/pane`);
    expect(after.stdout).toContain(version);
  }, 300_000);
});
