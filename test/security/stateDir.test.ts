// Attack class: pane's own state files as the weak point. The state directory's
// journal starts programs as the person when replayed, so it must be the person's
// own 0700 directory, not a link; inside it nothing is followed through a link,
// nothing blocks on a FIFO, and a file another user wrote is never replayed. At
// f0f52cf none of this was checked: a journal chowned to nobody was replayed and
// started its program, links at daemon.pid and scrollback/ were followed, and a
// FIFO named like a snapshot kept the daemon from starting. Real `pane serve`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, root } from '../e2e/shell';
import { makeStateDir, NOBODY, pane, session, writeJournal, writeSnap, state } from './stateFixtures';
import { STATE_VERSION, type StateFile } from '../../kits/protocol/snapshot';

const PANE = path.join(root, 'dist/pane.mjs');
const uid = process.getuid!();
let tmp: string;
const procs: ChildProcess[] = [];

function env(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, LANG: 'C.UTF-8', SHELL: '/bin/sh', TMPDIR: tmp, XDG_CONFIG_HOME: path.join(tmp, 'config'), XDG_DATA_HOME: path.join(tmp, 'data'), PANE_SOCKET: path.join(tmp, 's.sock') };
}

/** `pane serve --state DIR`: its exit code and what it said, or 'running' once it listens (left running until `stop`). */
function serve(stateDir: string): Promise<{ code: number | 'running'; out: () => string; stop: () => Promise<void> }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [PANE, 'serve', '--socket', path.join(tmp, 's.sock'), '--host', 'testhost', '--state', stateDir], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    procs.push(p);
    let out = '';
    let done = false;
    const stop = () => new Promise<void>((r) => (p.exitCode !== null || p.signalCode !== null ? r() : (p.once('exit', () => r()), p.kill('SIGTERM'))));
    const on = (b: Buffer) => {
      out += b.toString();
      if (!done && /listening on/.test(out)) {
        done = true;
        resolve({ code: 'running', out: () => out, stop });
      }
    };
    p.stdout!.on('data', on);
    p.stderr!.on('data', on);
    p.once('exit', (code) => {
      if (!done) resolve({ code: code ?? -1, out: () => out, stop });
      done = true;
    });
    setTimeout(() => p.kill('SIGKILL'), 30_000).unref();
  });
}

const cli = (...args: string[]) => spawnSync(process.execPath, [PANE, ...args], { env: env(), encoding: 'utf8', timeout: 15_000 });

beforeEach(() => {
  ensureBuilt();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-statedir-'));
  fs.chmodSync(tmp, 0o755); // nobody must be able to reach the files staged for it
});
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

describe('the state directory', () => {
  it('is refused, naming the mode and the fix, when others may read or write it', async () => {
    const d = makeStateDir(tmp);
    fs.chmodSync(d, 0o755);
    const r = await serve(d);
    expect(r.code).toBe(1);
    expect(r.out()).toContain(`the state directory ${d} has mode 0755, must be 0700`);
    expect(r.out()).toContain(`fix: chmod 700 ${d}`);
    expect(fs.existsSync(path.join(tmp, 's.sock'))).toBe(false);
  });

  it.skipIf(uid !== 0)('is refused when another user owns it, naming the owner and the fix (needs root to stage)', async () => {
    const d = makeStateDir(tmp);
    fs.chownSync(d, NOBODY, NOBODY);
    const r = await serve(d);
    expect(r.code).toBe(1);
    expect(r.out()).toContain(`the state directory ${d} is owned by uid ${NOBODY}, not you (${uid})`);
    expect(r.out()).toContain(`fix: chown -R ${uid} ${d}`);
  });

  it('is refused when a symlink stands in its place, and nothing is written through it', async () => {
    const elsewhere = makeStateDir(tmp, 'elsewhere');
    const d = path.join(tmp, 'state');
    fs.symlinkSync(elsewhere, d);
    const r = await serve(d);
    expect(r.code).toBe(1);
    expect(r.out()).toContain(`the state directory ${d} is a symlink`);
    expect(r.out()).toMatch(/fix: replace it with a directory of yours/);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('is refused by the daemon itself ($XDG_STATE_HOME/pane, `pane start --daemon`)', () => {
    const base = path.join(tmp, 'xdgstate');
    fs.mkdirSync(path.join(base, 'pane'), { recursive: true });
    fs.chmodSync(path.join(base, 'pane'), 0o777);
    const r = spawnSync(process.execPath, [PANE, 'start', '--daemon', '--socket', path.join(tmp, 'd.sock')], { env: { ...env(), XDG_STATE_HOME: base }, encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`pane daemon: cannot start: the state directory ${path.join(base, 'pane')} has mode 0777, must be 0700 (others may write the state pane replays). fix: chmod 700 ${path.join(base, 'pane')}`);
    expect(fs.existsSync(path.join(tmp, 'd.sock'))).toBe(false);
  });
});

describe('inside the state directory', () => {
  it.skipIf(uid !== 0)('never replays a journal another user wrote (it would start its program as the person)', async () => {
    // The payload: a pane whose program is named vim (restarted at once on resurrection) and leaves a mark.
    const mark = path.join(tmp, 'ran-as-the-person');
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'vim'), `#!/bin/sh\ntouch ${mark}\nexec sleep 60\n`, { mode: 0o755 });
    const planted = (): StateFile => {
      const s = session('planted', [1]);
      return { version: STATE_VERSION, savedAt: Date.now(), host: 'testhost', sessions: [s], panes: [pane(1, s.id, { cwd: tmp, launch: { program: path.join(bin, 'vim'), args: [] } })], extra: {} };
    };
    // Control: the same journal, the person's own, does start it (so the payload is real).
    const own = makeStateDir(tmp, 'own');
    writeJournal(own, 1, planted());
    let r = await serve(own);
    expect(r.code, r.out()).toBe('running');
    await until(() => fs.existsSync(mark), 'the control payload to run');
    await r.stop();
    fs.rmSync(mark);
    // The attack: written by nobody.
    const d = makeStateDir(tmp, 'state');
    const j = writeJournal(d, 1, planted());
    fs.chownSync(j, NOBODY, NOBODY);
    r = await serve(d);
    expect(r.code, r.out()).toBe('running');
    expect(r.out()).toMatch(new RegExp(`journal-000001\\.jsonl is owned by uid ${NOBODY}, not you \\(${uid}\\); another user's state is never replayed; set aside as set-aside/journal-000001\\.jsonl\\.`));
    expect(cli('ls').status).toBe(0);
    await new Promise((res) => setTimeout(res, 1500));
    expect(fs.existsSync(mark)).toBe(false);
    // The refusal is in /pane/log too.
    const log = cli('cat', '/log');
    expect(log.stdout).toMatch(/refused state directory: .*journal-000001\.jsonl is owned by uid 65534/);
    await r.stop();
  });

  it('follows no link (daemon.pid, scrollback/, a snapshot) and waits on no FIFO, setting each aside and serving', async () => {
    const d = makeStateDir(tmp);
    const victim = path.join(tmp, 'victim');
    fs.writeFileSync(victim, 'the person’s file\n');
    const outside = makeStateDir(tmp, 'outside');
    writeSnap(d, 1, state('good', 2));
    fs.symlinkSync(victim, path.join(d, 'daemon.pid'));
    fs.symlinkSync(outside, path.join(d, 'scrollback'));
    fs.symlinkSync(victim, path.join(d, 'snap-000002.json'));
    spawnSync('mkfifo', [path.join(d, 'snap-000003.json')]);
    fs.mkdirSync(path.join(d, '.snap-000004.json.1.1.tmp'));
    const r = await serve(d);
    expect(r.code, r.out()).toBe('running');
    const out = r.out();
    expect(out).toMatch(/daemon\.pid is a symbolic link, not a regular file; set aside as set-aside\/daemon\.pid\./);
    expect(out).toMatch(/scrollback is a symbolic link, not a directory; set aside/);
    expect(out).toMatch(/snap-000002\.json is a symbolic link, not a regular file; set aside/);
    expect(out).toMatch(/snap-000003\.json is a FIFO, not a regular file; set aside/);
    expect(out).toMatch(/\.snap-000004\.json\.1\.1\.tmp is a directory named like a temp file; set aside/);
    const ls = cli('ls');
    expect(ls.status, ls.stderr).toBe(0);
    expect(ls.stdout).toMatch(/good/); // the good generation came back
    const saved = cli('restore', '--list');
    expect(saved.status, saved.stderr).toBe(0);
    await r.stop();
    expect(fs.readFileSync(victim, 'utf8')).toBe('the person’s file\n');
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.lstatSync(path.join(d, 'scrollback')).isDirectory()).toBe(true);
    expect(fs.readFileSync(path.join(d, 'daemon.pid'), 'utf8')).toMatch(/^\d+\n$/);
  });
});

async function until(f: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
