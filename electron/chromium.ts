// The fallback window: a system Chromium (or Chrome) in --app mode with a throwaway
// profile. Even the one-time launch URL never appears on a command line (other local
// users can read those): the browser opens a small file in the 0700 profile dir that redirects.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { windowFeatureFlags } from './windowFlags';

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
  /** The browser's last lines on stderr (at most STDERR_KEPT bytes): why it exited, when it did. */
  stderr(): string;
  /** What pane changed for this user, said once at start (root: Chromium's sandbox is off). */
  notes: string[];
}

/** Bytes of the browser's stderr kept, to name why it exited: its last complaint, not its whole log. */
const STDERR_KEPT = 4096;

/**
 * Chromium refuses to start as root unless its own sandbox is off ("Running as root
 * without --no-sandbox is not supported"). A person who runs pane as root (a container,
 * a VM they own) gets the window with --no-sandbox, and is told so: the page it shows is
 * pane's own renderer from 127.0.0.1, not the web.
 */
export function rootFlags(uid: number | undefined = process.getuid?.()): { flags: string[]; notes: string[] } {
  if (uid !== 0 || process.platform !== 'linux') return { flags: [], notes: [] };
  return { flags: ['--no-sandbox'], notes: ["running as root: Chromium's own sandbox is off (--no-sandbox), as Chromium requires for root; the window shows only pane's page from 127.0.0.1"] };
}

/**
 * The page Chromium opens first: it sends the window to the one-time launch URL, which
 * stays off the command line (another user's `ps` reads argv). A script does it while
 * the page is parsed; a meta refresh waits for the page's load, 15-30 ms later in a
 * fresh profile (interleaved runs: first request at 254-295 ms from spawn against
 * 271-301). The meta refresh stays as the fallback. The URL is pane's own (origin and
 * token), escaped for both places all the same.
 */
export function openerHtml(pageUrl: string): string {
  const attr = pageUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const js = JSON.stringify(pageUrl).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<!doctype html><meta http-equiv="refresh" content="0;url=${attr}"><title>pane</title><script>location.replace(${js})</script>`;
}

export function openAppWindow(browser: string, pageUrl: string): AppWindow {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-chromium-'));
  fs.chmodSync(profile, 0o700);
  const opener = path.join(profile, 'open.html');
  fs.writeFileSync(opener, openerHtml(pageUrl), { mode: 0o600 });
  const root = rootFlags();
  const child = spawn(
    browser,
    [
      ...root.flags,
      `--app=file://${opener}`,
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-sync',
      '--disable-background-networking',
      '--disable-component-update',
      '--class=pane',
      '--window-size=1280,820',
      ...windowFeatureFlags(),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr?.on('data', (b: Buffer) => {
    err = (err + b.toString('utf8')).slice(-STDERR_KEPT);
  });
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
  return { child, exited, cleanup, stderr: () => err, notes: root.notes };
}
