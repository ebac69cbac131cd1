// A second machine's pane tiled in the window (issue 26 items 3 and 4): a remote
// daemon behind a real OpenSSH sshd on 127.0.0.1 is joined as host `box`, one of its
// panes is placed beside a local pane with `pane host show`, and a real Chromium
// window (attached to the local daemon) draws both. Keys typed in the window reach the
// remote shell and its answer comes back; the tag names box:N, and shows STALE while
// the ssh link is paused, then clears.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binDirFor, startDaemon, startSshd, type Daemon, type Sshd } from '../hosts/remote';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, ensureBuilt, numberRuns, numbersIn, region, root, shot, until, waitScreen } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
let remote: Daemon;
let local: Daemon;
let sshd: Sshd;
let bridge: ChildProcess | undefined;
let context: BrowserContext;
let url = '';
let rn = 0;
let ln = 0;
let standIn = 0;

/** The processes below `root` (by parent), with their command lines: only what this test started. */
function descendants(root: number): { pid: number; args: string }[] {
  const rows = spawnSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).stdout.split('\n').map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  const out: { pid: number; args: string }[] = [];
  const seen = new Set([root]);
  for (let grew = true, rounds = 0; grew && rounds < 16; rounds++) {
    grew = false;
    for (const [, pid, ppid, args] of rows) {
      if (seen.has(Number(ppid)) && !seen.has(Number(pid))) {
        seen.add(Number(pid));
        out.push({ pid: Number(pid), args: args! });
        grew = true;
      }
    }
  }
  return out;
}

describe.skipIf(chromiumMissing)(`a remote pane tiled in the window${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    ensureBuilt();
    remote = await startDaemon('rt');
    sshd = await startSshd(binDirFor(remote));
    local = await startDaemon('lt');
    const add = local.pane(['host', 'add', 'box', `ssh://root@127.0.0.1:${sshd.port}`, '--ssh-config', sshd.clientConfig]);
    expect(add.status, add.stderr).toBe(0);
    const j = local.pane(['host', 'connect', 'box']);
    expect(j.status, j.stderr).toBe(0);
    // The remote pane: an interactive sh whose prompt says where it runs.
    const r = remote.pane(['new', '--', 'env', 'PS1=box$ ', '/bin/sh', '-i']);
    expect(r.status, r.stderr).toBe(0);
    rn = Number(r.stdout.trim());
    const l = local.pane(['new', '--', 'env', 'PS1=here$ ', '/bin/sh', '-i']);
    expect(l.status, l.stderr).toBe(0);
    ln = Number(l.stdout.trim());
    const s = local.pane(['host', 'show', `box:${rn}`, '-t', String(ln)]);
    expect(s.status, s.stderr).toBe(0);
    standIn = Number(s.stdout.trim());
    // The window, attached to the local daemon through the bridge `npm start -- --attach` runs.
    bridge = spawn(process.execPath, [path.join(root, 'dist/start.mjs'), '--serve', '--attach', local.socket], { env: local.env, stdio: ['ignore', 'pipe', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`the window bridge did not start: ${out}`)), 20_000);
      const on = (b: Buffer) => {
        out += b.toString();
        const m = /serving the window at (\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      bridge!.stdout!.on('data', on);
      bridge!.stderr!.on('data', on);
    });
    context = await chromium.launchPersistentContext(path.join(local.home, 'profile'), { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1100, height: 560 } });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (bridge && bridge.exitCode === null) {
      const gone = new Promise((r) => bridge!.once('exit', r));
      bridge.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
    }
    local?.pane(['host', 'disconnect', 'box']);
    await local?.stop();
    await sshd?.stop();
    await remote?.stop();
  });

  it('draws the remote pane beside the local one, types into it and shows its answer; the tag badges a paused link', async () => {
    const page = await context.newPage();
    await page.goto(url);
    await until(page, 'both panes laid out', () => {
      const st = (window as any).pane.store.getState();
      const s = st.sessions[st.sessionId];
      return st.conn.state === 'open' && s ? s.placements.length >= 2 : false;
    });
    await waitScreen(page, ln, /here\$ $/m);
    await waitScreen(page, standIn, /box\$ $/m, 20_000);
    expect(await region(page, standIn).locator('.tag-host').innerText()).toBe(`box:${rn}`);
    expect(await region(page, standIn).locator('.tag-link').count()).toBe(0);

    // Keys typed in the window go to the remote shell (by the stand-in's number), its answer comes back.
    await region(page, standIn).click();
    await page.waitForFunction((n) => {
      const st = (window as any).pane.store.getState();
      return st.sessions[st.sessionId]?.focused === n;
    }, standIn, { timeout: 10_000 });
    await page.keyboard.type('echo typed-on-box-$((6*7))\n');
    await waitScreen(page, standIn, /^typed-on-box-42$/m, 20_000);
    // The remote daemon's own screen of its pane holds it too: it ran there.
    expect(remote.pane(['screen', '-t', String(rn)]).stdout).toMatch(/^typed-on-box-42$/m);
    // And the local pane beside it is untouched by those keys.
    expect((await page.evaluate((n) => (window as any).pane.screen(n), ln)) as string).not.toContain('typed-on-box');
    await region(page, ln).click();
    await page.keyboard.type('echo local-beside\n');
    await waitScreen(page, ln, /^local-beside$/m);
    await shot(page, 'e2e-remote-tile');

    // The link paused (its far end, the sshd processes serving the connection, stopped: ssh's shared
    // master carries the bytes, so stopping the local client would not pause it, and the remote daemon
    // took `pane serve --stdio`'s pipes over, so stopping that would not either): the stand-in's tag
    // says STALE; resumed: the badge goes and keys still reach it.
    const ssh = descendants(sshd.proc.pid!).filter((p) => /^sshd/.test(p.args)).map((p) => p.pid);
    expect(ssh.length).toBeGreaterThan(0);
    for (const pid of ssh) process.kill(pid, 'SIGSTOP');
    try {
      await region(page, standIn).locator('.tag-link', { hasText: 'STALE' }).waitFor({ timeout: 15_000 });
      await shot(page, 'e2e-remote-tile-stale');
    } finally {
      for (const pid of ssh) process.kill(pid, 'SIGCONT');
    }
    await region(page, standIn).locator('.tag-link').waitFor({ state: 'detached', timeout: 15_000 });
    await region(page, standIn).click();
    await page.keyboard.type('echo after-the-pause\n');
    await waitScreen(page, standIn, /^after-the-pause$/m, 20_000);

    // The launcher lists the joined host's panes: picking one tiles it beside the focused pane.
    const r2 = remote.pane(['new', '--', 'env', 'PS1=box-two$ ', '/bin/sh', '-i']);
    expect(r2.status, r2.stderr).toBe(0);
    const rn2 = Number(r2.stdout.trim());
    await page.keyboard.press('Control+Shift+K');
    await page.getByRole('dialog', { name: 'launcher' }).waitFor({ timeout: 10_000 });
    await page.keyboard.type(`box:${rn2}`);
    await page.getByRole('option').filter({ hasText: `box:${rn2}` }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    const tag = page.locator('section[role="region"]').filter({ has: page.locator('.tag-host', { hasText: `box:${rn2}` }) });
    await tag.first().waitFor({ timeout: 15_000 });
    const second = Number(await tag.first().getAttribute('data-pane'));
    expect(second).not.toBe(standIn);
    await waitScreen(page, second, /box-two\$ $/m, 20_000);
    await shot(page, 'e2e-remote-tile-launcher');

    // The host left and joined again (its streams freed meanwhile): the stand-in says so, then is attached again.
    expect(local.pane(['host', 'disconnect', 'box']).status).toBe(0);
    await region(page, standIn).locator('.tag-link', { hasText: 'DISCONNECTED' }).waitFor({ timeout: 10_000 });
    expect(local.pane(['host', 'connect', 'box']).status).toBe(0);
    await region(page, standIn).locator('.tag-link').waitFor({ state: 'detached', timeout: 15_000 });
    await region(page, standIn).click();
    await page.keyboard.type('echo after-rejoin\n');
    await waitScreen(page, standIn, /^after-rejoin$/m, 20_000);
    await page.close();
  }, 120_000);

  it('drops the output waiting in the page when Ctrl-C interrupts a flood in the remote pane, and the remote prompt follows', async () => {
    const page = await context.newPage();
    await page.goto(url);
    await waitScreen(page, standIn, /box\$ $/m, 20_000);
    await region(page, standIn).click();
    await page.waitForFunction((n) => {
      const st = (window as any).pane.store.getState();
      return st.sessions[st.sessionId]?.focused === n;
    }, standIn, { timeout: 10_000 });
    // The page at a sixth of this machine's pace, as on a slow laptop, so output still waits in it at the key
    // (stream.test.ts does the same for a local pane); up to 5 floods, for a CI load that slows `seq` as much.
    // A remote flood crosses the link and a second daemon first, so under load it can reach the page slower
    // than even a throttled page draws it, leaving nothing to drop (seen once in CI: 5 floods, no jump): each
    // flood that found nothing waiting slows the page further (6×, 12×, … 30×).
    const cdp = await context.newCDPSession(page);
    let dropped = 0;
    let cycle = 0;
    try {
      for (; cycle < 5 && dropped === 0; cycle++) {
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 * (cycle + 1) });
        const lo = (cycle + 1) * 1e8;
        await page.keyboard.type(`clear; seq ${lo} ${lo + 9e7}\n`);
        await until(page, 'the remote numbers to flood', new Function(`return (window.pane.screen(${standIn}) ?? '').split('\\n').filter((l) => /^\\d+$/.test(l) && Number(l) >= ${lo} && Number(l) <= ${lo + 9e7}).length > 1000`) as () => boolean, 30_000);
        await page.keyboard.press('Control+C');
        await page.keyboard.type(`echo done-${cycle}-$((2*3))\n`);
        // The remote shell is dash, which has no line editor: a line typed before its prompt is drawn was echoed by
        // the tty already and is not drawn again, so its output can follow the prompt on the same row.
        const shown = await waitScreen(page, standIn, new RegExp(`^(?:box\\$ )?done-${cycle}-6$`, 'm'), 30_000).catch(async (e: Error) => {
          // What each end saw, so a failure here says where the interrupt or its answer stopped.
          const notices = await page.evaluate(() => JSON.stringify((window as any).pane.store.getState().notices ?? null)).catch(() => '?');
          const far = remote.pane(['screen', '-t', String(rn)]).stdout.split('\n').slice(-6).join('\n');
          throw new Error(`${e.message.slice(0, 600)}\nthe remote's own screen ends:\n${far}\nwindow notices: ${notices}\nlocal daemon log:\n${local.log.slice(-3000)}\nremote daemon log:\n${remote.log.slice(-3000)}`);
        });
        // In order, never doubled; at most one line is two half-lines joined where the stretch was cut.
        const runs = numberRuns(shown, lo, lo + 9e7);
        dropped += runs.jumps;
        expect(runs.back, `numbers went backward or repeated: ${runs.back}`).toBeLessThanOrEqual(1);
      }
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 }).catch(() => undefined);
      await cdp.detach().catch(() => undefined);
      // No flood outlives this test.
      remote.pane(['send', '-t', String(rn), '--raw', '\x03']);
    }
    // Without the drop every number that reached the page is drawn, and no flood shows a jump.
    expect(dropped).toBeGreaterThan(0);
    // The remote daemon's screen model of its pane keeps every byte: its last numbers before the interrupt run on without a jump.
    const last = cycle * 1e8;
    const model = numbersIn(remote.pane(['screen', '-t', String(rn)]).stdout, last, last + 9e7);
    const tail = model.slice(-200);
    expect(tail.length).toBeGreaterThan(100);
    for (let i = 1; i < tail.length; i++) expect(tail[i]! - tail[i - 1]!).toBe(1);
    await shot(page, 'e2e-remote-ctrlc-drop');
    await page.close();
  }, 180_000);

  it('switches the window to a joined host\'s session when `pane session attach HOST:NAME` is typed in one of its panes', async () => {
    const made = remote.pane(['session', 'new', 'work', '--', 'env', 'PS1=work$ ', '/bin/sh', '-i']);
    expect(made.status, made.stderr).toBe(0);
    const page = await context.newPage();
    await page.goto(url);
    await waitScreen(page, ln, /\$ $/m);
    await region(page, ln).click();
    await page.keyboard.type(`${binDirFor(local)}/pane session attach box:work\n`);
    // The window that showed the pane it ran in now shows box:work: one tile standing in for box's pane, its prompt drawn.
    await until(page, 'the window on box:work', () => {
      const st = (window as any).pane.store.getState();
      return st.sessions[st.sessionId]?.name === 'box:work' && st.sessions[st.sessionId].placements.length === 1;
    }, 20_000);
    const tile = Number(await page.locator('section[role="region"]').first().getAttribute('data-pane'));
    await waitScreen(page, tile, /work\$ $/m, 20_000);
    expect(await region(page, tile).locator('.tag-host').innerText()).toMatch(/^box:\d+$/);
    expect(new URL(page.url()).searchParams.get('session')).toBe('box:work');
    await region(page, tile).click();
    await page.keyboard.type('echo in-work-$((2*21))\n');
    await waitScreen(page, tile, /^in-work-42$/m, 20_000);
    await shot(page, 'e2e-session-attach-host');
    // Ended on box: the view ends, and the window shows a session of its own again.
    expect(local.pane(['session', 'kill', 'box:work']).status).toBe(0);
    await until(page, 'the window back on a local session', () => {
      const st = (window as any).pane.store.getState();
      const s = st.sessions[st.sessionId];
      return s !== undefined && s.name !== 'box:work';
    }, 20_000);
    await page.close();
  }, 120_000);
});
