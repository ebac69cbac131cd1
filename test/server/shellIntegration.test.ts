// pane's shell integration with the real shells: bash, zsh and fish report their
// cwd by OSC 7 after reading the user's own rc files (which pane never edits), and
// the pane's cwd follows; a shell started with arguments is left exactly as given.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { harness, until, waitForOutput, type Harness } from './harness';

let h: Harness;
let c: Connection;

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
/** A directory name that needs percent-encoding: a blank, a quote-free non-ASCII letter, a percent sign. */
const ODD = 'a b%é';
const OSC7 = /\x1b\]7;file:\/\/[^\x07\x1b]*\/usr\/share\/doc(\x07|\x1b\\)/;

beforeAll(async () => {
  h = await harness();
  c = await h.connect();
  // The user's own rc files, each leaving a mark the test looks for.
  fs.mkdirSync(path.join(h.dir, ODD));
  fs.writeFileSync(path.join(h.dir, '.bashrc'), 'export PANE_RC=bashrc-read\n');
  fs.writeFileSync(path.join(h.dir, '.zshrc'), 'export PANE_RC=zshrc-read\nPS1="%# "\n');
  fs.mkdirSync(path.join(h.dir, '.config', 'fish'), { recursive: true });
  fs.writeFileSync(path.join(h.dir, '.config', 'fish', 'config.fish'), 'set -gx PANE_RC fish-config-read\n');
});
afterAll(async () => {
  await h?.close();
});

async function shellPane(program: string, args: string[] = []): Promise<number> {
  const r = await c.call('pane/launch', { direction: 'horizontal', ratio: 50, launch: { program, args, cwd: h.dir } });
  return r.pane;
}

describe.each([
  ['bash', 'bashrc-read'],
  ['zsh', 'zshrc-read'],
  ['fish', 'fish-config-read'],
])('%s', (shell, mark) => {
  it.skipIf(!has(shell))(`reads the user's rc, then reports cd by OSC 7 and the pane's cwd follows${has(shell) ? '' : ` (skipped: ${shell} is not installed; scripts/systemDeps.mjs installs it)`}`, async () => {
    const n = await shellPane(shell);
    await c.call('pane/input', { pane: n, data: 'echo "rc=$PANE_RC"\r' });
    await waitForOutput(c, n, `rc=${mark}`);
    await c.call('pane/input', { pane: n, data: 'cd /usr/share/doc\r' });
    await waitForOutput(c, n, OSC7);
    await until('the cwd to follow', async () => (await c.call('pane/get', { pane: n })).cwd === '/usr/share/doc');
    expect((await c.call('pane/get', { pane: n })).tag.name).toBe('/usr/share/doc');
    // A directory with blanks and non-ASCII letters survives the percent-encoding both ways.
    await c.call('pane/input', { pane: n, data: `cd '${path.join(h.dir, ODD)}'\r` });
    await until('the odd cwd to follow', async () => (await c.call('pane/get', { pane: n })).cwd === path.join(h.dir, ODD));
    expect((await c.call('pane/get', { pane: n })).tag.name).toBe(`~/${ODD}`);
    await c.call('pane/close', { pane: n });
  }, 30_000);

  it.skipIf(!has(shell))('follows a cd on the same line as a job (no prompt since) while the job runs; a job\'s own directory, or the same place through a symlink, does not move it', async () => {
    const n = await shellPane(shell);
    const get = () => c.call('pane/get', { pane: n });
    // A job holds the terminal, and it is sleep (fish names the pane by the title it sets for the job, not the job's name).
    const sleepHolds = () =>
      until(`sleep to hold ${shell}'s terminal`, async () => {
        const p = await get();
        if (p.pgid === p.pid || p.pgid === null) return false;
        try {
          return fs.readFileSync(`/proc/${p.pgid}/comm`, 'utf8').trim() === 'sleep';
        } catch {
          return false; // that job is gone already
        }
      });
    // Into a directory through a symlink: only the shell's OSC 7 names the link (/proc names where it leads).
    const link = path.join(h.dir, `doc-link-${shell}`);
    fs.symlinkSync('/usr/share/doc', link);
    await c.call('pane/input', { pane: n, data: `cd ${link}\r` });
    await until('the reported (logical) cwd', async () => (await get()).cwd === link);
    // A job in the same place, and a job that moves itself: the reported path stands (the shell stays where it was).
    for (const job of ['sleep 30', 'sh -c "cd /tmp && exec sleep 31"']) {
      await c.call('pane/input', { pane: n, data: `${job}\r` });
      await sleepHolds();
      await new Promise((r) => setTimeout(r, 600)); // past the tracker's look (TRACK_MS)
      expect((await get()).cwd, job).toBe(link);
      await c.call('pane/input', { pane: n, data: '\x03' });
      await until('the prompt back', async () => {
        const p = await get();
        return p.pgid === p.pid;
      });
    }
    // The shell itself moves, then runs a job before any prompt: the pane follows it now, not when the job ends.
    await c.call('pane/input', { pane: n, data: 'cd /var/log && sleep 32\r' });
    await until('the cwd to follow while sleep runs', async () => {
      const p = await get();
      return p.cwd === '/var/log' && p.pgid !== p.pid;
    });
    await c.call('pane/close', { pane: n });
  }, 40_000);
});

it('ignores an OSC 7 from another machine (a shell over ssh) and keeps following /proc', async () => {
  const n = await shellPane('bash', ['--norc', '-i']);
  await c.call('pane/input', { pane: n, data: "printf '\\033]7;file://elsewhere.example/usr/share\\007'; cd /usr/share/doc\r" });
  await until('the cwd to follow through /proc', async () => (await c.call('pane/get', { pane: n })).cwd === '/usr/share/doc');
  await c.call('pane/close', { pane: n });
}, 30_000);

it.skipIf(!has('zsh'))('hands zsh the user’s own ZDOTDIR back (unset when it was unset)', async () => {
  const n = await shellPane('zsh');
  await c.call('pane/input', { pane: n, data: 'echo "zd=[$ZDOTDIR]"\r' });
  await waitForOutput(c, n, 'zd=[]');
  await c.call('pane/close', { pane: n });
}, 30_000);

it('leaves a shell started with arguments as given: no OSC 7, cwd from /proc instead', async () => {
  const n = await shellPane('bash', ['--norc', '-i']);
  await c.call('pane/input', { pane: n, data: 'echo "pc=[$PROMPT_COMMAND]"; cd /usr/share/doc\r' });
  await waitForOutput(c, n, 'pc=[]');
  await until('the cwd to follow through /proc', async () => (await c.call('pane/get', { pane: n })).cwd === '/usr/share/doc');
  const all = await c.call('pty/read', { pane: n, from: 0 });
  expect(all.data).not.toMatch(/\x1b\]7;/);
  await c.call('pane/close', { pane: n });
}, 30_000);

describe('tag names', () => {
  it('names a shell pane by its directory, then its foreground job, then the title that job set, then the directory again', async () => {
    const n = await shellPane('bash');
    await until('the directory name', async () => (await c.call('pane/get', { pane: n })).tag.name === '~');
    await c.call('pane/input', { pane: n, data: `sh -c 'sleep 0.5; printf "\\033]2;editing notes\\007"; sleep 30'\r` });
    await until('the job name', async () => (await c.call('pane/get', { pane: n })).tag.name === 'sh');
    await until('the job’s title', async () => (await c.call('pane/get', { pane: n })).tag.name === 'editing notes');
    await c.call('pane/input', { pane: n, data: '\x03' });
    await until('the directory again', async () => (await c.call('pane/get', { pane: n })).tag.name === '~');
    await c.call('pane/close', { pane: n });
  }, 30_000);

  it('tells the window of a job that turns into another program without printing', async () => {
    // What a window sees: only published tag changes (pane/get would read the foreground live).
    const w = await h.connect();
    const names: string[] = [];
    let n = -1;
    w.onEvent((event, _rev, data) => {
      const d = data as { pane: number; tag: { name: string } };
      if (event === 'pane/tag-changed' && d.pane === n) names.push(d.tag.name);
    });
    await w.call('events/subscribe', { families: ['pane'] });
    n = await shellPane('bash');
    await until('the directory name', async () => (await c.call('pane/get', { pane: n })).tag.name === '~');
    // The job prints nothing after its line's echo: the look at TRACK_MS sees sh; sleep comes later, in silence.
    await c.call('pane/input', { pane: n, data: `sh -c 'sleep 0.6; exec sleep 30'\r` });
    await until('the window told of sleep', async () => names.includes('sleep'));
    expect(names.indexOf('sh')).toBeLessThan(names.indexOf('sleep'));
    await c.call('pane/input', { pane: n, data: '\x03' });
    await until('the window told of the directory again', async () => names.at(-1) === '~');
    w.close();
    await c.call('pane/close', { pane: n });
  }, 30_000);

  it('keeps a name someone gave the pane', async () => {
    const n = await shellPane('bash');
    await c.call('pane/tag', { pane: n, name: 'build' });
    await c.call('pane/input', { pane: n, data: 'cd /usr/share/doc\r' });
    await until('the cwd to follow', async () => (await c.call('pane/get', { pane: n })).cwd === '/usr/share/doc');
    expect((await c.call('pane/get', { pane: n })).tag.name).toBe('build');
    await c.call('pane/close', { pane: n });
  }, 30_000);
});
