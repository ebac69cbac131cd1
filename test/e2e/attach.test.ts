// `npm start -- --attach SOCKET`: a window on a pane server that is already
// running (here `pane serve`), through the bridge that checks the page's secret and
// relays the protocol to the server's unix socket.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, ensureBuilt, root, shot, until, waitScreen } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
const procs: ChildProcess[] = [];
let dir: string;
let context: BrowserContext;

function run(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<string> {
  const p = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  procs.push(p);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready: ${out}`)), 20_000);
    const on = (b: Buffer) => {
      out += b.toString();
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] ?? m[0]);
      }
    };
    p.stdout!.on('data', on);
    p.stderr!.on('data', on);
  });
}

describe.skipIf(chromiumMissing)(`attaching a window to a running server${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  let url: string;
  beforeAll(async () => {
    ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-attach-'));
    const env = { PATH: process.env.PATH, HOME: dir, SHELL: '/bin/bash', LANG: 'C.UTF-8', XDG_RUNTIME_DIR: path.join(dir, 'run'), XDG_CONFIG_HOME: path.join(dir, 'config') };
    const sock = path.join(dir, 's.sock');
    await run([path.join(root, 'dist/pane.mjs'), 'serve', '--socket', sock], env, /listening/);
    url = await run([path.join(root, 'dist/start.mjs'), '--serve', '--attach', sock], env, /serving the window at (\S+)/);
    context = await chromium.launchPersistentContext(path.join(dir, 'profile'), { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1000, height: 640 } });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await Promise.all(
      procs.map((p) => (p.exitCode !== null ? undefined : new Promise((r) => {
        p.once('exit', r);
        p.kill('SIGTERM');
        setTimeout(r, 5000);
      }))),
    );
    if (dir) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 });
  });

  it('refuses a page without the launch cookie', async () => {
    const page = await context.newPage();
    await page.goto(new URL(url).origin + '/');
    await until(page, 'the refusal', () => (window as any).pane.store.getState().conn.state === 'closed');
    // The store turns 'closed' a render before the hint says so: wait for the words.
    const hint = page.getByRole('status').filter({ hasText: /no connection/ }).first();
    await hint.waitFor({ timeout: 10_000 });
    expect(await hint.innerText()).toMatch(/no connection to the pane server/);
    await page.close();
  });

  it('shows and drives the running server’s panes', async () => {
    const page = await context.newPage();
    await page.goto(url);
    const n = (await until(page, 'a pane', () => {
      const st = (window as any).pane.store.getState();
      return st.conn.state === 'open' ? (st.sessions[st.sessionId]?.focused as number | null) : null;
    }))!;
    await waitScreen(page, n, /[$#] $/m);
    await page.keyboard.type('echo via-bridge\n');
    await waitScreen(page, n, /^via-bridge$/m);
    await shot(page, 'e2e-40-attach');
  });
});
