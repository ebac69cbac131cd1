// Closing and dying over the protocol, with real PTYs: pane/close with unlessBusy
// refuses (busy, naming the program) only when something other than an idle shell
// would end; a killed program's pane says how it ended in the model, leaving its
// stream the program's own bytes; an app whose program is missing is refused with how to install it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachConfig } from '../../server/config/configService';
import type { Connection } from '../../kits/client/connection';
import { PaneFault } from '../../kits/protocol/error';
import { ENTER_TO_RUN_SCRIPT } from '../../server/model/enterToRun';
import { harness, until, waitForOutput, type Harness } from './harness';

let h: Harness;
let c: Connection;

beforeAll(async () => {
  h = await harness();
  c = await h.connect();
});
afterAll(async () => {
  await h?.close();
});

/** Until process `pid` sleeps (its state S in /proc/PID/stat), as a shell blocked in `read` does. */
async function waitsInRead(pid: number): Promise<void> {
  await until(`process ${pid} to wait in read`, () => /^\d+ \(.*\) S /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')));
}

async function fault(p: Promise<unknown>): Promise<PaneFault> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PaneFault) return e;
    throw e;
  }
  throw new Error('expected a typed error, got success');
}

describe('pane/close unlessBusy', () => {
  it('closes an idle shell at once', async () => {
    const r = await c.call('pane/split', { direction: 'horizontal', ratio: 50 });
    await waitForOutput(c, r.pane, /[$#] $/);
    await c.call('pane/close', { pane: r.pane, unlessBusy: true });
    expect((await c.call('pane/list', {})).panes.some((p) => p.n === r.pane)).toBe(false);
  });

  it('refuses, naming the program, when a job holds the shell’s foreground; without the flag it closes', async () => {
    const r = await c.call('pane/split', { direction: 'horizontal', ratio: 50 });
    await waitForOutput(c, r.pane, /[$#] $/);
    await c.call('pane/input', { pane: r.pane, data: 'sleep 100\r' });
    // The tag names the foreground job once it runs (a close asked before then would, rightly, just close).
    await until('sleep to hold the foreground', async () => (await c.call('pane/get', { pane: r.pane })).tag.name === 'sleep');
    const e = await fault(c.call('pane/close', { pane: r.pane, unlessBusy: true }));
    expect(e.code).toBe('busy');
    expect(e.message).toBe(`sleep is running in pane ${r.pane}`);
    expect(e.reason).toBe('sleep');
    await c.call('pane/close', { pane: r.pane });
    expect((await c.call('pane/list', {})).panes.some((p) => p.n === r.pane)).toBe(false);
  });

  it('counts a shell given a command (`sh -c`) as busy while its command runs, named by that command', async () => {
    // A shell with no prompt runs its command in its own process group: that group holds the terminal, as an idle shell's does.
    const r = await c.call('pane/launch', { direction: 'horizontal', ratio: 50, launch: { program: '/bin/sh', args: ['-c', 'echo started; sleep 100; echo after'] } });
    await until('sleep to be named', async () => (await c.call('pane/get', { pane: r.pane })).tag.name === 'sleep', 10_000);
    const e = await fault(c.call('pane/close', { pane: r.pane, unlessBusy: true }));
    expect(e.code).toBe('busy');
    expect(e.message).toBe(`sleep is running in pane ${r.pane}`);
    await c.call('pane/close', { pane: r.pane });
  });

  it("counts pane's own Enter-to-run wrapper (a program brought back after a restart) as idle while it waits for Enter, and busy once its command runs", async () => {
    const launch = { program: '/bin/sh', args: ['-c', ENTER_TO_RUN_SCRIPT, 'pane-resume', 'sleep', '100'] };
    const r = await c.call('pane/launch', { direction: 'horizontal', ratio: 50, launch });
    await waitsInRead((await c.call('pane/get', { pane: r.pane })).pid!);
    // Nothing runs yet: a close asks nothing.
    expect(await c.call('pane/close', { pane: r.pane, unlessBusy: true }).then(() => 'closed')).toBe('closed');
    const s = await c.call('pane/launch', { direction: 'horizontal', ratio: 50, launch });
    const pid = (await c.call('pane/get', { pane: s.pane })).pid!;
    await waitsInRead(pid);
    await c.call('pane/input', { pane: s.pane, data: '\r' });
    // The wrapper execs its command: the pane's own process becomes sleep (a close asked before then would, rightly, just close).
    await until('sleep to run', () => fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep');
    const e = await fault(c.call('pane/close', { pane: s.pane, unlessBusy: true }));
    expect(e.code).toBe('busy');
    expect(e.message).toBe(`sleep is running in pane ${s.pane}`);
    await c.call('pane/close', { pane: s.pane });
  });

  it('counts any other shell given a command as busy while it runs only builtins (a loop, a `read` in a script), named by the shell', async () => {
    for (const script of ['echo started; while :; do :; done', 'echo started; IFS= read -r answer; echo "$answer"']) {
      const r = await c.call('pane/launch', { direction: 'horizontal', ratio: 50, launch: { program: '/bin/sh', args: ['-c', script] } });
      await waitForOutput(c, r.pane, /started/);
      const e = await fault(c.call('pane/close', { pane: r.pane, unlessBusy: true }));
      expect(e.code).toBe('busy');
      expect(e.message).toBe(`sh is running in pane ${r.pane}`);
      await c.call('pane/close', { pane: r.pane });
    }
  });

  it('names an ended pane by the program that ended, as its exit line does, not by the last job seen in it', async () => {
    const r = await c.call('pane/launch', { direction: 'horizontal', ratio: 50, launch: { program: '/bin/sh', args: ['-c', 'sleep 1; exit 3'] } });
    await until('sleep to be named', async () => (await c.call('pane/get', { pane: r.pane })).tag.name === 'sleep', 10_000);
    const ended = await until('the pane to end', async () => {
      const p = await c.call('pane/get', { pane: r.pane });
      return p.state === 'exited' ? p : null;
    });
    expect(ended.exit).toMatchObject({ code: 3 });
    expect(ended.tag.name).toBe('sh');
    await c.call('pane/close', { pane: r.pane });
  });

  it('counts a program that is not a shell as busy, and an exited one as not', async () => {
    const r = await c.call('pane/launch', { direction: 'horizontal', ratio: 50, launch: { program: 'sleep', args: ['100'] } });
    await until('sleep to run', async () => (await c.call('pane/get', { pane: r.pane })).state === 'running');
    expect((await fault(c.call('pane/close', { pane: r.pane, unlessBusy: true }))).code).toBe('busy');
    process.kill((await c.call('pane/get', { pane: r.pane })).pid!, 'SIGKILL');
    const dead = await until('the pane to show the kill', async () => {
      const p = await c.call('pane/get', { pane: r.pane });
      return p.state === 'exited' ? p : null;
    });
    expect(dead.exit).toMatchObject({ code: null, signal: 9, signalName: 'SIGKILL' });
    // The stream stays the program's own bytes: each window writes the notice into its own terminal.
    expect((await c.call('pty/read', { pane: r.pane, from: 0 })).data).not.toContain('killed');
    await c.call('pane/close', { pane: r.pane, unlessBusy: true });
  });
});

describe('apps that are not installed', () => {
  it('marks one whose program is not on PATH and refuses to launch it, saying how to install it', async () => {
    const dir = path.join(h.dir, 'config');
    fs.mkdirSync(path.join(dir, 'apps'), { recursive: true });
    const app = { name: 'Frobnicator', signature: 'org.example.frob', launch: { program: 'pane-test-no-such-program', args: [] }, install: 'apt install frob' };
    fs.writeFileSync(path.join(dir, 'apps', 'frob.json'), JSON.stringify(app));
    attachConfig(h.running.services, { configDir: dir });
    const listed = (await c.call('apps/list', {})).apps.find((a) => a.id === 'frob');
    expect(listed?.installed).toBe(false);
    const e = await fault(c.call('apps/launch', { app: 'frob' }));
    expect(e.message).toBe('Frobnicator is not installed (pane-test-no-such-program is not on PATH): apt install frob');
  });

  it('marks the login shell and pane’s own apps as installed', async () => {
    const list = await c.call('apps/list', {});
    for (const id of ['terminal', 'peers', 'demo-agent', 'top']) expect(list.apps.find((a) => a.id === id)?.installed, id).not.toBe(false);
  });
});
