// The npm package as a user gets it: `npm pack`, then `npm install -g --prefix DIR
// ./pane-*.tgz` with its dependencies from the registry, then the prefix's
// bin/pane (through its shebang, from outside the checkout) serves, runs panes,
// agents, MCP and the desktop launcher with the files found beside the install.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, buildOnce, collect, until } from '../cli/harness';
import { sandboxEnv, serveInstalled, smoke, type Installed } from './smoke';

/** npm pack plus an install from the registry: measured ~50 s here; generous for a loaded CI box. */
const INSTALL_MS = 300_000;
/** The packages whose install scripts may run (npm ≥ 11 blocks unlisted ones): PTYs need none (prebuilt). */
const ALLOW_SCRIPTS = 'fuse-native,electron';
/** What node-gyp would need to compile a native module: none of it may be on the install's PATH. */
const TOOLCHAIN = ['cc', 'gcc', 'g++', 'c++', 'clang', 'make', 'python3', 'node-gyp'];
/** What an npm install itself runs: node, npm, and the shell its scripts use. */
const INSTALL_TOOLS = ['node', 'npm', 'sh', 'bash', 'env', 'uname', 'tar', 'gzip'];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-npm-install-'));
const prefix = path.join(work, 'prefix');
/** The installing user's HOME: no .npmrc, no npm settings of the developer's. */
const installHome = path.join(work, 'home');
/** A PATH with what an install needs and no compiler, as on a machine with Node alone. */
const bareBin = path.join(work, 'bare-bin');
let installLog = '';
const bin = path.join(prefix, 'bin', 'pane');
let tarball = '';
let packedFiles: string[] = [];
/** Why the install could not be done (no registry), to skip with; empty when it was. */
let offline = '';

beforeAll(() => {
  buildOnce();
  const t0 = Date.now();
  // --ignore-scripts: prepack's clean rebuild would pull dist/ from under test files running beside
  // this one; buildOnce() made it current and the build prunes stale chunks, so the files are the same.
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const info = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(work, info[0]!.filename);
  packedFiles = info[0]!.files.map((f) => f.path).sort();
  const t1 = Date.now();
  fs.mkdirSync(installHome);
  fs.mkdirSync(bareBin);
  for (const tool of INSTALL_TOOLS) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (found) fs.symlinkSync(found, path.join(bareBin, tool));
  }
  // The registry's packages come through the machine's npm cache (a download
  // either way; the cache only spares the registry): the one setting passed.
  const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  const env: Record<string, string> = { HOME: installHome, PATH: bareBin, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', npm_config_cache: cache };
  // How this machine reaches the registry (its CA bundle, a proxy) is the machine's, not npm's settings.
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && /^(NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR)|(HTTPS?|NO|ALL)_PROXY)$/i.test(k)) env[k] = v;
  const inst = spawnSync('npm', ['install', '-g', '--prefix', prefix, `--allow-scripts=${ALLOW_SCRIPTS}`, '--no-audit', '--no-fund', '--foreground-scripts', tarball], { cwd: work, encoding: 'utf8', env });
  installLog = `${inst.stdout}\n${inst.stderr}`;
  if (inst.status !== 0) {
    if (/E(NOTFOUND|AI_AGAIN|CONNREFUSED|TIMEDOUT)|ETIMEDOUT|network/i.test(inst.stderr)) offline = `the npm registry is unreachable: ${inst.stderr.split('\n').find((l) => /ERR/.test(l)) ?? ''}`;
    else throw new Error(`npm install -g of the tarball failed:\n${inst.stderr}`);
  }
  process.stdout.write(`install test: npm pack ${((t1 - t0) / 1000).toFixed(1)} s, npm install -g ${((Date.now() - t1) / 1000).toFixed(1)} s\n`);
}, INSTALL_MS);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('the packed tarball', () => {
  it('holds the built program, the app files, the man page and completions, and nothing else', () => {
    const allowed = /^(LICENSE|README\.md|package\.json|dist\/pane\.cjs|dist\/(pane|screenWorker|start)\.mjs|dist\/chunks\/[^/]+\.[cm]js|dist\/electron\/(main|preload)\.cjs|dist\/renderer\/.+|apps\/.+|packaging\/.+|bin\/pane-hook)$/;
    expect(packedFiles.filter((f) => !allowed.test(f) || f.endsWith('.map'))).toEqual([]);
    for (const need of ['dist/pane.cjs', 'dist/pane.mjs', 'dist/screenWorker.mjs', 'dist/start.mjs', 'dist/electron/main.cjs', 'dist/electron/preload.cjs', 'dist/renderer/index.html', 'apps/terminal.json', 'apps/demo-agent/agent.mjs', 'packaging/man/pane.1', 'packaging/completions/pane.bash', 'bin/pane-hook']) {
      expect(packedFiles).toContain(need);
    }
  });

  it('is publishable, and an install needs only what the bundles load at run time', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    expect(pkg.private).toBeUndefined();
    expect(Object.keys(pkg.dependencies ?? {}).sort()).toEqual(['@anthropic-ai/sandbox-runtime', '@lydell/node-pty']);
    // koffi: glibc's malloc_trim for the daemon (decision 051); without it freed heap stays with the daemon until reused.
    expect(Object.keys(pkg.optionalDependencies ?? {}).sort()).toEqual(['electron', 'fuse-native', 'koffi']);
  });
});

describe('pane installed with npm install -g --prefix', () => {
  it('installs with npm alone: no compiler on PATH, no npm settings in HOME, nothing compiled', (ctx) => {
    if (offline) ctx.skip(offline);
    for (const tool of TOOLCHAIN) expect(spawnSync('sh', ['-c', `command -v ${tool}`], { env: { PATH: bareBin } }).status, `${tool} on the install's PATH`).not.toBe(0);
    expect(fs.readdirSync(installHome).filter((f) => /npmrc/.test(f))).toEqual([]);
    // fuse-native's node-gyp-build takes its prebuild; a compile would print node-gyp's own lines.
    expect(installLog).not.toMatch(/gyp (info|ERR|WARN)|node-gyp rebuild|node-gyp configure/);
    // The PTY addon is the platform package's prebuilt binary, and it loads.
    const lib = path.join(prefix, 'lib', 'node_modules', 'pane', 'node_modules');
    expect(fs.existsSync(path.join(lib, `@lydell/node-pty-${process.platform}-${process.arch}`, 'prebuilds', `${process.platform}-${process.arch}`, 'pty.node'))).toBe(true);
    expect(fs.existsSync(path.join(lib, 'node-pty'))).toBe(false);
    // koffi (glibc's malloc_trim, decision 051) is its platform package's binary too, and reaches glibc.
    if (process.platform === 'linux' && ['x64', 'arm64'].includes(process.arch)) {
      expect(fs.existsSync(path.join(lib, `@koromix/koffi-linux-${process.arch}`, `linux_${process.arch}`, 'koffi.node'))).toBe(true);
      const probe = "process.stdout.write(typeof require('koffi').load('libc.so.6').func('int malloc_trim(size_t)'))";
      expect(spawnSync(process.execPath, ['-e', probe], { cwd: path.dirname(lib), encoding: 'utf8' }).stdout).toBe('function');
    }
  });

  it('puts an executable pane on the prefix’s PATH that runs through its shebang and prints its versions', (ctx) => {
    if (offline) ctx.skip(offline);
    const target = fs.realpathSync(bin);
    expect(target.startsWith(fs.realpathSync(prefix))).toBe(true);
    expect(fs.readFileSync(target, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    const r = spawnSync('pane', ['--version'], { env: sandboxEnv(work, path.dirname(bin)), cwd: work, encoding: 'utf8' });
    const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(r.stdout).toBe(`pane ${version} (protocol 1)\n`);
    expect(fs.existsSync(path.join(prefix, 'share/man/man1/pane.1'))).toBe(true);
  });

  it('exits 2 on an unknown command, naming it and pointing to pane --help', (ctx) => {
    if (offline) ctx.skip(offline);
    const r = spawnSync(bin, ['frobnicate'], { env: sandboxEnv(work, path.dirname(bin)), encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("pane: unknown command 'frobnicate'\nRun `pane --help` for the list of commands.\n");
  });

  it('serves, opens a pane, types into it, reads its screen, lists it, and stops', async (ctx) => {
    if (offline) ctx.skip(offline);
    const p = await serveInstalled(bin);
    try {
      await smoke(p);
    } finally {
      await p.stop();
    }
  });

  describe('with a running installed server', () => {
    let p: Installed | undefined;
    beforeAll(async () => {
      if (!offline) p = await serveInstalled(bin, ['--http', '0']);
    }, 60_000);
    afterAll(async () => p?.stop());
    const need = (ctx: { skip: (note?: string) => never }): Installed => {
      if (!p) ctx.skip(offline);
      return p as Installed;
    };

    it('serves the prebuilt renderer from the installed dist over HTTP', async (ctx) => {
      const s = need(ctx);
      const url = /and (http:\/\/127\.0\.0\.1:[0-9]+\S*)/.exec(s.serverLog())?.[1];
      expect(url, s.serverLog()).toBeDefined();
      const page = await fetch(new URL('/', url));
      expect(await page.text()).toMatch(/<div id="root">|<script type="module"/);
    });

    it('runs the demo agent from the installed apps/, with the PATH shims pointing into the install', async (ctx) => {
      const s = need(ctx);
      const cwd = fs.mkdtempSync(path.join(s.dir, 'shop-'));
      const r = s.pane(['agent', 'run', 'ada', '--cwd', cwd]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      await until('ada in pane finger', () => /ada/.test(s.pane(['finger']).stdout), 20_000);
      const shim = fs.readFileSync(path.join(s.dir, '.local/share/pane/bin/pane'), 'utf8');
      expect(shim).toContain(fs.realpathSync(path.join(prefix, 'lib/node_modules/pane/dist/pane.cjs')));
    });

    it('speaks MCP over stdio as an agent, through the installed bin', async (ctx) => {
      const s = need(ctx);
      expect(s.pane(['agent', 'add', 'bob']).status).toBe(0);
      const token = fs.readFileSync(path.join(s.dir, '.local/share/pane/agents/bob/.token'), 'utf8').trim();
      const client = new Client({ name: 'pane-install-test', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: bin, args: ['--socket', s.socket, 'mcp'], env: { ...s.env, PANE_AGENT: 'bob', PANE_TOKEN: token }, stderr: 'pipe' }));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain('list_panes');
      } finally {
        await client.close();
      }
    });
  });

  it('pane start with neither Electron nor a Chromium says exactly what to install, and still serves', async (ctx) => {
    if (offline) ctx.skip(offline);
    const dir = fs.mkdtempSync(path.join(work, 'start-'));
    const missing = path.join(dir, 'no-such-browser');
    const child = spawn(bin, ['start', '--socket', path.join(dir, 's.sock')], { env: { ...sandboxEnv(dir, path.dirname(bin)), DISPLAY: ':404', PANE_BROWSER: missing }, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const c = collect(child);
    try {
      await until('the launcher to say what to install', () => /open this URL/.test(c.out()) || child.exitCode !== null, 30_000);
      expect(c.out()).toContain(`PANE_BROWSER names ${missing}, which does not exist; and Electron is not installed.`);
      expect(c.out()).toMatch(/install Chromium \(Debian\/Ubuntu: sudo apt-get install chromium.*\) or Electron beside pane \(npm install -g electron\)/);
      expect(c.out()).toMatch(/open this URL in a Chromium-family browser \(it works once\): http:\/\/127\.0\.0\.1:[0-9]+\/\?launch=/);
    } finally {
      child.kill('SIGTERM');
      await c.exit;
      // `pane start` started the per-user daemon, detached: end it as a user would.
      spawnSync(bin, ['--socket', path.join(dir, 's.sock'), 'stop', '--yes'], { env: sandboxEnv(dir, path.dirname(bin)), cwd: dir, encoding: 'utf8', timeout: 20_000 });
    }
  });
});
