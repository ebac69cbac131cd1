// `npm run dist`'s .deb: built with dpkg-deb, clean under lintian and
// desktop-file-validate, then (as root) installed with apt-get, driven through
// /usr/bin/pane, its desktop entry's Exec line run under Xvfb until the window
// shows, and removed with dpkg -r whatever happened. Without dpkg-deb, dist says why.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, buildOnce, until } from '../cli/harness';
import { sandboxEnv, serveInstalled, smoke } from './smoke';

/** dist packs and stages a .deb (strip, icons, xz): well under a minute here; generous for CI. */
const DIST_MS = 180_000;
/** apt-get waits this long for another apt run's lock (other suites may be installing packages). */
const APT_LOCK_S = 300;

const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const noDeb = has('dpkg-deb') ? '' : 'dpkg-deb is not installed';
const isRoot = process.getuid?.() === 0;
const preinstalled = spawnSync('dpkg-query', ['-W', '-f', '${Status}', 'pane'], { encoding: 'utf8' }).stdout.includes('install ok installed');
const noInstall = noDeb || (!isRoot ? 'not root, so the .deb is not installed' : preinstalled ? 'a pane package is already installed system-wide; leaving it alone' : !has('apt-get') ? 'no apt-get' : '');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-deb-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function dist(out: string, env: NodeJS.ProcessEnv = process.env) {
  // --no-build: dist/ was built by buildOnce(); a clean rebuild would pull it from under other suites.
  return spawnSync(process.execPath, [path.join(ROOT, 'scripts/dist.mjs'), '--no-build', '--out', out], { cwd: ROOT, encoding: 'utf8', env });
}

describe('npm run dist without dpkg-deb', () => {
  it('builds the tarball, skips the .deb and says why', () => {
    buildOnce();
    // A PATH with node and npm only.
    const bin = path.join(work, 'bin-no-dpkg');
    fs.mkdirSync(bin);
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    fs.symlinkSync(fs.realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim()), path.join(bin, 'npm'));
    const out = path.join(work, 'release-no-dpkg');
    const r = dist(out, { ...process.env, PATH: bin });
    expect(r.stderr.replace(/^npm warn .*\n/gm, '')).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^pane dist: .*pane-[0-9.]+\.tgz \(/m);
    expect(r.stdout).toMatch(/^pane dist: skipped the \.deb: dpkg-deb is not installed/m);
    expect(fs.readdirSync(out).filter((f) => !f.endsWith('.tgz'))).toEqual([]);
  }, DIST_MS);
});

describe.skipIf(noDeb !== '')(`the .deb${noDeb ? ` (skipped: ${noDeb})` : ''}`, () => {
  let deb = '';
  const tree = path.join(work, 'tree');
  beforeAll(() => {
    buildOnce();
    const out = path.join(work, 'release');
    const r = dist(out);
    if (r.status !== 0) throw new Error(`dist failed: ${r.stderr}`);
    deb = path.join(out, fs.readdirSync(out).find((f) => f.endsWith('.deb')) ?? 'no .deb');
    execFileSync('dpkg-deb', ['-x', deb, tree]);
    process.stdout.write(`deb test: ${path.basename(deb)} ${(fs.statSync(deb).size / 1024).toFixed(0)} KiB\n`);
  }, DIST_MS);

  it('holds the program, /usr/bin/pane, the desktop entry, icons, man page and completions', () => {
    for (const f of [
      'usr/bin/pane',
      'usr/lib/pane/dist/pane.cjs',
      'usr/lib/pane/dist/pane.mjs',
      'usr/lib/pane/dist/screenWorker.mjs',
      'usr/lib/pane/dist/renderer/index.html',
      'usr/lib/pane/apps/terminal.json',
      'usr/lib/pane/bin/pane-hook',
      `usr/lib/pane/node_modules/@lydell/node-pty-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}/prebuilds/linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}/pty.node`,
      `usr/lib/pane/node_modules/@koromix/koffi-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}/linux_${process.arch === 'arm64' ? 'arm64' : 'x64'}/koffi.node`,
      'usr/lib/pane/node_modules/koffi/src/koffi/index.cjs',
      'usr/share/applications/pane.desktop',
      'usr/share/icons/hicolor/scalable/apps/pane.svg',
      'usr/share/icons/hicolor/48x48/apps/pane.png',
      'usr/share/man/man1/pane.1.gz',
      'usr/share/bash-completion/completions/pane',
      'usr/share/zsh/vendor-completions/_pane',
      'usr/share/fish/vendor_completions.d/pane.fish',
      'usr/share/doc/pane/copyright',
    ]) {
      expect(fs.existsSync(path.join(tree, f)), f).toBe(true);
    }
    const control = execFileSync('dpkg-deb', ['-f', deb], { encoding: 'utf8' });
    expect(control).toMatch(/^Depends: nodejs \(>= 20\.19\), chromium \| chromium-browser \| google-chrome-stable/m);
    expect(control).toMatch(/^Recommends: fuse3, libfuse2 \| libfuse2t64$/m);
  });

  it("carries koffi whole enough to reach glibc's malloc_trim from the package's own node_modules (decision 051)", () => {
    const probe = "const k = require('koffi'); process.stdout.write(typeof k.load('libc.so.6').func('int malloc_trim(size_t)'))";
    expect(execFileSync(process.execPath, ['-e', probe], { cwd: path.join(tree, 'usr/lib/pane'), encoding: 'utf8' })).toBe('function');
  });

  it.skipIf(!has('lintian'))('is clean under lintian (the tags that stay are overridden with their reasons)', () => {
    const r = spawnSync('lintian', ['--info', deb], { encoding: 'utf8' });
    const tags = `${r.stdout}${r.stderr}`.split('\n').filter((l) => /^[EWIXP]: /.test(l));
    expect(tags).toEqual([]);
  }, 120_000);

  it.skipIf(!has('desktop-file-validate'))('has a desktop entry desktop-file-validate accepts, opening the window with pane start', () => {
    const entry = path.join(tree, 'usr/share/applications/pane.desktop');
    const r = spawnSync('desktop-file-validate', [entry], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(fs.readFileSync(entry, 'utf8')).toMatch(/^Exec=pane start$/m);
  });

  describe.skipIf(noInstall !== '')(`installed with apt-get${noInstall ? ` (skipped: ${noInstall})` : ''}`, () => {
    beforeAll(() => {
      const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', '-o', `DPkg::Lock::Timeout=${APT_LOCK_S}`, deb], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      if (r.status !== 0) throw new Error(`apt-get install ${deb} failed: ${r.stderr}`);
    }, (APT_LOCK_S + 60) * 1000);
    afterAll(() => {
      // Removed whatever the tests did, so no pane stays on the system's PATH.
      const r = spawnSync('dpkg', ['-r', 'pane'], { encoding: 'utf8' });
      if (r.status !== 0) process.stderr.write(`deb test: dpkg -r pane failed: ${r.stderr}\n`);
    }, 120_000);

    it('puts pane(1) where man finds it', () => {
      expect(spawnSync('man', ['-w', 'pane'], { encoding: 'utf8' }).stdout.trim()).toBe('/usr/share/man/man1/pane.1.gz');
    });

    it('serves, opens a pane, types, reads the screen, lists and stops through /usr/bin/pane', async () => {
      const p = await serveInstalled('/usr/bin/pane');
      try {
        await smoke(p);
      } finally {
        await p.stop();
      }
    }, 60_000);

    it.skipIf(!has('xvfb-run'))('runs the desktop entry’s Exec line under Xvfb and the window shows the shell', async () => {
      const dir = fs.mkdtempSync(path.join(work, 'x-'));
      const exec = /^Exec=(.*)$/m.exec(fs.readFileSync('/usr/share/applications/pane.desktop', 'utf8'))?.[1] ?? '';
      const env: Record<string, string> = { ...sandboxEnv(dir, '/usr/bin'), PATH: '/usr/bin:/bin', PANE_EXEC: exec, DISPLAY_FILE: path.join(dir, 'display') };
      const displayFile = path.join(dir, 'display');
      if (isRoot) {
        // Chromium refuses to run as root with its sandbox; a user's desktop is not root.
        const browser = path.join(dir, 'chromium-no-sandbox');
        fs.writeFileSync(browser, '#!/bin/sh\nexec /usr/bin/chromium --no-sandbox "$@"\n', { mode: 0o755 });
        Object.assign(env, { PANE_BROWSER: browser });
      }
      const x = spawn('xvfb-run', ['-a', '-s', '-screen 0 1280x860x24 -ac', 'sh', '-c', 'echo "$DISPLAY" > "$DISPLAY_FILE"; exec sh -c "$PANE_EXEC"'], { env, cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let log = '';
      x.stdout?.on('data', (c) => (log += c));
      x.stderr?.on('data', (c) => (log += c));
      const shot = path.join(os.tmpdir(), 'pane-deb-window.png');
      const socket = path.join(env.XDG_RUNTIME_DIR as string, 'pane/default.sock');
      const pane = (...args: string[]) => spawnSync('/usr/bin/pane', ['--socket', socket, ...args], { env, encoding: 'utf8', timeout: 20_000 });
      try {
        const display = await until('Xvfb to start', () => fs.existsSync(displayFile) && fs.readFileSync(displayFile, 'utf8').trim(), 30_000);
        await until(`the window to attach to the server (${log})`, () => /renderer/.test(pane('clients').stdout), 60_000);
        pane('send', '-t', '1', 'echo from-the-desktop-entry');
        await until('the echo on pane 1', () => pane('screen', '-t', '1').stdout.includes('\nfrom-the-desktop-entry'), 15_000);
        // The window paints what the server says: wait for a frame that is not one flat colour
        // (with ImageMagick's import; without it the attached renderer above is the evidence).
        if (has('import')) await until('a painted window in the screenshot', () => {
          spawnSync('import', ['-display', display, '-window', 'root', shot]);
          const sd = spawnSync('convert', [shot, '-format', '%[fx:standard_deviation]', 'info:'], { encoding: 'utf8' }).stdout;
          return Number(sd) > 0.05;
        }, 30_000);
        if (has('import')) process.stdout.write(`deb test: screenshot of the window at ${shot}\n`);
      } finally {
        if (x.pid !== undefined) {
          try {
            process.kill(-x.pid, 'SIGTERM');
          } catch {
            // already gone
          }
        }
        await until('xvfb-run to end', () => x.exitCode !== null || x.signalCode !== null, 15_000).catch(() => x.pid !== undefined && process.kill(-x.pid, 'SIGKILL'));
        // `pane start` attached the window to the per-user daemon it started, detached:
        // closing the window leaves it running by design, so end it as a user would.
        pane('stop', '--yes');
      }
    }, 180_000);
  });
});
