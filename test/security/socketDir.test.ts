// Attack class: another local user prepares the socket directory. Without
// XDG_RUNTIME_DIR the default socket lives in the shared temp dir, where anyone
// can create /tmp/pane-UID first (and then own our socket, or plant theirs). pane
// must refuse a directory that is not its user's and 0700, saying why and how to
// fix it — in `pane serve` and in every client. At 77a17e2 both used it silently.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, root } from '../e2e/shell';

const PANE = path.join(root, 'dist/pane.mjs');
const uid = process.getuid!();
let tmp: string;
let runDir: string;

function env(): NodeJS.ProcessEnv {
  // No XDG_RUNTIME_DIR: the default socket goes to $TMPDIR/pane-UID.
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, LANG: 'C.UTF-8', SHELL: '/bin/sh', TMPDIR: tmp, XDG_CONFIG_HOME: path.join(tmp, 'config'), XDG_DATA_HOME: path.join(tmp, 'data') };
}

/** `pane serve` with the default socket: its exit code and what it said (or 'running' once it listens). */
function serve(): Promise<{ code: number | 'running'; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [PANE, 'serve', '--empty'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let listening = false;
    const on = (b: Buffer) => {
      out += b.toString();
      if (!listening && /listening on/.test(out)) {
        listening = true;
        p.kill('SIGTERM');
      }
    };
    p.stdout.on('data', on);
    p.stderr.on('data', on);
    p.once('exit', (code) => resolve({ code: listening ? 'running' : (code ?? -1), out }));
    setTimeout(() => p.kill('SIGKILL'), 20_000).unref();
  });
}

const cli = (...args: string[]) => spawnSync(process.execPath, [PANE, ...args], { env: env(), encoding: 'utf8', timeout: 15_000 });

beforeEach(() => {
  ensureBuilt();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-sockdir-'));
  runDir = path.join(tmp, `pane-${uid}`);
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the socket directory without XDG_RUNTIME_DIR', () => {
  it('is created 0700 and used when nobody was there first', async () => {
    const r = await serve();
    expect(r.code, r.out).toBe('running');
    expect(fs.statSync(runDir).mode & 0o777).toBe(0o700);
  });

  it('is refused, naming the mode and the fix, when others may use it', async () => {
    fs.mkdirSync(runDir, { mode: 0o777 });
    fs.chmodSync(runDir, 0o777);
    const r = await serve();
    expect(r.code).toBe(1);
    expect(r.out).toContain(`the socket directory ${runDir} has mode 0777; it must be 0700 (chmod 700 ${runDir})`);
    expect(fs.existsSync(path.join(runDir, 'default.sock'))).toBe(false);
    // A client will not talk to whatever listens there either.
    const c = cli('ls');
    expect(c.status).not.toBe(0);
    expect(c.stderr).toMatch(/has mode 0777/);
  });

  it.skipIf(uid !== 0)('is refused when another user owns it (needs root to stage; skipped otherwise)', async () => {
    fs.mkdirSync(runDir, { mode: 0o700 });
    fs.chownSync(runDir, 65534, 65534);
    const r = await serve();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(new RegExp(`belongs to uid 65534, not you \\(uid ${uid}\\)`));
  });

  it('is refused when a symlink stands in its place', async () => {
    const elsewhere = fs.mkdtempSync(path.join(tmp, 'elsewhere-'));
    fs.symlinkSync(elsewhere, runDir);
    const r = await serve();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/is not a directory \(a symlink or file is there\)/);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('is refused for an explicit --socket in a directory others may write to', async () => {
    const shared = path.join(tmp, 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o775);
    const r = spawnSync(process.execPath, [PANE, 'serve', '--empty', '--socket', path.join(shared, 's.sock')], { env: env(), encoding: 'utf8', timeout: 15_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/has mode 0775: others may write to it/);
  });
});
