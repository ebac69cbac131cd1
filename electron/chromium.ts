// The fallback window: a system Chromium (or Chrome) in --app mode with a throwaway
// profile. Even the one-time launch URL never appears on a command line (other local
// users can read those): the browser opens a small file in the 0700 profile dir that redirects.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CANDIDATES: Record<string, string[]> = {
  linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'],
  darwin: ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
  win32: [
    path.join(process.env.PROGRAMFILES ?? 'C:\\Program Files', 'Google\\Chrome\\Application\\chrome.exe'),
    path.join(process.env.LOCALAPPDATA ?? '', 'Google\\Chrome\\Application\\chrome.exe'),
  ],
};

/** $PANE_BROWSER, else the first Chromium-family browser found. */
export function findBrowser(): string | null {
  const env = process.env.PANE_BROWSER;
  if (env) return fs.existsSync(env) ? env : null;
  return (CANDIDATES[process.platform] ?? []).find((p) => p && fs.existsSync(p)) ?? null;
}

/** Whether there is any screen to open a window on. */
export function hasDisplay(): boolean {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

/**
 * Chromium's helper processes (renderer, GPU, zygote) can still write into the
 * profile for a moment after the browser process exits, and removing it then
 * fails with ENOTEMPTY (seen once in CI, closing the window of the app-keys test).
 * Node retries such errors with a linear backoff: 10 tries 50 ms apart wait up to ~2.75 s.
 */
const PROFILE_RM_RETRIES = 10;
const PROFILE_RM_RETRY_MS = 50;

export interface AppWindow {
  child: ChildProcess;
  exited: Promise<number>;
  cleanup(): void;
}

export function openAppWindow(browser: string, pageUrl: string): AppWindow {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-chromium-'));
  fs.chmodSync(profile, 0o700);
  const opener = path.join(profile, 'open.html');
  const safe = pageUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  fs.writeFileSync(opener, `<!doctype html><meta http-equiv="refresh" content="0;url=${safe}"><title>pane</title>`, { mode: 0o600 });
  const child = spawn(
    browser,
    [
      `--app=file://${opener}`,
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-sync',
      '--disable-background-networking',
      '--disable-component-update',
      '--class=pane',
      '--window-size=1280,820',
    ],
    { stdio: 'ignore' },
  );
  const cleanup = () => {
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: PROFILE_RM_RETRIES, retryDelay: PROFILE_RM_RETRY_MS });
    } catch {
      // Still busy after the retries: a private (0700) directory left to the system's tmp cleaning, not a failed exit.
    }
  };
  const exited = new Promise<number>((resolve) => {
    child.once('exit', (code) => resolve(code ?? 0));
    child.once('error', () => resolve(1));
  });
  return { child, exited, cleanup };
}
