// `pane service install`'s unit as systemd reads it. systemd's own parser
// (`systemd-analyze verify --user`) must find the program the unit names when the
// paths hold what a unit file spells specially (a space, %, $, a quote, a
// backslash); and the daemon started as the unit says carries the same malloc
// settings as a daemon a window or the CLI starts (daemonEnv), and sheds them
// before any pane's program starts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceUnit } from '../../kits/node/cli/commands/durable';
import { DAEMON_ENV } from '../../kits/node/daemonEnv';
import { ensureBuilt, root } from '../e2e/shell';
import { home, until, type Home } from './helpers';

const BIN = path.join(root, 'dist/pane.mjs');
const START = path.join(root, 'dist/start.mjs');
const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
/** Every character a unit file reads specially, in one directory name; the program's own path may not hold the last two (systemd refuses them there). */
const AWKWARD = 'a b%c$HOME"d\\e';
const PROGRAM_DIR = 'a b%c$HOME';

let h: Home | undefined;
/** The daemon the last case started, ended with its home. */
let daemon: ChildProcess | undefined;
afterEach(() => {
  if (daemon && daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
  daemon = undefined;
  h?.cleanup();
  h = undefined;
});

/**
 * The words of a unit file's value as systemd reads them (systemd.syntax(7)):
 * specifiers, quotes and escapes; in a command line's arguments (not its program), `$$`.
 */
function unitWords(value: string, exec: boolean): string[] {
  return [...value.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m, i) => {
    const w = (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!).replace(/%%/g, '%');
    return exec && i > 0 ? w.replace(/\$\$/g, '$') : w;
  });
}

function line(unit: string, key: string): string {
  const l = unit.split('\n').find((x) => x.startsWith(`${key}=`));
  if (!l) throw new Error(`no ${key}= in the unit:\n${unit}`);
  return l.slice(key.length + 1);
}

describe.skipIf(!analyze)('the systemd unit, read by systemd (systemd-analyze; Debian package systemd)', () => {
  it('names the program systemd will run when the paths hold a space, %, $, a quote and a backslash', () => {
    h = home();
    const dir = path.join(h.dir, AWKWARD);
    fs.mkdirSync(dir);
    fs.mkdirSync(path.join(h.dir, PROGRAM_DIR));
    const node = path.join(h.dir, PROGRAM_DIR, 'node');
    fs.symlinkSync(process.execPath, node);
    const run = path.join(h.dir, 'run');
    fs.mkdirSync(run, { mode: 0o700 });
    const unitDir = path.join(h.dir, 'units');
    fs.mkdirSync(unitDir);
    const file = path.join(unitDir, 'pane.service');
    fs.writeFileSync(file, serviceUnit(node, path.join(dir, 'dist', 'start.mjs'), path.join(dir, 's.sock')));
    const r = spawnSync('systemd-analyze', ['verify', '--user', file], { env: { ...h.env, XDG_RUNTIME_DIR: run }, encoding: 'utf8', timeout: 30_000 });
    // Unquoted, systemd splits the path at the space and reads %c as the unit's cgroup: "Command … is not executable".
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // And the words it will pass are the paths, whole.
    expect(unitWords(line(fs.readFileSync(file, 'utf8'), 'ExecStart'), true)).toEqual([node, path.join(dir, 'dist', 'start.mjs'), '--daemon', '--socket', path.join(dir, 's.sock')]);
  });

  it('refuses what no unit file can spell: a line break anywhere, a quote or backslash in the program', () => {
    expect(() => serviceUnit(process.execPath, '/tmp/x\n[Service]\nExecStartPre=/bin/evil/start.mjs', undefined)).toThrow(/control character/);
    expect(() => serviceUnit('/opt/no"de/bin/node', '/tmp/start.mjs', undefined)).toThrow(/a quote or a backslash, which systemd refuses/);
    expect(() => serviceUnit('/opt/no\\de/bin/node', '/tmp/start.mjs', undefined)).toThrow(/a quote or a backslash, which systemd refuses/);
  });

  it('starts the daemon with the malloc settings every daemon gets, and its panes without them', async () => {
    ensureBuilt();
    h = home();
    const unit = serviceUnit(process.execPath, START, path.join(h.dir, 's.sock'));
    const env = Object.fromEntries(unitWords(line(unit, 'Environment'), false).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]));
    expect(env).toMatchObject(DAEMON_ENV);
    const [program, ...args] = unitWords(line(unit, 'ExecStart'), true);
    const base = { ...h.env, SHELL: '/bin/sh', XDG_STATE_HOME: path.join(h.dir, 'state'), XDG_CONFIG_HOME: path.join(h.dir, 'config'), XDG_DATA_HOME: path.join(h.dir, 'data') };
    daemon = spawn(program!, args, { env: { ...base, ...env }, stdio: 'ignore' });
    const cli = (...a: string[]) => spawnSync(process.execPath, [BIN, '--socket', path.join(h!.dir, 's.sock'), ...a], { env: base, encoding: 'utf8', timeout: 15_000 });
    await until('the daemon to answer', () => cli('ls').status === 0, 30_000);
    const environ = (pid: number) => fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    for (const [k, v] of Object.entries(DAEMON_ENV)) expect(environ(daemon!.pid!)).toContain(`${k}=${v}`);
    const out = path.join(h.dir, 'pane-env');
    expect(cli('new', '--', '/bin/sh', '-c', `env > '${out}.tmp' && mv '${out}.tmp' '${out}'; exec sleep 60`).status).toBe(0);
    const seen = await until('the pane to write its environment', () => fs.existsSync(out) && fs.readFileSync(out, 'utf8'));
    for (const k of [...Object.keys(DAEMON_ENV), 'PANE_DAEMON_ADDED_ENV']) expect(seen).not.toMatch(new RegExp(`^${k}=`, 'm'));
    expect(cli('stop', '--yes').status).toBe(0);
  }, 60_000);
});
