// Type-checks each layer with its own tsconfig, so the compiler holds the layer
// rules: kits/ has neither DOM nor Node types; only kits/node, server/ and the
// host get Node; only renderer/ gets the DOM.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let layers = ['kits', 'kits/node', 'server', 'renderer', 'electron', 'test'].filter((l) => fs.existsSync(path.join(root, l, 'tsconfig.json')));
// Electron's types come with its package, which an offline install drops (its
// binary cannot be fetched); say so rather than fail on missing types.
if (!fs.existsSync(path.join(root, 'node_modules/electron/package.json'))) {
  console.log('typecheck electron: skipped (the electron package is not installed; install with ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm install for its types)');
  layers = layers.filter((l) => l !== 'electron');
}
let failed = 0;
for (const l of layers) {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(l, 'tsconfig.json')], { cwd: root, encoding: 'utf8' });
  const out = (r.stdout + r.stderr).trim();
  if (r.status === 0) console.log(`typecheck ${l}: ok`);
  else {
    failed++;
    console.log(`typecheck ${l}: FAILED\n${out}`);
  }
}
process.exit(failed ? 1 : 0);
