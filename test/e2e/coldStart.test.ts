// Cold start as the user meets it: `npm start`'s entry (dist/start.mjs) with no daemon
// running starts the daemon and a real Chromium (made headless by a wrapper given as
// PANE_BROWSER) together, and the window shows a prompt; the first page load carries
// only what the first frame needs, and the deferred chunks (palette, launcher, ...)
// arrive after the window is connected, ready for a key typed at once.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endPid } from '../../bench/procs';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, ensureBuilt, root, screen, serve, shot, until, waitScreen } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
let dir: string;
let env: NodeJS.ProcessEnv;
let proc: ChildProcess;
let browser: Browser | undefined;
let page: Page;
let out = '';
let browserPid = 0;

/** Polls `f` until it gives a value (bounded), failing with what was awaited. */
async function waitFor<T>(what: string, f: () => T | null | undefined, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > end || proc.exitCode !== null) throw new Error(`no ${what}; start.mjs said: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Names of the scripts the page fetched, with when each fetch started (ms from navigation). */
const scripts = () =>
  page.evaluate(() => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => r.name.endsWith('.js')).map((r) => ({ name: r.name.split('/').pop()!, at: r.startTime })));

describe.skipIf(chromiumMissing)(`cold start through npm start${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-cold-'));
    const wrapper = path.join(dir, 'browser.sh');
    // start.mjs's own flags and opener file, plus headless and a DevTools port for the test to drive the window.
    fs.writeFileSync(wrapper, `#!/bin/sh\necho "$$ $*" > "${dir}/browser.args"\nexec "${CHROMIUM}" --headless --no-sandbox --disable-gpu --remote-debugging-port=0 "$@"\n`, { mode: 0o755 });
    env = {
      PATH: process.env.PATH,
      HOME: dir,
      SHELL: '/bin/bash',
      LANG: 'C.UTF-8',
      TMPDIR: dir,
      DISPLAY: ':0', // a display is said to exist; the wrapper's Chromium is headless
      PANE_BROWSER: wrapper,
      XDG_RUNTIME_DIR: path.join(dir, 'run'),
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_STATE_HOME: path.join(dir, 'state'),
    };
  });

  afterAll(async () => {
    // Disconnecting leaves a browser we attached to running: end it by pid, then the launcher and the daemon.
    await browser?.close().catch(() => undefined);
    await endPid(browserPid);
    await endPid(proc?.pid ?? 0);
    spawnSync(process.execPath, [path.join(root, 'dist/pane.mjs'), 'stop', '--yes'], { env, timeout: 15_000 });
    const pidFile = path.join(dir, 'state', 'pane', 'daemon.pid');
    await endPid(fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it('opens the browser without waiting for the daemon, and the window shows a prompt', async () => {
    proc = spawn(process.execPath, [path.join(root, 'dist/start.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout!.on('data', (b: Buffer) => (out += String(b)));
    proc.stderr!.on('data', (b: Buffer) => (out += String(b)));
    const args = await waitFor('browser', () => {
      // Read once the wrapper's line is whole (it ends with the flags start.mjs gave and a newline).
      const f = path.join(dir, 'browser.args');
      const line = fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '';
      return /--user-data-dir=\S+.*\n/.test(line) ? line : null;
    });
    browserPid = Number(args.split(' ')[0]); // the wrapper's pid is Chromium's: it execs
    // The launch URL is never on the browser's command line (other local users can read those).
    expect(args).not.toMatch(/launch=/);
    expect(args).toMatch(/--app=file:\/\/.*open\.html/);
    const profile = /--user-data-dir=(\S+)/.exec(args)![1]!;
    const port = await waitFor('DevTools port', () => {
      const f = path.join(profile, 'DevToolsActivePort');
      return fs.existsSync(f) ? Number(fs.readFileSync(f, 'utf8').split('\n')[0]) || null : null;
    });
    browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
    const ctx = browser.contexts()[0]!;
    // The --app window is the one page; its URL as seen over CDP can lag a navigation made
    // while attaching (opener file → launch URL → /), so the waits below check the document itself.
    page = await waitFor('the window page', () => ctx.pages()[0] ?? null);
    await page.setViewportSize({ width: 1280, height: 800 });
    await until(page, 'the window to connect', () => (window as any).pane?.store.getState().conn.state === 'open', 30_000);
    const n = await page.evaluate(() => {
      const st = (window as any).pane.store.getState();
      return st.sessions[st.sessionId].focused as number;
    });
    await waitScreen(page, n, /[$#] $/m, 30_000);
    await shot(page, 'cold-01-first-frame');
    expect(out).toMatch(/started the pane daemon \(pid \d+/);
    // The browser was asked for before the daemon said it answers: the two started together.
    expect(out.indexOf('opening')).toBeLessThan(out.indexOf('started the pane daemon'));
  }, 90_000);

  it('loads the palette, launcher and the other deferred chunks only after the window is connected', async () => {
    const opened = await page.evaluate(() => performance.getEntriesByName('pane:open')[0]?.startTime ?? NaN);
    expect(Number.isFinite(opened)).toBe(true);
    const deferred = /^(Palette|Launcher|Switcher|Sessions|NoticeHistory|ConfirmClose|CopyMode|FindBar|FloatLayer)-/;
    await expect.poll(async () => (await scripts()).filter((s) => deferred.test(s.name)).length, { timeout: 15_000 }).toBe(9);
    for (const s of await scripts()) if (deferred.test(s.name)) expect(s.at, s.name).toBeGreaterThanOrEqual(opened);
  });

  it('opens the palette at its key and keeps every key typed right after it', async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('split');
    const input = page.getByRole('combobox', { name: 'palette' });
    await expect.poll(() => input.inputValue()).toBe('split');
    await shot(page, 'cold-02-palette');
    await page.keyboard.press('Escape');
  });
});

/**
 * A window whose `chunk` (the palette's unless named) is held back 1.5 s (as on a slow first
 * fetch), at a shell prompt: `run` gets the page and the focused pane; the server and browser end after.
 */
async function withSlowPalette(run: (p: Page, n: number) => Promise<void>, chunk = 'Palette'): Promise<void> {
  const served = await serve();
  const context = await chromium.launchPersistentContext(path.join(served.dir, 'profile'), { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 800 } });
  try {
    await context.route(new RegExp(`/assets/${chunk}-[^/]*\\.js$`), async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    const p = context.pages()[0] ?? (await context.newPage());
    await p.goto(served.url);
    await until(p, 'the window to connect', () => (window as any).pane?.store.getState().conn.state === 'open', 30_000);
    const n = await p.evaluate(() => {
      const st = (window as any).pane.store.getState();
      return st.sessions[st.sessionId].focused as number;
    });
    await waitScreen(p, n, /[$#] $/m, 30_000);
    await run(p, n);
  } finally {
    await context.close().catch(() => undefined);
    await served.stop();
  }
}

describe.skipIf(chromiumMissing)(`a deferred overlay opened before its chunk is in${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  it('keeps the keys typed meanwhile out of the shell and hands them to the palette when it opens', async () => {
    await withSlowPalette(async (p, n) => {
      await p.keyboard.press('Control+Shift+P');
      await p.keyboard.type('spl');
      const input = p.getByRole('combobox', { name: 'palette' });
      await input.waitFor({ timeout: 15_000 });
      await p.keyboard.type('it');
      await expect.poll(() => input.inputValue()).toBe('split');
      await p.keyboard.press('Escape');
      expect(await screen(p, n)).not.toContain('spl');
    });
  }, 90_000);

  it('starts the find bar with the query typed before its chunk arrived, searching it, none of it in the shell', async () => {
    await withSlowPalette(async (p, n) => {
      await p.keyboard.type('echo needle-$((40+2))\n');
      await waitScreen(p, n, /^needle-42$/m);
      await p.keyboard.press('Control+Shift+F');
      await p.keyboard.type('needle-4');
      const input = p.getByRole('textbox', { name: 'find' });
      await input.waitFor({ timeout: 15_000 });
      await p.keyboard.type('2');
      await expect.poll(() => input.inputValue()).toBe('needle-42');
      await expect.poll(() => p.getByRole('status', { name: 'matches' }).textContent(), { timeout: 10_000 }).toMatch(/^\d+ of \d+$/);
      await p.keyboard.press('Escape');
      expect(await screen(p, n)).not.toMatch(/[$#] needle/);
    }, 'FindBar');
  }, 90_000);

  it('runs in copy mode the keys pressed before its chunk arrived, a search among them, none of them in the shell', async () => {
    await withSlowPalette(async (p, n) => {
      await p.keyboard.type("printf 'alpha-1\\nbeta-2\\n'\n");
      await waitScreen(p, n, /^beta-2$/m);
      // Copy mode's key, then k 0 v $ at once: up from the prompt to "beta-2"'s start, select to its end.
      await p.keyboard.press('Control+Shift+Y');
      for (const k of ['k', '0', 'v', 'Shift+Digit4']) await p.keyboard.press(k);
      const bar = p.locator(`[data-pane="${n}"] .copybar`);
      await bar.waitFor({ timeout: 15_000 });
      await expect.poll(() => p.evaluate((q) => (window as any).pane.selection(q), n)).toBe('beta-2');
      await p.keyboard.press('q');
      await expect.poll(() => bar.count()).toBe(0);
      expect(await screen(p, n)).not.toMatch(/[$#] k/);
    }, 'CopyMode');
    await withSlowPalette(async (p, n) => {
      await p.keyboard.type("printf 'alpha-1\\nbeta-2\\n'\n");
      await waitScreen(p, n, /^beta-2$/m);
      // ? and a query ended by Enter: the search runs as the chunk arrives, its match selected.
      await p.keyboard.press('Control+Shift+Y');
      await p.keyboard.type('?alpha');
      await p.keyboard.press('Enter');
      await p.locator(`[data-pane="${n}"] .copybar`).waitFor({ timeout: 15_000 });
      await expect.poll(() => p.evaluate((q) => (window as any).pane.selection(q), n)).toBe('alpha');
      await p.keyboard.press('Escape');
      expect(await screen(p, n)).not.toMatch(/[$#] .*alpha$/m);
    }, 'CopyMode');
  }, 120_000);

  it('runs the choice when Enter was typed before the palette’s chunk arrived', async () => {
    await withSlowPalette(async (p, n) => {
      // Ctrl+Shift+P, "zoom", Enter — all before the palette can show.
      await p.keyboard.press('Control+Shift+P');
      await p.keyboard.type('zoom');
      await p.keyboard.press('Enter');
      await until(p, 'the pane zoomed by the palette once it arrived', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].zoomed === ${n} && st.overlay === null;`) as () => boolean, 15_000);
      expect(await screen(p, n)).not.toContain('zoom');
    });
  }, 90_000);
});

