// A second machine's panes in the namespace and the FUSE mount (issue 26, decision
// 037): a remote daemon behind a real OpenSSH sshd, joined by the local daemon;
// `pane cat /box:N/body` and the local daemon's `pane mount` show box:N beside the
// local panes with the remote's own files (ls, cat), and a readOnly host refuses an
// `echo >` with EACCES. FUSE parts skipped, saying why, only where FUSE cannot work.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFuse } from '../../kits/node/fuse/mounts';
import { buildOnce } from '../cli/harness';
import { binDirFor, eventually, startDaemon, startSshd, type Daemon, type Sshd } from './remote';

const fuse = loadFuse();
const why = typeof fuse === 'string' ? fuse : '';

let remote: Daemon;
let local: Daemon;
let sshd: Sshd;
let n: string;
let mnt: string;
let mounted = false;

const sh = (script: string) => spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 20_000, cwd: mnt });

beforeAll(async () => {
  buildOnce();
  remote = await startDaemon('nsremote');
  sshd = await startSshd(binDirFor(remote));
  local = await startDaemon('nslocal');
  const r = remote.pane(['new', '--', 'sh', '-c', 'echo REMOTE-NS-$((6*7)); exec cat']);
  expect(r.status, r.stderr).toBe(0);
  n = r.stdout.trim();
  await eventually('the remote pane to print its marker', () => remote.pane(['screen', '-t', n]).stdout.includes('REMOTE-NS-42'));
  for (const [name, ro] of [['box', false], ['robox', true]] as const) {
    const add = local.pane(['host', 'add', name, `ssh://root@127.0.0.1:${sshd.port}`, '--ssh-config', sshd.clientConfig, ...(ro ? ['--read-only'] : [])]);
    expect(add.status, add.stderr).toBe(0);
    const c = local.pane(['host', 'connect', name]);
    expect(c.status, `${c.stderr}\nsshd: ${sshd.log().slice(-1500)}`).toBe(0);
  }
  mnt = path.join(local.home, 'mnt');
}, 120_000);

afterAll(async () => {
  if (mounted) local.pane(['umount', mnt]);
  for (const name of ['box', 'robox']) local?.pane(['host', 'disconnect', name]);
  await local?.stop();
  await sshd?.stop();
  await remote?.stop();
});

describe("a host's panes in the namespace through real ssh", () => {
  it('pane cat /box:N/body reads the remote pane through the local daemon', () => {
    const cat = local.pane(['cat', `/box:${n}/body`]);
    expect(cat.status, cat.stderr).toBe(0);
    expect(cat.stdout).toContain('REMOTE-NS-42');
  }, 30_000);

  it.skipIf(why !== '')(`the FUSE mount lists box:N and cats its files${why ? ` (skipped: ${why})` : ''}`, () => {
    const m = local.pane(['mount', mnt]);
    expect(m.stderr).toBe('');
    mounted = true;
    expect(sh('ls').stdout.split('\n')).toEqual(expect.arrayContaining(['index', `box:${n}`, `robox:${n}`]));
    expect(sh(`ls box:${n}`).stdout.split('\n')).toEqual(expect.arrayContaining(['body', 'ctl', 'tag', 'input']));
    const body = sh(`cat box:${n}/body`);
    expect(body.stderr).toBe('');
    expect(body.stdout).toContain('REMOTE-NS-42');
    expect(sh(`echo 'name fused-far' > box:${n}/ctl`).status).toBe(0);
    expect(sh(`cat box:${n}/tag`).stdout).toMatch(/^fused-far /);
    // A read-only host: its files show r--, and a write is EACCES, never EIO.
    expect(sh(`stat -c %A robox:${n}/ctl`).stdout.trim()).toBe('-r--r--r--');
    const ro = sh(`echo 'name nope' > robox:${n}/ctl`);
    expect(ro.status).not.toBe(0);
    expect(ro.stderr).toContain('Permission denied');
    expect(remote.pane(['ls']).stdout).not.toMatch(/nope/);
  }, 60_000);
});
