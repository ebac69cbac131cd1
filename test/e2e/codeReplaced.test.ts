// An update while the daemon runs: pane's files are replaced (git pull and npm start's
// rebuild, npm i -g, apt upgrade), the daemon runs on with the old code, and a window or
// CLI of the new code talks to it. It is said where the person looks: `pane info`, the
// next `npm start`, and the window. Driven as a person does: `npm start`'s entry from an
// installed copy of dist/ (so its files can be replaced here), the window in Chromium.
import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, ensureBuilt, root, shot, until } from './shell';
import { desktopEnv, endDaemon, npmStart as startAt, said } from './launcher';

/* eslint-disable @typescript-eslint/no-explicit-any */
let dir: string;
let pkg: string;
let env: NodeJS.ProcessEnv;
let context: BrowserContext;
const started: ChildProcess[] = [];

const pane = (...args: string[]) => spawnSync(process.execPath, [path.join(pkg, 'dist/pane.cjs'), ...args], { env, encoding: 'utf8', timeout: 15_000 });

/** `npm start` of the installed copy: a new opened.html is awaited (the first window's stays open). */
async function npmStart(): Promise<{ url: string; out: () => string }> {
  fs.rmSync(path.join(dir, 'opened.html'), { force: true });
  const r = await startAt(path.join(pkg, 'dist/start.mjs'), env, dir);
  started.push(r.proc);
  return r;
}

/** Every code file of the copy's dist/ written again: with the same text (a rebuild that changed nothing), or with more (an update). */
function rebuild(change: boolean): void {
  const d = path.join(pkg, 'dist');
  for (const f of [...fs.readdirSync(d).map((x) => path.join(d, x)), ...fs.readdirSync(path.join(d, 'chunks')).map((x) => path.join(d, 'chunks', x))]) {
    if (!/\.(mjs|cjs)$/.test(f)) continue;
    const text = fs.readFileSync(f, 'utf8');
    fs.writeFileSync(f, change ? `${text}\n// rebuilt\n` : text);
    const t = Date.now() / 1000 + 2;
    fs.utimesSync(f, t, t);
  }
}

describe.skipIf(chromiumMissing)(`a daemon that outlived an update${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-update-'));
    // An installed pane: its dist/ and package.json; its dependencies are the checkout's.
    pkg = path.join(dir, 'pkg');
    fs.mkdirSync(pkg);
    fs.cpSync(path.join(root, 'dist'), path.join(pkg, 'dist'), { recursive: true, filter: (f) => !f.endsWith('.map') && !f.endsWith('bench.mjs') });
    fs.copyFileSync(path.join(root, 'package.json'), path.join(pkg, 'package.json'));
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(pkg, 'node_modules'));
    fs.cpSync(path.join(root, 'apps'), path.join(pkg, 'apps'), { recursive: true });
    env = desktopEnv(dir, '/bin/sh');
    context = await chromium.launchPersistentContext(path.join(dir, 'profile'), { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1000, height: 640 } });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill();
    await endDaemon(dir, pane);
  });

  it('says so in pane info, at the next npm start and in the window; a rebuild that changed nothing says nothing', async () => {
    const first = await npmStart();
    await said(first.out, /started the pane daemon/);
    const info = pane('info');
    expect(info.status, info.stderr).toBe(0);
    expect(info.stdout).not.toMatch(/code it started with/);

    // Rebuilt with no change (npm start's build wrote the same chunks again): nothing to say.
    rebuild(false);
    expect(pane('info').stdout).not.toMatch(/code it started with/);

    // Updated: the daemon's code on disk is not what it runs.
    rebuild(true);
    const after = pane('info');
    expect(after.stdout).toMatch(/^version: +\S+ \(protocol \d+\), but it runs the code it started with: pane was updated or rebuilt since/m);
    expect(after.stdout).toMatch(/To run the new code: pane stop, then start pane again/);
    expect(JSON.parse(pane('info', '--json').stdout).codeReplaced).toBe(true);

    // The next npm start finds it and says so, and so does its window.
    const second = await npmStart();
    expect(await said(second.out, /the pane daemon is running, but it runs the code it started with/)).toMatch(/found the pane daemon running/);
    const page = await context.newPage();
    await page.goto(second.url);
    await until(page, 'the window connected', () => (window as any).pane.store.getState().conn.state === 'open');
    const notice = page.locator('.notice-strip .notice[data-key="conn:old-code"]');
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).toMatch(/^pane was updated: restart its server to run the new code \(pane stop, then start pane/);
    await shot(page, 'e2e-code-replaced');
    await page.close();
  }, 120_000);
});
