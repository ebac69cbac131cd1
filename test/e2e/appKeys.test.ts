// Keys the shell needs reach it in the real Chromium --app window, not only in a
// headless page: Ctrl+W, Ctrl+N and Ctrl+T are browser shortcuts (close, new window,
// new tab) that synthetic (CDP) key events never trigger, so this test sends real X
// key events with xdotool to a real (non-headless) Chromium under Xvfb, opened by
// electron/chromium.ts exactly as `npm start` opens it, and reads what the shell got.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppWindow, type AppWindow } from '../../electron/chromium';
import { CHROMIUM, chromiumMissing, serve, type Served } from './shell';

const missing = [chromiumMissing ? `chromium (${CHROMIUM})` : '', spawnSync('Xvfb', ['-help']).error ? 'Xvfb (xvfb)' : '', spawnSync('xdotool', ['version']).error ? 'xdotool' : ''].filter(Boolean);

let served: Served;
let xvfb: ChildProcess;
let win: AppWindow;
let display = '';
/** How long the window gets to map, connect and take the keyboard, all told. */
const READY_MS = 100_000;
/** How many times a browser that exited finding no X server is started again: a display that answered and then refused once is a hiccup, twice more is the machine. */
const BROWSER_RELAUNCHES = 2;

const xdo = (...args: string[]) => spawnSync('xdotool', args, { env: { ...process.env, DISPLAY: display }, encoding: 'utf8', timeout: 10_000 });
const windows = () => xdo('search', '--onlyvisible', '--class', 'pane').stdout.trim().split('\n').filter(Boolean);
const screenText = () => served.cli('screen', '-t', '1').stdout;

async function poll<T>(what: string, f: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(missing.length > 0)(`browser shortcuts in the --app window${missing.length ? ` (skipped: missing ${missing.join(', ')})` : ''}`, () => {
  beforeAll(async () => {
    served = await serve();
    // Xvfb picks a free display and writes its number to fd 3.
    xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x820x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    display = `:${await new Promise<string>((resolve, reject) => {
      let out = '';
      xvfb.stdio[3]!.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
      xvfb.once('exit', (c) => reject(new Error(`Xvfb exited (${c})`)));
    })}`;
    // The browser as `npm start` runs it; as root Chromium also needs --no-sandbox.
    const wrapper = path.join(served.dir, 'chromium');
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec ${CHROMIUM} ${process.getuid?.() === 0 ? '--no-sandbox ' : ''}--disable-gpu "$@"\n`, { mode: 0o755 });
    const open = () => {
      const before = process.env.DISPLAY;
      process.env.DISPLAY = display;
      try {
        return openAppWindow(wrapper, served.url);
      } finally {
        if (before === undefined) delete process.env.DISPLAY;
        else process.env.DISPLAY = before;
      }
    };
    // One budget for the whole wait, however it splits between a fresh Chromium's first
    // window under Xvfb, its page connecting, and the keyboard: under a CI run's load any
    // one step has taken most of a minute (fixed 60 s / 40 s slices once ran out).
    const ready = Date.now() + READY_MS;
    const left = () => Math.max(1000, ready - Date.now());
    // The display answers a client before the browser is started on it (Xvfb names its
    // display once it listens; a client that asks shows it serves).
    await poll('the display to answer', () => xdo('getdisplaygeometry').status === 0, left());
    win = open();
    // A browser that found no X server (it once did, under a CI run's load, on a display
    // that had answered) is started again, a bounded number of times, before the wait fails.
    let relaunches = 0;
    const mapped = await poll('the pane window', () => {
      if (win.child.exitCode !== null && /Missing X server/.test(win.stderr()) && relaunches < BROWSER_RELAUNCHES) {
        relaunches++;
        win.cleanup();
        win = open();
      }
      return windows()[0];
    }, left()).catch((e: Error) => {
      // Say what there was instead: whether Chromium still runs, what it printed, and which windows the display has.
      const all = xdo('search', '--name', '.').stdout.trim().split('\n').filter(Boolean);
      const names = all.map((w) => `${w} ${JSON.stringify(xdo('getwindowname', w).stdout.trim())}${windows().includes(w) ? ' (pane)' : ''}`);
      throw new Error(`${e.message}: Chromium ${win.child.exitCode === null ? 'still runs' : `exited ${win.child.exitCode}`} (started again ${relaunches} times); windows: ${names.join(', ') || 'none'}; its stderr ends:\n${win.stderr().slice(-2000)}`);
    });
    xdo('windowfocus', '--sync', mapped);
    // The page is connected when the server lists its renderer among its clients.
    await poll('the window to connect', () => /renderer/.test(served.cli('cat', '/server/clients').stdout), left());
    // It has the keyboard when typing in it reaches the shell.
    let tries = 0;
    await poll('typing to reach the shell', () => {
      // Focus again each try, on the window visible now: under load the window can map before it takes the keyboard, and a lost focus would lose every try after.
      tries++;
      const w = windows()[0];
      if (w) xdo('windowfocus', w);
      xdo('type', '--delay', '20', 'echo re""ady');
      xdo('key', 'Return');
      return /\nready\n/.test(screenText());
    }, left()).catch((e: Error) => {
      throw new Error(`${e.message} (${tries} tries; windows ${windows().join(' ') || 'none'}); the pane shows:\n${screenText()}`);
    });
  }, READY_MS + 20_000);
  afterAll(async () => {
    try {
      if (win?.child.pid) win.child.kill('SIGTERM');
      await Promise.race([win?.exited, new Promise((r) => setTimeout(r, 3000))]);
      win?.cleanup();
    } finally {
      // Whatever the window's teardown did, the display and the server this test started end too.
      xvfb?.kill('SIGTERM');
      await served?.stop();
    }
  });

  it('delivers Ctrl+W, Ctrl+N and Ctrl+T to the shell, and the window stays the only one', async () => {
    const open = windows().length;
    xdo('type', '--delay', '20', 'cat -v');
    xdo('key', 'Return');
    await poll('cat to start', () => / cat -v\n/.test(screenText()));
    // ^N and ^T are plain characters to cat -v; ^W is the tty's word erase.
    xdo('key', 'ctrl+n', 'ctrl+t', 'Return');
    xdo('type', '--delay', '20', 'keep gone');
    xdo('key', 'ctrl+w', 'Return');
    // cat echoes each line it reads: "keep" alone shows that ^W erased "gone".
    const got = () => {
      const lines = screenText().split('\n').map((l) => l.trimEnd());
      const after = lines.slice(lines.findIndex((l) => l.endsWith('cat -v')));
      return after.join('\n').includes('^N^T\n^N^T') && after.join('\n').includes('keep\nkeep') ? after.join('\n') : undefined;
    };
    const text = await poll('the keys to reach cat', got, 15_000).catch((e: Error) => {
      throw new Error(`${e.message}; the pane shows:\n${screenText()}`);
    });
    expect(text).not.toMatch(/gone/);
    expect(win.child.exitCode).toBeNull();
    expect(windows().length).toBe(open);
    xdo('key', 'ctrl+c');
  }, 60_000);

  it('gives the page its own chords that Chromium also binds (Ctrl+Shift+D: bookmark all tabs)', async () => {
    // The session switcher opens; a name and Enter create the session, which the server then lists.
    // The dialog takes the keyboard a moment after the chord: a try whose letters went elsewhere is retried.
    const made = () => /^viaxkeys\s/m.test(served.cli('session', 'ls').stdout);
    for (let attempt = 0; attempt < 5 && !made(); attempt++) {
      xdo('key', 'Escape', 'ctrl+shift+d');
      xdo('type', '--delay', '40', 'viaxkeys');
      xdo('key', 'Return');
      await poll('the session made through the switcher', made, 3000).catch(() => undefined);
    }
    expect(made()).toBe(true);
    expect(windows().length).toBe(1);
    expect(served.cli('session', 'kill', 'viaxkeys').code).toBe(0);
  }, 30_000);
});
