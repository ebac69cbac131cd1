// Builds everything `npm start`, the CLI and the tests run: the `pane` CLI +
// server bundle and the desktop launcher (split, sharing chunks), the screen worker, the Electron main/preload, and the renderer.
// Rebuilds only what changed (mtime check) so `npm start` and `npm test` stay quick;
// --clean (prepack, dist) empties dist/ first so no stale chunk or map ships.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { oneLocaleEsbuild } from './oneLocale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quiet = process.argv.includes('--quiet');
const clean = process.argv.includes('--clean');
const force = clean || process.argv.includes('--force');
if (clean) fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
const log = (...a) => quiet || console.log(...a);

function newestMtime(dirs) {
  let newest = 0;
  const walk = (p) => {
    let st;
    try { st = fs.statSync(p); } catch { return; }
    if (st.isDirectory()) {
      if (p.endsWith('node_modules') || p.endsWith('dist')) return;
      for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    } else if (/\.(ts|tsx|css|html|json|mjs)$/.test(p)) newest = Math.max(newest, st.mtimeMs);
  };
  for (const d of dirs) walk(path.join(root, d));
  return newest;
}

function stale(out, dirs) {
  if (force) return true;
  try { return fs.statSync(path.join(root, out)).mtimeMs < newestMtime(dirs); } catch { return true; }
}

const node = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  // zod's ~50 locales are left out: English only (scripts/oneLocale.mjs says why).
  plugins: [oneLocaleEsbuild],
  logLevel: 'warning',
  // node-pty is native (its platform package is chosen at run time); ws has optional native peers; electron is the host.
  external: ['@lydell/node-pty', 'electron', 'bufferutil', 'utf-8-validate', 'fuse-native', 'koffi', '@anthropic-ai/sandbox-runtime'],
  // esbuild's ESM output needs a require() for bundled CommonJS deps.
  banner: { js: "import { createRequire as __paneCreateRequire } from 'node:module'; const require = __paneCreateRequire(import.meta.url);" },
};

/** The node build as CommonJS (the bin and the CLI bundles, decision 020): import.meta.url is the file's own URL. */
const cjsOfNode = {
  format: 'cjs',
  banner: { js: "var __paneMetaUrl = require('node:url').pathToFileURL(__filename).href; var __paneN = (m) => Object.create(m, { default: { value: m, enumerable: true } });" },
  define: { 'import.meta.url': '__paneMetaUrl' },
};

/**
 * In a CommonJS bundle esbuild wraps each imported Node built-in in __toESM, which defines a
 * getter on a fresh object for every export (node:fs has ~100): ~0.5 ms of each one-shot
 * `pane`, spent before its first line runs. A built-in has no `default` and no __esModule,
 * so an object that inherits its exports and names it `default` is what the code reads;
 * __paneN is as long as __toESM, so the source map's columns stay right. Returns the file's text.
 */
function lightBuiltins(file) {
  const text = fs.readFileSync(file, 'utf8');
  const light = text.replaceAll('__toESM(require("node:', '__paneN(require("node:');
  if (light !== text) fs.writeFileSync(file, light);
  return light;
}

/**
 * The CLI loads one file per run (decision 020): the bin (server/bin.ts → dist/pane.mjs,
 * small) picks dist/chunks/cli-GROUP.cjs, the CLI bundled whole without chunks but
 * with only that group's part of the command table (the others left out by `onlyGroup`);
 * cli-all.cjs holds every command (help, unknown words). Node's ESM loader pays per
 * module file and per byte, and a bundle of every command costs ~10 ms more than `ls`'s.
 * What the CLI loads only for `serve`, `mount` and `mcp` (the server, FUSE, the MCP
 * server with zod) stays apart: entries of a split build at stable names in
 * dist/chunks/ (where that code always ran from), reached by rewritten dynamic imports.
 */
const APART = {
  serveCommand: ['server/serveCommand.ts', './serveCommand'],
  fuseServe: ['kits/node/fuse/serve.ts', '../fuse/serve'],
  fuseMounts: ['kits/node/fuse/mounts.ts', '../fuse/mounts'],
  mcpServer: ['kits/node/mcp/server.ts', '../../mcp/server'],
  // ws (128 KB) is for a ws:// endpoint only: not parsed by every `pane ls`.
  wsDial: ['kits/node/wsDial.ts', './wsDial'],
};
const apart = (dir) => ({
  name: 'apart',
  setup(b) {
    b.onResolve({ filter: /serveCommand$|wsDial$|\/(fuse|mcp)\// }, (a) => {
      const name = a.kind === 'dynamic-import' ? Object.keys(APART).find((k) => APART[k][1] === a.path) : undefined;
      return name ? { path: `${dir}${name}.mjs`, external: true } : undefined;
    });
  },
});
/** The table export of each group file (kits/node/cli/groups.ts names the groups). */
const TABLES = { panes: 'paneCommands', floating: 'floatCommands', tags: 'tagCommands', streams: 'streamCommands', sessions: 'sessionCommands', server: 'serverCommands', durable: 'durableCommands', agents: 'agentCommands', awareness: 'awarenessCommands', sandbox: 'sandboxCommands', hosts: 'hostCommands' };
/** Leaves every group's table but `group`'s out of the command table main.ts builds. */
const onlyGroup = (group) => ({
  name: 'only-group',
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/[a-z]+$/ }, (a) => {
      const name = a.path.slice('./commands/'.length);
      if (!a.importer.endsWith(path.join('kits', 'node', 'cli', 'main.ts')) || name === group || !(name in TABLES)) return undefined;
      return { path: name, namespace: 'left-out' };
    });
    b.onLoad({ filter: /.*/, namespace: 'left-out' }, (a) => ({ contents: a.path === 'server' ? 'export const serverCommands = () => [];' : `export const ${TABLES[a.path]} = [];`, loader: 'js' }));
  },
});
const CLI_GROUPS = [...Object.keys(TABLES), 'ns', 'all'];

const jobs = [];
if (fs.existsSync(path.join(root, 'server/bin.ts')) && (stale('dist/pane.cjs', ['kits', 'server', 'scripts']) || stale('dist/start.mjs', ['electron', 'kits', 'server', 'scripts']))) {
  // The bin is CommonJS (dist/pane.cjs): Node starting from an ES module sets up its ESM loader
  // first, ~10 ms of every one-shot `pane` (decision 020). dist/pane.mjs, the name the bin had
  // (hook files, scripts, docs), stays as an ES module that runs it.
  jobs.push(build({ ...node, ...cjsOfNode, entryPoints: { pane: 'server/bin.ts' }, outdir: 'dist', outExtension: { '.js': '.cjs' }, absWorkingDir: root, plugins: [oneLocaleEsbuild, apart('./chunks/')] }).then(() => {
    // The bin runs through its shebang (server/bin.ts's first line, kept first by esbuild).
    const bin = path.join(root, 'dist/pane.cjs');
    if (!lightBuiltins(bin).startsWith('#!/usr/bin/env node\n')) throw new Error('dist/pane.cjs lost its #!/usr/bin/env node line');
    fs.chmodSync(bin, 0o755);
    const shim = path.join(root, 'dist/pane.mjs');
    fs.writeFileSync(shim, "#!/usr/bin/env node\n// The pane bin by its earlier name: runs dist/pane.cjs (scripts/build.mjs).\nimport { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('./pane.cjs');\n", { mode: 0o755 });
    fs.chmodSync(shim, 0o755);
    fs.rmSync(path.join(root, 'dist/pane.mjs.map'), { force: true }); // the ES module bin's, before it was a shim
    log('built dist/pane.cjs (and dist/pane.mjs, which runs it)');
  }));
  // CommonJS, so that on Node < 22.1 the bin can hand V8 the bundle's code cache (kits/node/codeCache.ts):
  // import.meta.url is the bundle's own file URL; the apart parts stay ES modules, loaded by require()
  // (Node ^20.19 || >= 22.12, package.json's engines), as import() inside a vm.Script needs an
  // experimental loader option on Node 20 that warns on stderr.
  const cliBuilds = CLI_GROUPS.map((g) =>
    build({
      ...node,
      ...cjsOfNode,
      supported: { 'dynamic-import': false },
      entryPoints: { [`chunks/cli-${g}`]: 'kits/node/cli/entry.ts' },
      outdir: 'dist',
      outExtension: { '.js': '.cjs' },
      absWorkingDir: root,
      metafile: true,
      plugins: [oneLocaleEsbuild, apart('./'), ...(g === 'all' ? [] : [onlyGroup(g)])],
    }),
  );
  // start.mjs (npm start, the daemon, Electron's bridge) shares the split chunks: a window
  // attaching to the daemon loads the launcher only; the server loads for --daemon/--serve (decision 023).
  const entries = { start: 'electron/start.ts', ...Object.fromEntries(Object.entries(APART).map(([k, [src]]) => [`chunks/${k}`, src])) };
  const split = build({ ...node, entryPoints: entries, outdir: 'dist', outExtension: { '.js': '.mjs' }, splitting: true, chunkNames: 'chunks/[name]-[hash]', absWorkingDir: root, metafile: true });
  jobs.push(Promise.all([split, ...cliBuilds]).then((rs) => {
    for (const g of CLI_GROUPS) lightBuiltins(path.join(root, `dist/chunks/cli-${g}.cjs`));
    // Chunks of earlier builds (other hashes) would otherwise pile up and ship in the package.
    const fresh = new Set(rs.flatMap((r) => Object.keys(r.metafile.outputs)).map((o) => path.resolve(root, o)));
    const chunks = path.join(root, 'dist/chunks');
    for (const f of fs.readdirSync(chunks)) if (!fresh.has(path.join(chunks, f))) fs.rmSync(path.join(chunks, f), { force: true });
    log('built dist/start.mjs and dist/chunks/ (a CLI bundle per command group; start, serve, FUSE and MCP and what they share)');
  }));
}
if (fs.existsSync(path.join(root, 'server/pty/screenWorker.ts')) && stale('dist/screenWorker.mjs', ['server/pty', 'server/persist', 'kits/protocol'])) {
  jobs.push(build({ ...node, entryPoints: { screenWorker: 'server/pty/screenWorker.ts' }, outdir: 'dist', outExtension: { '.js': '.mjs' }, absWorkingDir: root }).then(() => log('built dist/screenWorker.mjs')));
}
if (fs.existsSync(path.join(root, 'electron/main.ts')) && stale('dist/electron/main.cjs', ['electron', 'kits', 'server'])) {
  const cjs = { ...node, format: 'cjs', banner: undefined, absWorkingDir: root, outExtension: { '.js': '.cjs' } };
  jobs.push(build({ ...cjs, entryPoints: { main: 'electron/main.ts', preload: 'electron/preload.ts' }, outdir: 'dist/electron' }).then(() => log('built dist/electron')));
}
if (fs.existsSync(path.join(root, 'bench/run.ts')) && stale('dist/bench.mjs', ['bench', 'kits', 'server'])) {
  jobs.push(build({ ...node, entryPoints: { bench: 'bench/run.ts' }, outdir: 'dist', outExtension: { '.js': '.mjs' }, absWorkingDir: root }).then(() => log('built dist/bench.mjs')));
}
await Promise.all(jobs);

if (fs.existsSync(path.join(root, 'renderer/index.html')) && stale('dist/renderer/index.html', ['renderer', 'kits/protocol', 'kits/client'])) {
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: path.join(root, 'renderer/vite.config.ts'), logLevel: quiet ? 'error' : 'info' });
  log('built dist/renderer');
}
