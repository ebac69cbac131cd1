// The daemon's commands through the `pane` bin: stop says what ends and asks on a
// terminal (a real PTY), restore lists and brings back generations (also through
// /server/snapshots), service install writes the systemd user unit and says so;
// a pane opted out of history (scrollback=off) keeps none on disk.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as pty from '@lydell/node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureBuilt, root } from '../e2e/shell';
import { home, until, type Home } from './helpers';

const BIN = path.join(root, 'dist/pane.mjs');
let h: Home | undefined;
const procs: ChildProcess[] = [];
/** Programs a test's panes started that a failing stop could leave behind. */
const stray: number[] = [];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const pid of stray.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  h?.cleanup();
});

async function daemon(hm: Home) {
  const socket = path.join(hm.dir, 's.sock');
  const env = { ...hm.env, SHELL: '/bin/sh', PANE_SOCKET: socket, XDG_CONFIG_HOME: path.join(hm.dir, 'config'), XDG_DATA_HOME: path.join(hm.dir, 'data') };
  const proc = spawn(process.execPath, [BIN, 'serve', '--host', 'testhost', '--state', hm.stateDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  procs.push(proc);
  let out = '';
  proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  await until('the server to listen', () => /listening/.test(out), 30_000);
  const pane = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: 15_000 });
  return { proc, env, pane };
}

describe('the daemon’s commands', () => {
  it('pane stop says what will end and asks on a terminal: n keeps it running, y stops it', async () => {
    ensureBuilt();
    h = home();
    const d = await daemon(h);
    d.pane('split', '--', 'sleep', '300');
    const ask = (answer: string) =>
      new Promise<string>((resolve) => {
        const t = pty.spawn(process.execPath, [BIN, 'stop'], { env: d.env as Record<string, string>, cols: 120, rows: 10 });
        let out = '';
        let answered = false;
        t.onData((s) => {
          out += s;
          if (!answered && /\[y\/N\] /.test(out)) {
            answered = true;
            t.write(`${answer}\r`);
          }
        });
        t.onExit(({ exitCode }) => resolve(`${out}\nexit ${exitCode}`));
      });
    const no = await ask('n');
    expect(no).toMatch(/Stop the pane daemon\? 2 panes and 2 running programs will end\. \[y\/N\]/);
    expect(no).toMatch(/not stopped[\s\S]*exit 1/);
    expect(d.pane('ls').status).toBe(0);
    const yes = await ask('y');
    expect(yes).toMatch(/stopped the pane daemon: 2 panes and 2 running programs ended[\s\S]*exit 0/);
    await until('the daemon to end', () => d.proc.exitCode !== null);
  }, 60_000);

  it('pane stop returns once every program ended: one that ignores SIGHUP is killed, one that takes its time over its exit finishes', async () => {
    ensureBuilt();
    h = home();
    const d = await daemon(h);
    const pidFile = path.join(h.dir, 'stubborn.pid');
    const cleaned = path.join(h.dir, 'slow.cleaned');
    const up = path.join(h.dir, 'slow.up');
    const stubborn = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); process.on('SIGHUP', () => {}); setInterval(() => {}, 1000);`;
    const slow = `const fs = require('fs'); process.on('SIGHUP', () => setTimeout(() => { fs.writeFileSync(${JSON.stringify(cleaned)}, 'cleaned'); process.exit(0); }, 700)); fs.writeFileSync(${JSON.stringify(up)}, ''); setInterval(() => {}, 1000);`;
    expect(d.pane('split', '--', process.execPath, '-e', stubborn).status).toBe(0);
    expect(d.pane('split', '--', process.execPath, '-e', slow).status).toBe(0);
    await until('both programs to start', () => fs.existsSync(pidFile) && fs.existsSync(up));
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    stray.push(pid);
    const t0 = Date.now();
    const stop = spawn(process.execPath, [BIN, 'stop', '--yes'], { env: d.env, stdio: ['ignore', 'pipe', 'pipe'] });
    procs.push(stop);
    let out = '';
    let err = '';
    stop.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    stop.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    const exited = new Promise<number | null>((resolve) => stop.once('exit', resolve));
    // While the programs end, the daemon takes no new client: nothing can start a pane on a server that is going.
    await until('the stop to begin', () => !fs.existsSync(d.env.PANE_SOCKET));
    const late = d.pane('ls');
    expect(late.status).not.toBe(0);
    expect(alive(pid)).toBe(true);
    expect(await exited).toBe(0);
    expect(err).toBe('');
    expect(out).toMatch(/stopped the pane daemon: 3 panes and 3 running programs ended/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_900); // the stubborn one had its KILL_GRACE_MS
    expect(fs.readFileSync(cleaned, 'utf8')).toBe('cleaned');
    expect(alive(pid)).toBe(false);
    await until('the daemon to end', () => d.proc.exitCode !== null);
  }, 60_000);

  it('restore lists generations and brings one back beside the current sessions; the namespace does the same', async () => {
    ensureBuilt();
    h = home();
    const d = await daemon(h);
    d.pane('attr', '-t', '1', 'scrollback=off');
    expect(d.pane('split', '--', 'sh', '-c', 'echo kept-history; exec sleep 300').status).toBe(0);
    await until('the history line', () => /kept-history/.test(d.pane('screen', '-t', '2').stdout));
    expect(d.pane('write', '/server/snapshots', 'save').status).toBe(0);
    const list = d.pane('restore', '--list');
    expect(list.stdout).toMatch(/^GEN\s+SAVED\s+SESSIONS\s+PANES\s+SIZE\n\d+\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+1\s+2\s+[\d.]+ KiB\n/);
    const [, gen, saved] = /^(\d+)\s+(\S+ \S+)\s/m.exec(list.stdout.split('\n')[1]!)! as unknown as [string, string, string];
    expect(d.pane('cat', '/server/snapshots').stdout).toMatch(new RegExp(`^${gen} \\d{4}-\\d\\d-\\d\\dT.* sessions 1 panes 2 bytes \\d+$`, 'm'));
    // Only the pane that did not opt out has history on disk: the generation's own file, or, when a
    // history flush ran after the line and nothing was printed since, the flush's file it names again.
    const owners = fs
      .readdirSync(path.join(h.stateDir, 'scrollback'))
      .map((f) => /^[gl]\d+-(.+?)(?:-[ab])?\.gz$/.exec(f)?.[1])
      .filter((u): u is string => u !== undefined);
    const kept = (JSON.parse(d.pane('ls', '--json').stdout) as { n: number; uuid: string }[]).find((p) => p.n === 2)!.uuid;
    expect(owners.length).toBeGreaterThan(0);
    expect(new Set(owners)).toEqual(new Set([kept]));
    const r = d.pane('restore', '--at', gen);
    expect([r.status, r.stdout]).toEqual([0, `brought back generation ${gen}: main-2\n`]);
    // The time the list shows is one --at takes back, to that generation.
    expect(d.pane('restore', '--at', saved).stdout).toBe(`brought back generation ${gen}: main-3\n`);
    expect(d.pane('session', 'ls').stdout).toMatch(/^main\s+2\s/m);
    expect(d.pane('session', 'ls').stdout).toMatch(/^main-2\s+2\s/m);
    const bad = d.pane('restore', '--at', '999');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/no generation 999 is kept; (kept: \d+ \(saved \d{4}-\d\d-\d\d \d\d:\d\d\) to \d+ \(\d{4}-\d\d-\d\d \d\d:\d\d\)|the one kept is \d+, saved \d{4}-\d\d-\d\d \d\d:\d\d); see pane restore --list/);
    // A time before the oldest: said as the list says times (it read "no a generation saved at or before 2026-12-06T17:00:59.999Z").
    const early = d.pane('restore', '--at', '00:00');
    expect(early.stderr).toMatch(/^pane: no generation saved at or before \d{4}-\d\d-\d\d 00:00 is kept; /);
    expect(d.pane('write', '/server/snapshots', 'rewind').stderr).toMatch(/snapshots takes "save" or "restore GEN\|TIME"/);
  }, 60_000);

  it('service install writes the systemd user unit and says what it wrote; --print only shows it', () => {
    ensureBuilt();
    h = home();
    const env = { ...h.env, XDG_CONFIG_HOME: path.join(h.dir, 'config') };
    const printed = spawnSync(process.execPath, [BIN, 'service', 'install', '--print'], { env, encoding: 'utf8' });
    expect(printed.status).toBe(0);
    expect(printed.stdout).toMatch(new RegExp(`^ExecStart="${process.execPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" "\\S+/dist/start\\.mjs" --daemon$`, 'm'));
    expect(printed.stdout).toMatch(/^Environment="MALLOC_ARENA_MAX=2" .*"PANE_DAEMON_ADDED_ENV=MALLOC_ARENA_MAX,/m);
    expect(printed.stdout).toMatch(/^WantedBy=default\.target$/m);
    const file = path.join(h.dir, 'config', 'systemd', 'user', 'pane.service');
    expect(fs.existsSync(file)).toBe(false);
    const wrote = spawnSync(process.execPath, [BIN, 'service', 'install'], { env, encoding: 'utf8' });
    expect(wrote.status).toBe(0);
    expect(wrote.stdout).toContain(`wrote ${file}:`);
    expect(wrote.stdout).toMatch(/systemctl --user enable --now pane/);
    expect(fs.readFileSync(file, 'utf8')).toBe(printed.stdout);
  });
});
