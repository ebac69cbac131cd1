// Builds everything `npm start`, the CLI and the tests run: the `pane` CLI +
// server bundle and the desktop launcher (split, sharing chunks), the screen worker, the Electron main/preload, and the renderer.
// Rebuilds only what changed (mtime check) so `npm start` and `npm test` stay quick;
// --clean (prepack, dist) empties dist/ first so no stale chunk or map ships.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  logLevel: 'warning',
  // node-pty is native; ws has optional native peers; electron is the host.
  external: ['node-pty', 'electron', 'bufferutil', 'utf-8-validate', 'fuse-native', '@anthropic-ai/sandbox-runtime'],
  // esbuild's ESM output needs a require() for bundled CommonJS deps.
  banner: { js: "import { createRequire as __paneCreateRequire } from 'node:module'; const require = __paneCreateRequire(import.meta.url);" },
};

const jobs = [];
// pane.mjs and start.mjs share their split chunks (one build, one set of chunks to prune):
// each entry loads only what its path needs (a window attaching to the daemon never loads the server).
if (fs.existsSync(path.join(root, 'server/bin.ts')) && (stale('dist/pane.mjs', ['kits', 'server', 'scripts']) || stale('dist/start.mjs', ['electron', 'kits', 'server', 'scripts']))) {
  jobs.push(build({ ...node, entryPoints: { pane: 'server/bin.ts', start: 'electron/start.ts' }, outdir: 'dist', outExtension: { '.js': '.mjs' }, splitting: true, chunkNames: 'chunks/[name]-[hash]', absWorkingDir: root, metafile: true }).then((r) => {
    // Chunks of earlier builds (other hashes) would otherwise pile up and ship in the package.
    const fresh = new Set(Object.keys(r.metafile.outputs).map((o) => path.resolve(root, o)));
    const chunks = path.join(root, 'dist/chunks');
    for (const f of fs.readdirSync(chunks)) if (!fresh.has(path.join(chunks, f))) fs.rmSync(path.join(chunks, f), { force: true });
    // The bin runs through its shebang (server/bin.ts's first line, kept first by esbuild).
    const bin = path.join(root, 'dist/pane.mjs');
    if (!fs.readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')) throw new Error('dist/pane.mjs lost its #!/usr/bin/env node line');
    fs.chmodSync(bin, 0o755);
    log('built dist/pane.mjs, dist/start.mjs');
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
