// The renderer benches' harness: a real `pane serve --http` process, Debian's
// Chromium driven over a bare DevTools pipe (bench/cdp.ts: no Network domain,
// as no user's window has one) on the page it serves, and an in-page probe
// that times each pane's xterm write callbacks (the renderer is not changed for it).
/* eslint-disable @typescript-eslint/no-explicit-any */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, type BareBrowser, type BarePage as Page } from './cdp';
import type { Connection } from '../kits/client/connection';
import { client, descendantsOf, isolatedEnv, paneBin, sleep } from './procs';
import { windowFeatureFlags } from '../electron/windowFlags';

export const CHROMIUM = process.env.PANE_CHROMIUM ?? '/usr/bin/chromium';
/** The browser the benches drive: the flags the brief names, and the features the pane window turns off (what a user's window runs with). */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...windowFeatureFlags()];
export const VIEWPORT = { width: 1280, height: 800 };

export interface Served {
  proc: ChildProcess;
  socket: string;
  url: string;
  dir: string;
  stop(): Promise<void>;
}

/** `pane serve --socket S --http 0` with a bash session, as the Chromium host runs it; resolves once it prints its URL. */
export async function serveHttp(dir: string, bin = paneBin, extraEnv: NodeJS.ProcessEnv = {}): Promise<Served> {
  fs.mkdirSync(dir, { recursive: true });
  const socket = path.join(dir, 's.sock');
  const env: NodeJS.ProcessEnv = { ...isolatedEnv(dir), ...extraEnv };
  const proc = spawn(process.execPath, [bin, 'serve', '--socket', socket, '--http', '0'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pane serve did not start: ${out}`)), 20_000);
    proc.stderr!.on('data', (b: Buffer) => {
      out += String(b);
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?launch=\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.once('exit', (code) => reject(new Error(`pane serve exited (${code}): ${out}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
      setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
    });
  return { proc, socket, url, dir, stop };
}

/** A fresh Chromium profile (as `npm start` gives each launch) with one page. */
export async function openBrowser(profile: string): Promise<{ browser: BareBrowser; page: Page }> {
  const browser = await launchChromium(CHROMIUM, CHROMIUM_ARGS, profile, VIEWPORT);
  browser.page.on('pageerror', (e) => console.error(`bench page error: ${e.message}`));
  return { browser, page: browser.page };
}

/** The floor beside the page benches: the same Chromium, a fresh profile, a blank page drawn. The browser is left open (for a memory reading). */
export async function blankPage(profile: string): Promise<{ ms: number; browser: BareBrowser }> {
  const t0 = performance.now();
  const { browser, page } = await openBrowser(profile);
  await page.goto('data:text/html,<p>ready</p>');
  await page.waitForFunction(() => document.readyState === 'complete' && new Promise((res) => requestAnimationFrame(() => res(true))));
  return { ms: performance.now() - t0, browser };
}

export interface Shell {
  served: Served;
  browser: BareBrowser;
  page: Page;
  /** A bench client over the unix socket, to launch and arrange panes. */
  c: Connection;
  /** The session's first pane (a bash shell). */
  first: number;
  /** Process start → URL printed, → browser up, → prompt visible in the page (ms); in the page from navigation: DOMContentLoaded, prompt. */
  timings: { served: number; browser: number; prompt: number; dcl: number; pagePrompt: number };
  close(): Promise<void>;
}

/**
 * Cold start of the Chromium host: server process and browser started together
 * (as `npm start` does, electron/start.ts), then the page, until the shell's
 * prompt is in the page's xterm.
 */
export async function openShell(dir: string, bin = paneBin, extraEnv: NodeJS.ProcessEnv = {}): Promise<Shell> {
  const t0 = performance.now();
  let tServed = 0;
  let tBrowser = 0;
  const [s, b] = await Promise.allSettled([
    serveHttp(dir, bin, extraEnv).finally(() => (tServed = performance.now() - t0)),
    openBrowser(path.join(dir, 'profile')).finally(() => (tBrowser = performance.now() - t0)),
  ]);
  if (s.status === 'rejected' || b.status === 'rejected') {
    // One failed: end the other, which this bench started.
    if (s.status === 'fulfilled') await s.value.stop();
    if (b.status === 'fulfilled') await b.value.browser.close().catch(() => undefined);
    throw s.status === 'rejected' ? s.reason : (b as PromiseRejectedResult).reason;
  }
  const served = s.value;
  const { browser, page } = b.value;
  // A loopback link, said rather than measured: a window that measures its link slow at connect (a loaded
  // moment) measures it again and re-attaches its panes when it proves fast (net/link.ts), which would
  // rebuild a terminal whose writes a probe here has wrapped. Every run pulls the same history this way.
  await page.goto(`${served.url}${served.url.includes('?') ? '&' : '?'}link=fast`);
  const first = await page.waitForFunction(
    () => {
      const p = (window as any).pane;
      const st = p?.store.getState();
      const s = st?.sessions[st.sessionId];
      const n = s?.focused;
      return st?.conn.state === 'open' && n != null && /[$#] $/m.test(p.screen(n) ?? '') ? (n as number) : null;
    },
    undefined,
    { timeout: 30_000, polling: 'raf' },
  );
  const tPrompt = performance.now() - t0;
  // The page's own view, from its navigation start: script loaded and run (DOMContentLoaded), prompt seen.
  const inPage = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return { dcl: nav?.domContentLoadedEventEnd ?? Number.NaN, prompt: performance.now() };
  });
  const c = await client(served.socket, 'bench-renderer');
  await c.call('events/subscribe', { families: ['pane'] });
  return {
    served,
    browser,
    page,
    c,
    first,
    timings: { served: tServed, browser: tBrowser, prompt: tPrompt, dcl: inPage.dcl, pagePrompt: inPage.prompt },
    async close() {
      c.close();
      await browser.close().catch(() => undefined);
      await served.stop();
    },
  };
}

/** Launches a program in a new pane beside `beside` and waits until the page has attached a terminal to it. */
export async function launchPane(sh: Shell, args: string[], beside = sh.first, direction: 'horizontal' | 'vertical' = 'horizontal'): Promise<number> {
  const { pane } = await sh.c.call('pane/launch', { pane: beside, direction, launch: { program: args[0]!, args: args.slice(1) } });
  await sh.page.waitForFunction((n) => (window as any).pane.screen(n) !== null && (window as any).pane.term(n)?.element != null, pane, { timeout: 15_000, polling: 50 });
  return pane;
}

/**
 * Installs the probe in the page (idempotent) and wraps pane n's xterm `write`
 * so each write callback (xterm has parsed that data) is counted and timed, and
 * (when asked) watched for a piece of text.
 * Per pane: bytes parsed, time of the last callback; an armed echo records, for
 * the first callback after a keydown, key → parsed and key → next animation frame
 * (a rAF queued from the callback runs after xterm's own render in that frame).
 * Key times are the keydown's event.timeStamp: when the browser took the input,
 * so time spent queued behind a busy main thread counts.
 */
export async function watchPane(page: Page, n: number): Promise<void> {
  const ok = await page.evaluate((pane) => {
    const w = window as any;
    if (!w.__pb) {
      const pb: any = { panes: {}, keyAt: 0, key: '', bytesAtKey: {} };
      window.addEventListener(
        'keydown',
        (e) => {
          pb.keyAt = e.timeStamp;
          pb.key = e.key;
          pb.bytesAtKey = {};
          for (const [k, s] of Object.entries(pb.panes)) pb.bytesAtKey[k] = (s as { bytes: number }).bytes;
        },
        true,
      );
      w.__pb = pb;
      // Where an echo's time goes: when the key's bytes left for the server, and when the server's answer reached the page.
      const c = w.pane.client;
      const send = c.sendInput.bind(c);
      c.sendInput = (p: number, d: Uint8Array) => {
        const a = pb.panes[p]?.arm;
        if (a && a.sent < 0) a.sent = performance.now();
        return send(p, d);
      };
      const output = c.outputCb;
      c.outputCb = (p: number, o: number, d: Uint8Array) => {
        const a = pb.panes[p]?.arm;
        if (a && a.sent >= 0 && a.recv < 0) a.recv = performance.now();
        output(p, o, d);
      };
    }
    const term = w.pane.term(pane);
    if (!term) return false;
    if (term.__pbWrapped) return true;
    const st = {
      bytes: 0,
      last: 0,
      arm: null as null | { key: number; handled: number; sent: number; recv: number; keyFrame: number },
      echoes: [] as Echo[],
      // Text to wait for (decoded only while wanted), and who to tell when it is parsed.
      want: null as null | string,
      tail: '',
      seen: null as null | ((t: number) => void),
      // Starvation: time with every written byte parsed, waiting for the next write.
      submitted: 0,
      starved: 0,
      starvedSince: -1,
    };
    const dec = new TextDecoder();
    w.__pb.panes[pane] = st;
    const orig = term.write.bind(term);
    term.write = (data: string | Uint8Array, cb?: () => void) => {
      const n = typeof data === 'string' ? data.length : data.byteLength;
      if (st.starvedSince >= 0) st.starved += performance.now() - st.starvedSince;
      st.starvedSince = -1;
      st.submitted += n;
      return orig(data, () => {
        const now = performance.now();
        st.bytes += n;
        if (st.bytes === st.submitted) st.starvedSince = now;
        st.last = now;
        const a = st.arm;
        if (a) {
          st.arm = null;
          const key = a.key;
          requestAnimationFrame((ts: number) =>
            st.echoes.push({ parsed: now - key, frame: performance.now() - key, late: Math.max(0, Math.round((ts - a.keyFrame) / (1000 / 60))), handled: a.handled - key, sent: a.sent - key, recv: a.recv - key }),
          );
        }
        if (st.want !== null) {
          st.tail = (st.tail + (typeof data === 'string' ? data : dec.decode(data))).slice(-256);
          if (st.tail.includes(st.want)) {
            st.want = null;
            st.seen?.(now);
          }
        }
        cb?.();
      });
    };
    term.__pbWrapped = true;
    return true;
  }, n);
  if (!ok) throw new Error(`bench: pane ${n} has no terminal in the page`);
}

/** Focuses pane n's terminal in the page (keys typed go to it). */
export async function focusTerm(page: Page, n: number): Promise<void> {
  await page.evaluate((p) => (window as any).pane.term(p).focus(), n);
  await page.waitForFunction((p) => document.activeElement === (window as any).pane.term(p).textarea, n, { polling: 20 });
}

/** One echo's times, in ms from the key's event time stamp (when the browser took it). */
export interface Echo {
  /** The echo parsed into the pane's xterm. */
  parsed: number;
  /** The next frame after that. */
  frame: number;
  /** Frames the echo came after the key's own next frame: 0 when drawn on the first frame after the key. */
  late: number;
  /** The page's keydown handlers ran (the key waited this long for the main thread). */
  handled: number;
  /** The key's bytes went to the socket. */
  sent: number;
  /** The first output after it reached the page (the server's round trip ends). */
  recv: number;
}

/**
 * One keystroke echo: presses `key` (a real input event through the browser)
 * and waits for the pane's next write callback. Returns ms from the keydown to
 * parsed, to the next frame, and the steps between.
 */
export async function echoOnce(page: Page, n: number, key = 'a'): Promise<Echo> {
  const before = await page.evaluate((p) => {
    const w = window as any;
    const st = w.__pb.panes[p];
    // Armed when the key arrives: the keydown listener runs before xterm sends it.
    const arm = (e: KeyboardEvent) => {
      if (e.key.length === 1) {
        const a = { key: e.timeStamp, handled: performance.now(), sent: -1, recv: -1, keyFrame: -1 };
        st.arm = a;
        // The first frame that can show the key's echo (callbacks of one frame share its time): the next one
        // requested from here, unless that frame had begun before the key was handled (Chromium may hand input
        // to the page inside a frame), which cannot show what the key has not yet caused: then the one after.
        requestAnimationFrame((ts: number) => (a.keyFrame = ts < a.handled ? ts + 1000 / 60 : ts));
      }
      window.removeEventListener('keydown', arm, true);
    };
    window.addEventListener('keydown', arm, true);
    return st.echoes.length;
  }, n);
  await page.keyboard.press(key);
  return page.waitForFunction(([p, k]) => (window as any).__pb.panes[p].echoes[k] as Echo | undefined, [n, before] as const, { polling: 5, timeout: 10_000 });
}

/** Bytes parsed so far in pane n and the time of the last write callback (page clock). */
export async function parsedState(page: Page, n: number): Promise<{ bytes: number; last: number; now: number; keyAt: number; bytesAtKey: number; starved: number }> {
  return page.evaluate((p) => {
    const w = window as any;
    const st = w.__pb.panes[p];
    return { bytes: st.bytes, last: st.last, now: performance.now(), keyAt: w.__pb.keyAt, bytesAtKey: w.__pb.bytesAtKey?.[p] ?? 0, starved: st.starved };
  }, n);
}

/** Waits until pane n has had no write callback for `quietMs`; returns the last callback's time (page clock). */
export async function waitQuiet(page: Page, n: number, quietMs: number, timeoutMs = 20_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await parsedState(page, n);
    if (s.now - s.last >= quietMs) return s.last;
    if (Date.now() > deadline) throw new Error(`bench: pane ${n} never went quiet`);
    await sleep(Math.max(10, quietMs - (s.now - s.last)));
  }
}

/** Waits until pane n has parsed `bytes` past `from` (a flood under way: flow control has engaged); throws naming `what` after timeoutMs. */
export async function waitParsedPast(page: Page, n: number, from: number, bytes: number, timeoutMs: number, what: string): Promise<void> {
  for (const d = Date.now() + timeoutMs; (await parsedState(page, n)).bytes - from < bytes; ) {
    if (Date.now() > d) throw new Error(`bench: ${what} never reached the page`);
    await sleep(20);
  }
}

/**
 * Ctrl-C typed through the page into pane n (focused, watched): ms from the key's
 * event to the last byte its xterm parsed before `quietMs` of silence, and the bytes
 * parsed after the key.
 */
export async function interruptToQuiet(page: Page, n: number, quietMs: number): Promise<{ ms: number; after: number; prompt: boolean }> {
  await page.keyboard.press('Control+c');
  const { keyAt, bytesAtKey } = await parsedState(page, n);
  const last = await waitQuiet(page, n, quietMs);
  // Quiet, the shell's prompt ($ or #, the bench's PS1) ends the screen: an interrupt that drew no prompt lost what the key brought.
  const prompt = await page.evaluate((p) => /[$#]\s*$/.test(((window as any).pane.screen(p) ?? '').trimEnd()), n);
  return { ms: Math.max(0, last - keyAt), after: (await parsedState(page, n)).bytes - bytesAtKey, prompt };
}

/** `k of n` cycles whose interrupt left no prompt on screen (aim: none). */
export function noPrompt(prompts: boolean[]): string {
  return `${prompts.filter((x) => !x).length} of ${prompts.length}`;
}

/** Sum of Pss (kB → bytes) over a process and all its descendants (Linux /proc/PID/smaps_rollup). */
export function pssOfTree(pid: number): number {
  return [pid, ...descendantsOf(pid)].reduce((sum, p) => sum + pssOf(p), 0);
}

export function pssOf(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
