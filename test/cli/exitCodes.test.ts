// The CLI's exit codes through the real bundle: 1 with the server's one-line
// message, 2 with the problem and the usage, 3 when no server answers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, serve, servePerFile } from './harness';
import { NO_SERVER_HINT } from '../../kits/node/cli/errors';

const srv = servePerFile();

describe('exit 1: the operation failed', () => {
  it('names a pane that does not exist', () => {
    const r = srv.pane(['close', '-t', '42']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('pane: pane 42 not found\n');
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
