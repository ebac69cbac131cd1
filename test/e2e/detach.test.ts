// Closing the window detaches it: `npm start` (dist/start.mjs) starts the per-user
// daemon, opens "the browser" (a stand-in that exits 0 when told, as a closed window
// does) and the real page is driven in Chromium; after the close, a second `npm start`
// finds the daemon and the new window shows the same panes and screens, programs still running.
// The same under Electron: its utility process (start.mjs --ipc) is the bridge that stops.
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pidAlive } from '../../bench/procs';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, ensureBuilt, root, shot, until, waitScreen } from './shell';
import { desktopEnv, endDaemon, exited, npmStart as startAt, said } from './launcher';

/* eslint-disable @typescript-eslint/no-explicit-any */
let dir: string;
let env: NodeJS.ProcessEnv;
let context: BrowserContext;

const pane = (...args: string[]) => spawnSync(process.execPath, [path.join(root, 'dist/pane.mjs'), ...args], { env, encoding: 'utf8', timeout: 15_000 });

/** Runs `npm start`'s entry; resolves with the process and the page URL the window was given. */
const npmStart = () => startAt(path.join(root, 'dist/start.mjs'), env, dir);

/**
 * Electron's half, stood in for: electron/main.ts forks `dist/start.mjs --ipc` as its
 * utility process and waits for `ready`; the process.parentPort Electron provides comes
 * from test/fakes/electronParentPort.mjs over Node's IPC channel.
 */
async function utilityProcess(): Promise<{ proc: ChildProcess; ready: { origin: string; wsUrl: string; secret: string }; out: () => string }> {
  const shim = pathToFileURL(path.join(root, 'test/fakes/electronParentPort.mjs')).href;
  const proc = fork(path.join(root, 'dist/start.mjs'), ['--ipc'], { env, execArgv: ['--import', shim], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let out = '';
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const ready = await new Promise<{ origin: string; wsUrl: string; secret: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready from the utility process: ${out}`)), 30_000);
    proc.on('message', (m: { type?: string; origin: string; wsUrl: string; secret: string }) => {
      if (m.type !== 'ready') return;
      clearTimeout(timer);
      resolve(m);
    });
    proc.once('exit', (code) => reject(new Error(`the utility process exited (${code}): ${out}`)));
  });
  return { proc, ready, out: () => out };
}

/** The window as Electron loads it: the origin with no token, the endpoint and secret from the preload (window.paneHost). */
async function openElectronPage(ready: { origin: string; wsUrl: string; secret: string }) {
  const page = await context.newPage();
  await page.addInitScript(({ url, token }) => {
    (window as any).paneHost = { endpoint: async () => ({ url, token }), notify: () => undefined, onNotificationClick: () => undefined, platform: 'linux' };
  }, { url: ready.wsUrl, token: ready.secret });
  await page.goto(`${ready.origin}/`);
  await until(page, 'the window to show panes', () => {
    const st = (window as any).pane.store.getState();
    return st.conn.state === 'open' && Object.keys(st.panes).length >= 2;
  });
  return page;
}

async function openPage(url: string) {
  const page = await context.newPage();
  await page.goto(url);
  await until(page, 'the window to show panes', () => {
    const st = (window as any).pane.store.getState();
    return st.conn.state === 'open' && Object.keys(st.panes).length >= 2;
  });
  return page;
}

describe.skipIf(chromiumMissing)(`closing the window detaches it${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-detach-'));
    env = desktopEnv(dir);
    context = await chromium.launchPersistentContext(path.join(dir, 'profile'), { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1000, height: 640 } });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    // The daemon was started (detached) by this test: made sure of by its pid.
    await endDaemon(dir, pane);
  });

  it('keeps panes, screens and running programs across a window close, and reattaches', async () => {
    const first = await npmStart();
    const started = await said(first.out, /started the pane daemon/);
    expect(started).toMatch(/started the pane daemon \(pid \d+; log .*daemon\.log\)/);
    // It runs with the daemon's malloc setting (kits/node/daemonEnv.ts), unless the user chose one.
    const daemonPid = Number(/started the pane daemon \(pid (\d+)/.exec(started)![1]);
    expect(fs.readFileSync(`/proc/${daemonPid}/environ`, 'utf8').split('\0')).toContain('MALLOC_ARENA_MAX=2');
    expect(pane('split', '--', 'sh', '-c', 'i=0; while :; do i=$((i+1)); echo tick $i; sleep 0.2; done').status).toBe(0);
    let page = await openPage(first.url);
    await waitScreen(page, 1, /[$#] $/m);
    expect(pane('send', '-t', '1', 'echo before-close').status).toBe(0);
    await waitScreen(page, 1, /^before-close$/m);
    await waitScreen(page, 2, /tick 3/);
    const before = JSON.parse(pane('ls', '--json').stdout) as { n: number; pid: number }[];
    // ...which it takes back out before starting anyone's program: the panes get the user's environment.
    for (const p of before) expect(fs.readFileSync(`/proc/${p.pid}/environ`, 'utf8')).not.toMatch(/MALLOC_|PANE_DAEMON_ADDED_ENV/);

    // The window closes: the browser exits cleanly, start.mjs says so and ends; the daemon stays.
    fs.writeFileSync(path.join(dir, 'close'), '');
    await page.close();
    const code = await exited(first.proc);
    expect(code).toBe(0);
    expect(first.out()).toMatch(/window closed; the pane daemon keeps your panes running/);
    const after = JSON.parse(pane('ls', '--json').stdout) as { n: number; pid: number }[];
    expect(after.map((p) => [p.n, p.pid])).toEqual(before.map((p) => [p.n, p.pid]));

    // npm start again: the same daemon, the same panes and screens, the ticker still going.
    const second = await npmStart();
    expect(await said(second.out, /pane daemon/)).toMatch(/found the pane daemon running/);
    page = await openPage(second.url);
    await waitScreen(page, 1, /^before-close$/m);
    const ticks = Number(/tick (\d+)\s*$/.exec(await waitScreen(page, 2, /tick \d+/))?.[1] ?? 0);
    await waitScreen(page, 2, new RegExp(`tick ${ticks + 2}`));
    await shot(page, 'e2e-60-reattached');
    fs.writeFileSync(path.join(dir, 'close'), '');
    await page.close();
    expect(await exited(second.proc)).toBe(0);
  }, 120_000);

  it('under Electron, quitting the window stops only its utility-process bridge; the next window finds the same panes running', async () => {
    const first = await utilityProcess();
    let page = await openElectronPage(first.ready);
    expect(pane('send', '-t', '1', 'echo under-electron').status).toBe(0);
    await waitScreen(page, 1, /^under-electron$/m);
    const before = JSON.parse(pane('ls', '--json').stdout) as { n: number; pid: number }[];
    expect(before.length).toBeGreaterThanOrEqual(2);

    // Electron's before-quit: the main process posts `stop` to its utility process, which ends.
    await page.close();
    first.proc.send({ type: 'stop' });
    expect(await exited(first.proc)).toBe(0);
    const after = JSON.parse(pane('ls', '--json').stdout) as { n: number; pid: number }[];
    expect(after.map((p) => [p.n, p.pid])).toEqual(before.map((p) => [p.n, p.pid]));
    for (const p of after) expect(() => process.kill(p.pid, 0)).not.toThrow();

    // Electron started again: a new bridge to the same daemon, the same screens, the ticker still going.
    const second = await utilityProcess();
    page = await openElectronPage(second.ready);
    await waitScreen(page, 1, /^under-electron$/m);
    const ticks = Number(/tick (\d+)\s*$/.exec(await waitScreen(page, 2, /tick \d+/))?.[1] ?? 0);
    await waitScreen(page, 2, new RegExp(`tick ${ticks + 2}`));
    await page.close();
    second.proc.send({ type: 'stop' });
    expect(await exited(second.proc)).toBe(0);
  }, 120_000);

  it('with no window of its own (no display), the bridge outlives a daemon restarted in place and ends, saying who stopped it, when the daemon is stopped', async () => {
    const proc = spawn(process.execPath, [path.join(root, 'dist/start.mjs')], { env: { ...env, DISPLAY: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    try {
      const url = /it works once\): (\S+)/.exec(await said(() => out, /it works once\): \S+\n/))![1]!;
      expect(out).toMatch(/pane stop ends it, and this bridge with it/);
      const page = await openPage(url);
      // The daemon dies (SIGKILL: no stop, its socket file left behind) and one is started again
      // in place within seconds, as the user unit's Restart= does: the bridge stays, and serves it.
      const pidFile = path.join(dir, 'state', 'pane', 'daemon.pid');
      for (let i = 0; !fs.existsSync(pidFile) && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
      const old = Number(fs.readFileSync(pidFile, 'utf8'));
      process.kill(old, 'SIGKILL');
      for (let i = 0; pidAlive(old) && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
      const again = spawn(process.execPath, [path.join(root, 'dist/start.mjs'), '--daemon'], { env, detached: true, stdio: 'ignore' });
      again.unref();
      for (let i = 0; pane('ls').status !== 0 && i < 100; i++) await new Promise((r) => setTimeout(r, 100));
      expect(pane('ls').status).toBe(0);
      // Past the time a restart may take (SERVER_BACK_MS, 5 s), it still runs, and the page
      // connected through it again: no notice that the server is not answering is left.
      await new Promise((r) => setTimeout(r, 6_000));
      expect(proc.exitCode, out).toBeNull();
      await until(page, 'the window to connect again', () => (window as any).pane.store.getState().conn.state === 'open');
      expect(await page.locator('.notice-strip .notice-text', { hasText: 'not answering' }).count()).toBe(0);
      expect(await page.locator('main.workspace.stale').count()).toBe(0);

      // pane stop: the daemon tells every connection who stopped it before closing them. The window
      // (through the bridge) says so at once, not after its retries, and dims the screens it keeps;
      // the bridge says the same and ends, 0, without waiting to see the daemon come back.
      expect(pane('stop', '--yes').status).toBe(0);
      const word = 'the pane server was stopped by the person (pane stop); its panes have ended';
      const notice = page.locator('.notice-strip .notice-text', { hasText: 'the pane server was stopped' });
      await notice.waitFor({ timeout: 10_000 });
      // At once it is the stop's word; once the page has tried its address again after the bridge ended, the address's end too (below).
      const atOnce = `the pane server was stopped: start it again with pane start (npm start in a checkout), and this window connects again by itself · ${word}`;
      const addressGone = `the pane server was stopped: run pane start (npm start in a checkout) and open the address it prints; this page’s address ended with it · ${word}`;
      expect([atOnce, addressGone]).toContain(await notice.textContent());
      expect(await page.locator('.sl-conn').getAttribute('title')).toBe(word);
      await page.locator('main.workspace.stale').waitFor({ timeout: 5_000 });
      // Dimmed as drawn: the pane's own computed opacity, once its transition is done.
      await until(page, 'the pane to dim', () => getComputedStyle(document.querySelector('.pane')!).opacity === '0.5');
      expect(await exited(proc), out).toBe(0);
      expect(out).toContain(`${word}, so this bridge ends too.`);
      // The page's next try finds no bridge at its address: it says so, and that a new start prints a new one
      // (this bridge's address and secret ended with it), rather than that it connects again by itself.
      const gone = page.locator('.notice-strip .notice-text', { hasText: 'open the address it prints' });
      await gone.waitFor({ timeout: 10_000 });
      expect(await gone.textContent()).toBe(addressGone);
      expect(await page.locator('.notice-strip .notice-text', { hasText: 'connects again by itself' }).count()).toBe(0);
      expect(await page.locator('main.workspace.stale').count()).toBe(1);
      await page.close();
    } finally {
      if (proc.exitCode === null) proc.kill('SIGTERM');
    }
  }, 120_000);
});
