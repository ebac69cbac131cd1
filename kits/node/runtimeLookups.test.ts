import childProcess from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerRuntimeLookups } from './runtimeLookups';

// The runtime's own calls, as it makes them (utils/which.js, utils/ripgrep.js), through an ES module's binding.
const esm = async () => (await import('node:child_process')) as typeof childProcess;

describe.skipIf(process.platform !== 'linux')('the runtime’s lookups answered in the process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-lookups-'));
  // A `which` first on PATH that says where it ran: were a process started for the runtime's lookup, its answer would be this.
  fs.writeFileSync(path.join(dir, 'which'), '#!/bin/sh\necho /a/process/ran\n', { mode: 0o755 });
  const standIn = path.join(dir, 'no-such-false');
  const was = process.env.PATH;
  let restore = () => {};
  beforeAll(() => {
    process.env.PATH = `${dir}:/usr/bin:/bin`;
    restore = answerRuntimeLookups(standIn);
  });
  afterAll(() => {
    restore();
    process.env.PATH = was;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers `which NAME` as which does, from PATH, with no process', async () => {
    const { spawnSync } = await esm();
    const sh = spawnSync('which', ['sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 1000 });
    expect({ status: sh.status, stdout: sh.stdout }).toEqual({ status: 0, stdout: '/usr/bin/sh\n' });
    const none = spawnSync('which', ['no-such-program-here'], { encoding: 'utf8' });
    expect({ status: none.status, stdout: none.stdout }).toEqual({ status: 1, stdout: '' });
    expect(spawnSync('which', ['/bin/sh'], { encoding: 'utf8' }).stdout).toBe('/bin/sh\n');
  });

  it('passes every other call to Node: another program, other options, a flag', async () => {
    const { spawnSync } = await esm();
    expect(spawnSync('which', ['sh']).stdout.toString()).toBe('/a/process/ran\n');
    expect(spawnSync('which', ['-a', 'sh'], { encoding: 'utf8' }).stdout).toBe('/a/process/ran\n');
    expect(spawnSync('/bin/echo', ['hi'], { encoding: 'utf8' }).stdout).toBe('hi\n');
  });

  it('answers the ripgrep scan pointed at the stand-in as `false` would (nothing, exit 1), with no process', async () => {
    const { spawn } = await esm();
    // The stand-in does not exist: a process would fail to start (ENOENT); the answer is in-process.
    const child = spawn(standIn, ['--files', '--hidden', dir], { timeout: 10_000 });
    const [out, err, code] = await Promise.all([text(child.stdout!), text(child.stderr!), new Promise((resolve, reject) => (child.on('close', resolve), child.on('error', reject)))]);
    expect({ out, err, code }).toEqual({ out: '', err: '', code: 1 });
    const echo = spawn('/bin/echo', ['hi']);
    expect(await text(echo.stdout!)).toBe('hi\n');
  });

  it('puts Node’s own back', async () => {
    restore();
    const { spawnSync } = await esm();
    expect(spawnSync('which', ['sh'], { encoding: 'utf8' }).stdout).toBe('/a/process/ran\n');
    restore = answerRuntimeLookups(standIn);
  });
});
