// The same shell hosted by Electron, driven through Playwright's _electron. It runs
// only where the optional `electron` package installed its binary (it downloads it
// from outside the npm registry) and a display exists; elsewhere it is skipped and
// says why.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, root, shot, until, waitScreen } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
function electronBinary(): string | null {
  try {
    const p = createRequire(import.meta.url)('electron') as unknown;
    return typeof p === 'string' && fs.existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

const bin = electronBinary();
const display = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const why = !bin
  ? 'no Electron binary: the optional `electron` package could not download it (only the npm registry is reachable here)'
  : !display
    ? 'no display (DISPLAY/WAYLAND_DISPLAY unset) for an Electron window'
    : '';

if (why) console.warn(`Electron end-to-end tests skipped: ${why}`);

describe.skipIf(why !== '')(`the desktop shell in Electron${why ? ` — skipped: ${why}` : ''}`, () => {
  let app: ElectronApplication;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-electron-'));
    app = await _electron.launch({
      executablePath: bin!,
      args: [path.join(root, 'dist/electron/main.cjs'), '--socket', path.join(dir, 's.sock'), `--user-data-dir=${path.join(dir, 'profile')}`],
      env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config'), SHELL: '/bin/bash' } as Record<string, string>,
    });
    page = await app.firstWindow();
    await until(page, 'the window to connect', () => (window as any).pane?.store.getState().conn.state === 'open');
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }); // Electron's helpers may still be writing its profile
  });

  it('runs sandboxed, with no Node in the page', async () => {
    expect(await page.evaluate(() => typeof (globalThis as any).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (window as any).paneHost?.endpoint)).toBe('function');
  });

  it('shows `echo hello` and splits from the keyboard', async () => {
    const first = await page.evaluate(() => {
      const st = (window as any).pane.store.getState();
      return st.sessions[st.sessionId].focused as number;
    });
    await page.keyboard.type('echo hello\n');
    await waitScreen(page, first, /^hello$/m);
    await page.keyboard.press('Control+Shift+E');
    await until(page, 'two regions', () => document.querySelectorAll('section[role="region"]').length === 2);
    await shot(page, 'e2e-electron-split');
  });
});
