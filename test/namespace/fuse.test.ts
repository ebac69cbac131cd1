// The namespace mounted with FUSE and driven by coreutils: cat, echo >, ls,
// tail -f, grep -r, and a bash script intercepting event. Skipped, saying why,
// only where FUSE cannot work (no /dev/fuse, no libfuse2 / fuse-native).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFuse } from '../../kits/node/fuse/mounts';
import { buildOnce, collect, serve, until, type Served } from '../cli/harness';

const fuse = loadFuse();
const why = typeof fuse === 'string' ? fuse : '';

let s: Served;
let mnt: string;
let shell: number;
/** The mount's log, as `pane mount` names it. */
let log: string;

const sh = (script: string) => spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 20_000, cwd: mnt });

describe.skipIf(why !== '')(`pane mount through FUSE${why ? ` (skipped: ${why})` : ''}`, () => {
  beforeAll(async () => {
    buildOnce();
    s = await serve();
    mnt = path.join(s.dir, 'mnt');
    const r = s.pane(['mount', mnt]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^mounted /);
    log = /^why an operation was refused: (.+)$/m.exec(r.stdout)![1]!;
    shell = Number(fs.readFileSync(path.join(mnt, 'index'), 'utf8').split(' ')[0]);
  }, 120_000);
  afterAll(async () => {
    if (s) {
      s.pane(['umount', mnt]);
      await s.stop();
    }
  });

  it('ls shows the tree; cat reads index and ctl', () => {
    expect(sh('ls').stdout.split('\n')).toEqual(expect.arrayContaining(['index', 'log', 'new', 'server', 'by-sig', String(shell)]));
    expect(sh(`cat ${shell}/ctl`).stdout).toMatch(new RegExp(`^${shell} main com\\.pane\\.terminal running `));
    expect(sh('ls by-sig/').stdout.trim()).toBe('com.pane.terminal');
  });

  it('echo > ctl drives the pane; a bad command fails the write with EINVAL', () => {
    expect(sh(`echo 'name fused' > ${shell}/ctl`).status).toBe(0);
    expect(sh(`cat ${shell}/tag`).stdout).toMatch(/^fused /);
    const bad = sh(`echo frobnicate > ${shell}/ctl`);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('Invalid argument');
    // Why, in the server's words, is in the log `pane mount` named; a path probed and not there is not logged.
    sh('ls 999 2>/dev/null; cat 998/body 2>/dev/null');
    const said = fs.readFileSync(log, 'utf8');
    expect(said).toMatch(new RegExp(`^\\S+ write "/${shell}/ctl" refused: .*frobnicate`, 'm'));
    expect(said).not.toMatch(/"\/999"/);
  });

  it('maps a gone pane to ENOENT and a read-only file to EACCES, never EIO', () => {
    expect(sh('cat 999/body').stderr).toContain('No such file or directory');
    expect(sh(`echo x > ${shell}/commands`).stderr).toContain('Permission denied');
    expect(sh(`cat ${shell}/input`).stderr).toContain('Permission denied');
  });

  it('cat of body gives the terminal text; echo > input types into it', async () => {
    expect(sh(`echo 'echo typed-""through-fuse' > ${shell}/input`).status).toBe(0);
    await until('the typed line in the body', () => sh(`cat ${shell}/body`).stdout.includes('\ntyped-through-fuse\n') || undefined);
  });

  it('tail -f follows the log as it grows', async () => {
    const child = spawn('tail', ['-f', '-n', '0', path.join(mnt, 'log')], { stdio: ['ignore', 'pipe', 'pipe'] });
    const t = collect(child);
    try {
      await new Promise((r) => setTimeout(r, 1200));
      sh(`echo 'name followed' > ${shell}/ctl`);
      await until('tail -f to print the exec line', () => t.out().includes(`${shell} exec ctl `) || undefined, 15_000);
      expect(t.out()).toContain(`${shell} tag followed `);
    } finally {
      child.kill();
    }
  });

  it('grep -r searches the whole tree and finishes', () => {
    sh(`echo 'name needle-name' > ${shell}/ctl`);
    const r = sh('grep -rs needle-name . ; true');
    expect(r.stdout).toContain(`./${shell}/tag:needle-name `);
    expect(r.stdout).toContain(`./by-session/main/${shell}/tag:needle-name `);
    expect(r.stdout).toContain('./index:');
    // Every write-only input it opened was refused "Permission denied", which says it all: the log is not filled with them.
    expect(fs.readFileSync(log, 'utf8')).not.toMatch(/input" refused/);
  });

  it('a bash script holding event read-write intercepts: handles one command, passes another back', async () => {
    const script = `exec 3<>${shell}/event
while read -r seq kind origin by word rest <&3; do
  [ "$kind" = offered ] || continue
  if [ "$word" = deploy ]; then echo "deployed $rest" > ${path.join(s.dir, 'handled')}; else echo "$seq" >&3; fi
done`;
    const app = spawn('bash', ['-c', script], { cwd: mnt, stdio: 'ignore' });
    try {
      // "deploy" is no word of the vocabulary: refused until the script intercepts, then offered to it.
      await until('the interceptor to take the pane', () => s.pane(['write', `/${shell}/ctl`, 'deploy', 'prod']).status === 0 || undefined);
      await until('the script to handle deploy', () => fs.existsSync(path.join(s.dir, 'handled')) || undefined);
      expect(fs.readFileSync(path.join(s.dir, 'handled'), 'utf8')).toBe('deployed prod\n');
      s.pane(['write', `/${shell}/ctl`, 'name', 'passed-back']);
      await until('the passed-back name', () => s.pane(['cat', `/${shell}/tag`]).stdout.startsWith('passed-back ') || undefined);
      expect(s.pane(['cat', `/${shell}/event`]).stdout).toMatch(/ executed ctl \S+ name passed-back\n/);
    } finally {
      app.kill('SIGKILL');
    }
  });

  it('a mount left by a killed mount process is cleaned up by the next mount', async () => {
    expect(s.pane(['umount', mnt]).status).toBe(0);
    const fg = spawn(path.join(__dirname, '../../dist/pane.mjs'), ['--socket', s.socket, 'mount', '--foreground', mnt], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = collect(fg);
    await until('the foreground mount', () => out.out().includes('ready ') || undefined);
    fg.kill('SIGKILL');
    await out.exit;
    expect(spawnSync('ls', [mnt], { encoding: 'utf8' }).stderr).toContain('not connected');
    const again = s.pane(['mount', mnt]);
    expect(again.status).toBe(0);
    expect(fs.readdirSync(mnt)).toContain('index');
  });
});
