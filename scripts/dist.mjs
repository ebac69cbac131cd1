// `npm run dist`: builds the installable artifacts into release/ — the npm
// tarball (`npm pack`, from a clean build) and, where dpkg-deb exists, the .deb
// (scripts/deb.mjs). Without dpkg-deb it builds the tarball and says why the .deb
// was skipped. Electron builds are `npm run dist:electron` (scripts/distElectron.mjs).
// Flags (for tests, which must not rebuild dist/ under suites running beside them):
//   --out DIR    write the artifacts there instead of release/
//   --no-build   package dist/ as it is (the caller built it)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDeb, debUnavailable } from './deb.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const flag = (name) => process.argv.indexOf(name);
const out = flag('--out') > 0 ? path.resolve(process.argv[flag('--out') + 1] ?? '') : path.join(root, 'release');
const say = (s) => console.log(`pane dist: ${s}`);
const size = (f) => `${(fs.statSync(f).size / 1024 / 1024).toFixed(2)} MiB`;

fs.mkdirSync(out, { recursive: true });
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
for (const f of fs.readdirSync(out)) if (f.startsWith(`pane-${pkg.version}.`) || f.startsWith(`pane_${pkg.version}_`)) fs.rmSync(path.join(out, f));

// One clean build; pack then skips prepack so it does not build everything again.
if (flag('--no-build') < 0) execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--clean', '--quiet'], { cwd: root, stdio: 'inherit' });
const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
const tarball = path.join(out, packed[0].filename);
say(`${path.relative(root, tarball)} (${size(tarball)}, ${packed[0].entryCount} files, ${(packed[0].unpackedSize / 1024 / 1024).toFixed(2)} MiB unpacked)`);

const why = debUnavailable();
if (why) {
  say(`skipped the .deb: ${why}`);
} else {
  const deb = buildDeb({ root, tarball, outDir: out, log: say });
  say(`${path.relative(root, deb)} (${size(deb)})`);
}
