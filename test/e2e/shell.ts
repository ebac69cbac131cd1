// End-to-end harness: the real shell served by a real server. Starts the built
// `npm start` entry in serve-only mode (dist/start.mjs --serve) on a temp socket and
// config dir, drives Debian's Chromium with playwright-core, and offers helpers that
// read the store and each terminal's buffer through the page's window.pane hook.
// (Functions passed to page.evaluate run in the page, so they name `window` directly.)
/* eslint-disable @typescript-eslint/no-explicit-any */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { descendantsOf, pidAlive } from '../../bench/procs';
import { windowFeatureFlags } from '../../electron/windowFlags';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM = process.env.PANE_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(root, 'test-results');
export const chromiumMissing = !fs.existsSync(CHROMIUM);
/** How long a stopped server's pane programs get to end (50 ms polls, 5 s) before its directory is removed. */
const PROGRAMS_END_POLLS = 100;
/** The flags the brief names for the test browser, and the features the pane window turns off (the window as users get it). */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...windowFeatureFlags()];

/** Builds dist/ once if a test run starts without it (npm test builds first anyway). */
export function ensureBuilt(): void {
  if (fs.existsSync(path.join(root, 'dist/start.mjs')) && fs.existsSync(path.join(root, 'dist/renderer/index.html'))) return;
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--quiet'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (r.status !== 0) throw new Error('npm run build failed');
}

export interface Served {
  url: string;
  dir: string;
  socket: string;
  configDir: string;
  proc: ChildProcess;
  env: NodeJS.ProcessEnv;
  cli(...args: string[]): { code: number; stdout: string; stderr: string };
  /** The same, with `input` on its stdin. */
  cliIn(input: string, ...args: string[]): { code: number; stdout: string; stderr: string };
  stop(): Promise<void>;
}

/**
 * Starts a server serving the window over HTTP: through the same entry as
 * `npm start`, or (`entry: 'cli'`) as `pane serve --http 0`, the CLI's own server.
 */
export async function serve(o: { keymap?: unknown; entry?: 'start' | 'cli'; /** Files put in the server's HOME before it starts (name → text), e.g. a .bashrc for its shells. */ home?: Record<string, string> } = {}): Promise<Served> {
  ensureBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-e2e-'));
  const configDir = path.join(dir, 'config', 'pane');
  fs.mkdirSync(configDir, { recursive: true });
  if (o.keymap !== undefined) fs.writeFileSync(path.join(configDir, 'keymap.json'), JSON.stringify(o.keymap));
  for (const [name, text] of Object.entries(o.home ?? {})) fs.writeFileSync(path.join(dir, name), text);
  const socket = path.join(dir, 's.sock');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    LANG: 'C.UTF-8',
    SHELL: '/bin/bash',
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_DATA_HOME: path.join(dir, 'data'),
    XDG_RUNTIME_DIR: path.join(dir, 'run'),
  };
  // The CLI runs as a user's shell runs it, through its shebang; start.mjs is what `npm start` runs with node.
  const [cmd, ...args] = o.entry === 'cli' ? [path.join(root, 'dist/pane.cjs'), 'serve', '--socket', socket, '--http', '0'] : [process.execPath, path.join(root, 'dist/start.mjs'), '--serve', '--socket', socket];
  const proc = spawn(cmd as string, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 20_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /serving the window at (\S+)/.exec(out) ?? /(http:\/\/127\.0\.0\.1:\d+\/\?launch=\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
  const cliIn = (input: string, ...args: string[]) => {
    const r = spawnSync(path.join(root, 'dist/pane.mjs'), ['--socket', socket, ...args], { env, encoding: 'utf8', timeout: 15_000, input });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  };
  const cli = (...args: string[]) => cliIn('', ...args);
  const stop = async () => {
    // The server's pane programs can outlive it by a moment (bash writes $HOME/.bash_history
    // on its hangup), and a file written meanwhile makes removing `dir` fail: wait for them too.
    const programs = proc.pid ? descendantsOf(proc.pid) : [];
    if (proc.exitCode === null) {
      proc.kill('SIGTERM');
      await new Promise((r) => {
        proc.once('exit', r);
        setTimeout(r, 5000);
      });
    }
    for (let i = 0; i < PROGRAMS_END_POLLS && programs.some(pidAlive); i++) await new Promise((r) => setTimeout(r, 50));
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  return { url, dir, socket, configDir, proc, env, cli, cliIn, stop };
}

export interface Shell extends Served {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Waits for a window to settle: its link judged fast and no pane's attach on its way.
 * On a loaded machine (the CI's) a local window's connect can judge its link slow
 * (the first round trips wait on the daemon's and the page's start): each pane is
 * then attached with its screen alone and, once the link answers fast (net/link.ts
 * LINK_RECHECKS, ~8 s at most), attached again with its history, which rebuilds its
 * terminal and drops its predictive echo's guesses. Tests start after that; the path
 * itself is slowLink.test.ts's. A window whose address says `link=slow` stays slow.
 */
export async function settled(page: Page): Promise<void> {
  await until(
    page,
    'the window to judge its link fast and draw every attach',
    () => {
      const w = window as any;
      const slowSaid = new URLSearchParams(location.search).get('link') === 'slow';
      return (slowSaid || w.pane.store.getState().conn.link?.slow === false) && w.pane.attaching() === 0;
    },
    20_000,
  );
}

/** A server plus a fresh Chromium profile with the window open and connected. */
export async function openShell(o: { keymap?: unknown; viewport?: { width: number; height: number }; /** The screen's device pixel ratio (1 unless given). */ deviceScaleFactor?: number; query?: string; entry?: 'start' | 'cli'; /** A script run in the page before its own. */ init?: string; home?: Record<string, string> } = {}): Promise<Shell> {
  const served = await serve(o);
  const context = await chromium.launchPersistentContext(path.join(served.dir, 'profile'), {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    viewport: o.viewport ?? { width: 1280, height: 800 },
    deviceScaleFactor: o.deviceScaleFactor ?? 1,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  if (o.init) await context.addInitScript(o.init);
  await page.goto(served.url + (o.query ?? ''));
  await until(page, 'the window to connect and show a pane', () => {
    const st = (window as any).pane.store.getState();
    const s = st.sessions[st.sessionId];
    return st.conn.state === 'open' && s?.focused != null && (window as any).pane.screen(s.focused) !== null;
  });
  await settled(page);
  return {
    ...served,
    context,
    page,
    async close() {
      await context.close().catch(() => undefined);
      await served.stop();
    },
  };
}

/** Polls a predicate inside the page until it holds; fails naming what was awaited. */
export async function until<T>(page: Page, what: string, f: () => T, timeoutMs = 15_000): Promise<T> {
  try {
    const h = await page.waitForFunction(f, undefined, { timeout: timeoutMs, polling: 50 });
    return (await h.jsonValue()) as T;
  } catch (e) {
    throw new Error(`timed out waiting for ${what}: ${(e as Error).message.split('\n')[0]}`);
  }
}

export interface View {
  focused: number | null;
  zoomed: number | null;
  tiles: number[];
  floating: { pane: number; x: number; y: number; w: number; h: number }[];
  layout: unknown;
  viewport: { cols: number; rows: number };
}

/** The session as the window holds it. */
export function view(page: Page): Promise<View> {
  return page.evaluate(() => {
    const st = (window as any).pane.store.getState();
    const s = st.sessions[st.sessionId];
    const leaves = (n: { type: string; pane?: number; a?: unknown; b?: unknown } | null): number[] =>
      !n ? [] : n.type === 'leaf' ? [n.pane!] : [...leaves(n.a as never), ...leaves(n.b as never)];
    return { focused: s.focused, zoomed: s.zoomed, tiles: leaves(s.layout), floating: s.floating, layout: s.layout, viewport: s.viewport };
  });
}

/** What pane n's terminal shows (scrollback + screen) in the page. */
export function screen(page: Page, n: number): Promise<string> {
  return page.evaluate((p) => (window as any).pane.screen(p) ?? '', n);
}

/**
 * Waits until pane n's screen (scrollback + screen) shows `needle`, and returns the
 * text that showed it. Not a second read: a program may draw again between the two
 * (vim redrawing as its start-up answers come in), and the caller's checks are about
 * the screen that matched.
 */
export async function waitScreen(page: Page, n: number, needle: string | RegExp, timeoutMs = 15_000): Promise<string> {
  const src = typeof needle === 'string' ? needle : needle.source;
  const flags = typeof needle === 'string' ? null : needle.flags;
  try {
    const matched = await page.waitForFunction(
      ([p, s, f]) => {
        const t: string = (window as any).pane.screen(p) ?? '';
        const hit = f !== null ? new RegExp(s as string, f as string).test(t) : t.includes(s as string);
        return hit ? { t } : false; // an object: an empty screen that matches is still an answer
      },
      [n, src, flags] as const,
      { timeout: timeoutMs, polling: 50 },
    );
    return ((await matched.jsonValue()) as { t: string }).t;
  } catch {
    throw new Error(`pane ${n} never showed ${String(needle)}; it shows:\n${(await screen(page, n)).slice(-800)}`);
  }
}

/** The lines of `text` that are a number from `lo` to `hi` (a screen of `seq` output), in order. */
export function numbersIn(text: string, lo: number, hi: number): number[] {
  return text.split('\n').filter((l) => /^\d+$/.test(l)).map(Number).filter((x) => x >= lo && x <= hi);
}

/**
 * The numbers from `lo` to `hi` on a screen of `seq` output, read in order: how many
 * times they jump forward (a stretch never drawn: what a dropped queue leaves) and go
 * back or repeat (never, but for one line two half-lines joined where a stretch was cut).
 */
export function numberRuns(text: string, lo: number, hi: number): { jumps: number; back: number } {
  const nums = numbersIn(text, lo, hi);
  let jumps = 0;
  let back = 0;
  for (let i = 1; i < nums.length; i++) {
    if (nums[i]! <= nums[i - 1]!) back++;
    else if (nums[i]! - nums[i - 1]! > 1) jumps++;
  }
  return { jumps, back };
}

/** Saves a screenshot under test-results/ and returns its path. */
export async function shot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** The region (pane frame) of pane n. */
export const region = (page: Page, n: number) => page.locator(`section[role="region"][data-pane="${n}"]`);
