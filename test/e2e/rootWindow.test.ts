// `npm start` as root with a display, as a newcomer in a container or a VM of their own
// meets it: Chromium refuses root unless its sandbox is off, and before this pane said
// only "the browser exited (1)". Now the window opens (--no-sandbox, said once), shown
// on a real X server (Xvfb) by the real system Chromium — no headless, no wrapper — and
// its renderer attaches to the daemon. And a unit check of the flags for other users.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { descendantsOf } from '../../bench/procs';
import { openerHtml, rootFlags } from '../../electron/chromium';
import { DISABLED_FEATURES } from '../../electron/windowFlags';
import { ensureBuilt, root } from './shell';

const isRoot = process.getuid?.() === 0;
const xvfb = spawnSync('Xvfb', ['-help']).error === undefined;
const chromium = fs.existsSync('/usr/bin/chromium');
const why = !isRoot ? 'not root' : !xvfb ? 'no Xvfb' : !chromium ? 'no /usr/bin/chromium' : null;

const procs: ChildProcess[] = [];
let dir = '';
afterAll(async () => {
  if (dir) spawnSync(process.execPath, [path.join(root, 'dist/pane.mjs'), 'stop', '--yes'], { env: envOf(), timeout: 15_000 });
  for (const p of procs.reverse()) if (p.exitCode === null && p.signalCode === null) p.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  // Chromium's helpers can still write into its profile for a moment after it ends (ENOTEMPTY): retried, then left to the system's tmp cleaning.
  try {
    if (dir) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch {
    // a private temp dir left behind is not a failed test
  }
});

const envOf = (display = ':0') => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: dir,
  SHELL: '/bin/bash',
  LANG: 'C.UTF-8',
  TMPDIR: dir,
  DISPLAY: display,
  XDG_RUNTIME_DIR: path.join(dir, 'run'),
  XDG_CONFIG_HOME: path.join(dir, 'config'),
  XDG_DATA_HOME: path.join(dir, 'data'),
  XDG_STATE_HOME: path.join(dir, 'state'),
});

describe('Chromium flags', () => {
  it('turns Chromium’s own sandbox off for root only, and says so', () => {
    expect(rootFlags(0).flags).toEqual(['--no-sandbox']);
    expect(rootFlags(0).notes[0]).toMatch(/running as root: Chromium's own sandbox is off/);
    expect(rootFlags(1000)).toEqual({ flags: [], notes: [] });
  });

  it('opens the launch URL from a page whose script and meta refresh keep the URL as data', () => {
    const url = 'http://127.0.0.1:9/?launch=t"></script><script>alert(1)</script>&x=\u2028<b>';
    const html = openerHtml(url);
    // One script element, pane's own; the URL cannot end it or the attribute it sits in.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html.endsWith('</script>')).toBe(true);
    const script = html.slice(html.indexOf('<script>') + 8, -9);
    expect(script.startsWith('location.replace(')).toBe(true);
    expect(JSON.parse(script.slice('location.replace('.length, -1))).toBe(url);
    const attr = /content="0;url=([^"]*)"/.exec(html)![1]!;
    expect(attr.replace(/&lt;/g, '<').replace(/&quot;/g, '"').replace(/&amp;/g, '&')).toBe(url);
  });
});

describe.skipIf(why !== null)(`npm start as root on a real X display${why ? ` (skipped: ${why})` : ''}`, () => {
  it('opens the window (Chromium with --no-sandbox, said once) and its renderer attaches to the daemon', async () => {
    ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-root-'));
    const display = `:${90 + (process.pid % 9)}`;
    const x = spawn('Xvfb', [display, '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    procs.push(x);
    await new Promise((r) => setTimeout(r, 800));
    let out = '';
    const start = spawn(process.execPath, [path.join(root, 'dist/start.mjs')], { env: envOf(display), stdio: ['ignore', 'pipe', 'pipe'] });
    procs.push(start);
    start.stdout!.on('data', (b: Buffer) => (out += String(b)));
    start.stderr!.on('data', (b: Buffer) => (out += String(b)));
    const pane = (args: string[]) => spawnSync(process.execPath, [path.join(root, 'dist/pane.mjs'), ...args], { env: envOf(display), encoding: 'utf8', timeout: 15_000 });
    const deadline = Date.now() + 60_000;
    let clients = '';
    while (Date.now() < deadline && !/renderer/.test(clients)) {
      if (start.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 500));
      clients = pane(['cat', '/server/clients']).stdout;
    }
    expect(clients, `start.mjs said:\n${out}`).toMatch(/renderer/);
    // The window's browser runs without the input-time task deferral that held echoes back a frame (electron/windowFlags.ts).
    const argvOf = (pid: number) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      } catch {
        return [];
      }
    };
    const browser = descendantsOf(start.pid!).map(argvOf).find((a) => a.some((x) => x.startsWith('--app=file://')));
    expect(browser, 'the window browser among start.mjs\'s processes').toBeDefined();
    expect(browser).toContain(`--disable-features=${DISABLED_FEATURES.join(',')}`);
    expect(out).toMatch(/running as root: Chromium's own sandbox is off \(--no-sandbox\)/);
    expect(out).not.toMatch(/the browser exited/);
  }, 90_000);
});
