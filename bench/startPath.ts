// Cold start the way a user starts pane: `node dist/start.mjs` with no daemon running,
// which starts the daemon, the window's bridge and a real Chromium (--app mode, made
// headless by a wrapper given as PANE_BROWSER), until the shell's prompt is in the page.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { connectChromium } from './cdp';
import { blankPage, CHROMIUM } from './page';
import { endPid, isolatedEnv, root, sleep } from './procs';
import { fmt, range, summarize, type Row } from './stats';

/** The launcher timed: this checkout's, or PANE_BENCH_START (another build's dist/start.mjs, for before/after rows in one sitting). */
const START = process.env.PANE_BENCH_START ?? path.join(root, 'dist/start.mjs');
/** How long one cold start may take before the run is called failed (a loaded machine included). */
const START_TIMEOUT_MS = 30_000;

/** Milliseconds from spawning start.mjs, each phase as seen by the process, the daemon's log or the page. */
export interface StartTimeline {
  /** The prompt is in the page's xterm (the figure). */
  prompt: number;
  /** start.mjs said the daemon answers on its socket. */
  daemonUp: number;
  /** start.mjs ran the browser (the wrapper's first line). */
  browserSpawned: number;
  /** The final page's navigation started (after the opener file and the launch redirect). */
  navStart: number;
  /** Its HTML and the bundle's entry script are in (responseEnd of the largest script). */
  scriptLoaded: number;
  /** DOMContentLoaded ended: the module graph has run. */
  dcl: number;
  /** main.tsx began (every module it imports has run) (renderer mark). */
  main: number;
  /** The WebSocket to the bridge is open (renderer mark). */
  ws: number;
  /** The hello answered, through the bridge from the daemon (renderer mark). */
  hello: number;
  /** The subscription's snapshot (and server/info beside it) answered (renderer mark). */
  subscribed: number;
  /** Hello answered and the session's state applied: the window is connected (renderer mark). */
  open: number;
  /** Bytes of JavaScript the page fetched before the prompt. */
  jsBytes: number;
  /** The daemon's own start: its process start → serving with the first shell spawned (its log). */
  daemonReady: number;
}

/** A headless Chromium in the role of the user's browser: start.mjs's flags plus headless and a DevTools port. */
function wrapper(dir: string): string {
  const file = path.join(dir, 'browser.sh');
  fs.writeFileSync(
    file,
    `#!/bin/sh\necho "$(date +%s%3N) $$ $*" > "${dir}/browser.args"\nexec "${CHROMIUM}" --headless --no-sandbox --disable-gpu --remote-debugging-port=0 "$@"\n`,
    { mode: 0o755 },
  );
  return file;
}

async function waitFor<T>(what: string, f: () => T | null | undefined, timeoutMs = START_TIMEOUT_MS): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > end) throw new Error(`cold start: timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** One cold `npm start` in a fresh HOME/XDG tree under `dir`, ended (window, bridge, daemon) before returning. */
export async function npmStartToPrompt(dir: string): Promise<StartTimeline> {
  fs.mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...isolatedEnv(dir),
    TMPDIR: dir,
    DISPLAY: ':0', // said to exist; the wrapper's Chromium is headless
    PANE_BROWSER: wrapper(dir),
    XDG_DATA_HOME: path.join(dir, 'data'),
    XDG_STATE_HOME: path.join(dir, 'state'),
  };
  const t0 = Date.now();
  const proc = spawn(process.execPath, [START], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let daemonUp = Number.NaN;
  proc.stdout!.on('data', (b: Buffer) => {
    out += String(b);
    if (Number.isNaN(daemonUp) && /started the pane daemon|found the pane daemon/.test(out)) daemonUp = Date.now() - t0;
  });
  proc.stderr!.on('data', (b: Buffer) => (out += String(b)));
  let browser: Awaited<ReturnType<typeof connectChromium>> | null = null;
  let browserPid = 0;
  try {
    const argsFile = path.join(dir, 'browser.args');
    const line = await waitFor(`the browser (start.mjs said: ${out})`, () => (fs.existsSync(argsFile) && /--user-data-dir=\S+.*\n/.test(fs.readFileSync(argsFile, 'utf8')) ? fs.readFileSync(argsFile, 'utf8') : null));
    const browserSpawned = Number(line.split(' ')[0]) - t0;
    browserPid = Number(line.split(' ')[1]); // the wrapper's pid is Chromium's: it execs
    const profile = /--user-data-dir=(\S+)/.exec(line)![1]!;
    const portFile = path.join(profile, 'DevToolsActivePort');
    const port = await waitFor('DevToolsActivePort', () => (fs.existsSync(portFile) ? Number(fs.readFileSync(portFile, 'utf8').split('\n')[0]) || null : null));
    browser = await connectChromium(port, START_TIMEOUT_MS);
    // The --app window is the one page; it may navigate while we attach
    // (opener file → launch URL → /), so the waits below check the document itself.
    const page = browser.page;
    await page.waitForFunction(
      () => {
        const p = (window as any).pane;
        const st = p?.store.getState();
        const s = st?.sessions[st.sessionId];
        return st?.conn.state === 'open' && s?.focused != null && /[$#] $/m.test(p.screen(s.focused) ?? '');
      },
      undefined,
      { timeout: START_TIMEOUT_MS, polling: 'raf' },
    );
    const promptAt = Date.now() - t0;
    const inPage = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => r.name.endsWith('.js'));
      const big = scripts.sort((a, b) => b.encodedBodySize - a.encodedBodySize)[0];
      const mark = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? Number.NaN;
      return {
        origin: performance.timeOrigin,
        scriptEnd: big?.responseEnd ?? Number.NaN,
        dcl: nav.domContentLoadedEventEnd,
        main: mark('pane:main'),
        ws: mark('pane:ws'),
        hello: mark('pane:hello'),
        subscribed: mark('pane:subscribed'),
        open: mark('pane:open'),
        jsBytes: scripts.reduce((s, r) => s + r.encodedBodySize, 0),
      };
    });
    const at = (pageMs: number) => inPage.origin + pageMs - t0;
    return {
      prompt: promptAt,
      daemonUp,
      browserSpawned,
      navStart: at(0),
      scriptLoaded: at(inPage.scriptEnd),
      dcl: at(inPage.dcl),
      main: at(inPage.main),
      ws: at(inPage.ws),
      hello: at(inPage.hello),
      subscribed: at(inPage.subscribed),
      open: at(inPage.open),
      jsBytes: inPage.jsBytes,
      daemonReady: daemonReadyMs(dir),
    };
  } finally {
    // Disconnecting leaves a browser we attached to running: end it (and with it its children) by pid.
    browser?.close();
    // A run that failed early may not have read the wrapper's line yet.
    if (!(browserPid > 0) && fs.existsSync(path.join(dir, 'browser.args'))) browserPid = Number(fs.readFileSync(path.join(dir, 'browser.args'), 'utf8').split(' ')[1]);
    if (browserPid > 0) await endPid(browserPid);
    await endPid(proc.pid ?? 0);
    spawnSync(process.execPath, [path.join(path.dirname(START), 'pane.cjs'), 'stop', '--yes'], { env, timeout: 10_000 });
    const pidFile = path.join(dir, 'state', 'pane', 'daemon.pid');
    await endPid(fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0);
  }
}

/** The daemon's own start, process start → serving with its first session (from its log line). */
export function daemonReadyMs(dir: string): number {
  try {
    const log = fs.readFileSync(path.join(dir, 'state', 'pane', 'daemon.log'), 'utf8');
    return Number(/ready (\d+) ms after its start/.exec(log)?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** The floor: the same Chromium, a fresh profile, a blank page drawn. */
async function bareChromium(dir: string): Promise<number> {
  const { ms, browser } = await blankPage(dir);
  await browser.close();
  return ms;
}

/** `start` section: `npm start` → prompt (the aim), its phases, and a bare Chromium in the same runs. */
export async function startRows(dir: string, runs: number): Promise<Row[]> {
  const tl: StartTimeline[] = [];
  const bare: number[] = [];
  for (let r = 0; r < runs; r++) {
    tl.push(await npmStartToPrompt(path.join(dir, `start${r}`)));
    bare.push(await bareChromium(path.join(dir, `bare${r}`)));
  }
  const med = (k: keyof StartTimeline) => fmt(summarize(tl.map((t) => t[k])).median, 0);
  const pr = summarize(tl.map((t) => t.prompt));
  const b = summarize(bare);
  return [
    { bench: '`npm start` (no daemon running) → prompt in Chromium (ms)', figure: range(pr, 0), anchor: `bare Chromium page ${range(b, 0)}`, ratio: `${fmt(pr.median / b.median)}×`, aim: '< 1.2 s' },
    {
      bench: `  phases (ms from spawn, medians): daemon answers ${med('daemonUp')} (its own start ${med('daemonReady')}), browser spawned ${med('browserSpawned')}, page navigation ${med('navStart')}, script in ${med('scriptLoaded')} (${fmt(summarize(tl.map((t) => t.jsBytes)).median / 1024, 0)} KiB JS), modules run ${med('main')}, DOMContentLoaded ${med('dcl')}, WebSocket open ${med('ws')}, hello answered ${med('hello')}, subscribed ${med('subscribed')}, connected ${med('open')}, prompt ${med('prompt')}`,
      figure: '—', anchor: '—', ratio: '—', aim: 'report',
    },
  ];
}
