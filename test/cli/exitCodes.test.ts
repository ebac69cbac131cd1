// The CLI's exit codes through the real bundle: 1 with the server's one-line
// message, 2 with the problem and the usage, 3 when no server answers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, serve, servePerFile, until } from './harness';
import { NO_SERVER_HINT } from '../../kits/node/cli/errors';

const srv = servePerFile();

describe('exit 1: the operation failed', () => {
  it('names a pane that does not exist', () => {
    const r = srv.pane(['close', '-t', '42']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('pane: pane 42 not found\n');
  });

  it('names a program that is not there once', () => {
    const r = srv.pane(['new', '--session', 'x0', '--', 'no-such-program-pane']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('pane: cannot start no-such-program-pane: not found in PATH\n');
  });

  it('names a session that does not exist', () => {
    const r = srv.pane(['session', 'kill', 'nosuch']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('pane: session nosuch not found\n');
  });

  it('names a pane on a host that is not joined', () => {
    const r = srv.pane(['send', '-t', 'elsewhere:1', 'hi']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^pane: pane elsewhere:1 not found: host elsewhere is not joined/);
  });

  it('passes on the server’s reason when an operation cannot be done', () => {
    const n = srv.pane(['new', '--session', 'x1', '--', 'sleep', '600']).stdout.trim();
    const r = srv.pane(['focus', '-t', n, '-d', 'left']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`pane: no pane left of pane ${n}\n`);
  });

  it('prints nothing on stdout when it fails', () => {
    expect(srv.pane(['ls', '--session', 'nosuch']).stdout).toBe('');
  });
});

describe('exit 2: usage error', () => {
  it('names an unknown flag and shows the usage', () => {
    const r = srv.pane(['split', '--bogus']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^pane split: unknown flag --bogus\nusage: pane split /);
  });

  it('names a bad number', () => {
    const r = srv.pane(['resize', '-t', '1', '-d', 'left', '-n', 'lots']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^pane resize: -n: 'lots' is not a whole number/);
  });

  it('names an unknown command', () => {
    const r = srv.pane(['frobnicate']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^pane: unknown command 'frobnicate'/);
  });

  it('reports a value the server refuses as a usage error naming the field', () => {
    const r = srv.pane(['split', '-t', '1', '--sig', 'Not A Signature']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^pane split: invalid params for pane\/split: signature: .*reverse-DNS/);
    expect(r.stderr).toMatch(/\nusage: pane split /);
  });
});

describe('exit 3: no server', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-cli-none-'));
  const none = path.join(dir, 'none.sock');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('says where it looked and how to start one (--socket)', () => {
    const r = spawnSync(BIN, ['ls', '--socket', none], { env: cleanEnv(), encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stderr).toBe(`pane: no pane server at ${none}; ${NO_SERVER_HINT}\n`);
  });

  it('looks at $PANE_SOCKET when there is no --socket', () => {
    const r = spawnSync(BIN, ['info'], { env: cleanEnv({ PANE_SOCKET: none }), encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stderr).toContain(`no pane server at ${none}`);
  });

  it('looks at the per-user default path last', () => {
    const runtime = fs.mkdtempSync(path.join(dir, 'xdg-'));
    const r = spawnSync(BIN, ['ls'], { env: cleanEnv({ XDG_RUNTIME_DIR: runtime }), encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stderr).toContain(`no pane server at ${path.join(runtime, 'pane', 'default.sock')}`);
  });

  it('exits 3 when the server goes away: a stale socket file', async () => {
    const other = await serve();
    const sock = other.socket;
    // Keep the socket file while the server dies (Node would unlink it on a clean stop).
    fs.renameSync(sock, sock + '.kept');
    other.proc.kill('SIGKILL');
    await new Promise((r) => other.proc.once('exit', r));
    fs.renameSync(sock + '.kept', sock);
    const r = spawnSync(BIN, ['ls', '--socket', sock], { env: cleanEnv(), encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/no pane server at .*\(a stale socket file; nothing listens on it\)/);
    await other.stop();
  });
});

describe('exit 0 after a big output', () => {
  it('ends only once all it printed has gone, to a socket stdout its reader drains late', async () => {
    // A parent's spawn with 'pipe' stdio hands the child a socketpair, which Node writes to
    // asynchronously once its buffer is full: a CLI that exited when the command settled cut
    // `pane ls --json` of 1000 remote panes off at ~430 KB (CI at the commit that made it exit so).
    const lines = 6000;
    const n = srv.pane(['new', '--session', 'big', '--', 'sh', '-c', `i=0; while [ $i -lt ${lines} ]; do printf '%05d %060d\\n' $i 0; i=$((i+1)); done; exec sleep 600`]).stdout.trim();
    await until('the pane printed every line', () => srv.pane(['screen', '-t', n]).stdout.includes(String(lines - 1).padStart(5, '0')));
    const child = srv.spawnPane(['screen', '-t', n]);
    child.stdout!.pause();
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const closed = new Promise((r) => child.stdout!.once('close', r));
    // The reader takes nothing for a while: the CLI has written what its socket buffer holds and queued the rest.
    await new Promise((r) => setTimeout(r, 500));
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (c: string) => (out += c));
    child.stdout!.resume();
    expect(await exited).toBe(0);
    await closed;
    const got = out.split('\n').filter((l) => /^\d{5} /.test(l));
    expect(got.length).toBeGreaterThanOrEqual(5000);
    expect(got.at(-1)).toMatch(new RegExp(`^${String(lines - 1).padStart(5, '0')} `));
    expect(out.length).toBeGreaterThan(5000 * 60);
  }, 60_000);
});
