// Copies the node_modules an installed pane loads at run time (node-pty, and
// fuse-native for `pane mount`) out of the checkout, whose native parts npm ci
// already built for this machine's Node, keeping only the files that load:
// no sources, tests, maps, other platforms' binaries or build leftovers.
import fs from 'node:fs';
import path from 'node:path';

/** Optional packages that do not ship in the system package: Electron is not in Debian, the .deb opens Chromium. */
const NOT_SHIPPED = new Set(['electron']);

/** Platform packages fuse-shared-library picks by os.platform() + arch; the others never load here. */
function otherPlatform(name) {
  const mine = `fuse-shared-library-${process.platform}${process.arch === 'arm' ? '-arm' : ''}`;
  return name.startsWith('fuse-shared-library-') && name !== mine;
}

/** Paths (relative to a package) that are never loaded at run time. */
function dropped(rel, pkgName, isDir) {
  const parts = rel.split(path.sep);
  const base = parts[parts.length - 1];
  if (parts[0] === 'node_modules') return true; // nested deps are walked on their own
  if (/^LICEN[CS]E/i.test(base)) return false;
  // koffi (malloc_trim, decision 051): its loader is JavaScript under src/; its C++ sources, vendored headers,
  // docs and build tool (cnoke) never load. Its binary comes in @koromix/koffi-<platform>, glibc's build only.
  if (pkgName === 'koffi') return isDir ? ['doc', 'lib', 'vendor'].includes(parts[0]) : !(base === 'package.json' || (/\.c?js$/.test(base) && base !== 'cnoke.cjs'));
  if (pkgName.startsWith('@koromix/koffi-') && parts[0].startsWith('musl_')) return true;
  if (base.startsWith('.') || base === 'example.js' || base === 'electron.napi.node') return true;
  if (/\.(map|ts|md|markdown|c|cc|cpp|h|hpp|gyp|gypi|mk|o|a|d)$/i.test(base) || /\.test\.js$/.test(base) || base === 'Makefile') return true;
  if (['test', 'tests', 'example', 'examples', 'src', 'deps', 'third_party', 'typings', 'scripts', '.github', 'node-addon-api'].includes(parts[0])) return true;
  // A package built by node-gyp: only build/Release/*.node loads; prebuilds/ for other systems never do.
  if (parts[0] === 'build') return !(parts.length === 1 || (parts[1] === 'Release' && (parts.length === 2 || (parts.length === 3 && base.endsWith('.node')))));
  if (parts[0] === 'prebuilds') return parts.length > 1 && parts[1] !== `${process.platform}-${process.arch}`;
  if (pkgName === 'fuse-native' && base === 'bin.js') return true; // its configure helper, never loaded
  // sandbox-runtime vendors helpers for every platform: keep this machine's seccomp helper only.
  if (pkgName === '@anthropic-ai/sandbox-runtime' && parts[0] === 'vendor') {
    if (parts[1] === 'srt-win') return true;
    if (parts[1] === 'seccomp' && parts.length > 2 && parts[2] !== process.arch) return true;
  }
  return false;
}

function copyTree(src, dest, pkgName, rel = '') {
  for (const e of fs.readdirSync(path.join(src, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (dropped(r, pkgName, e.isDirectory())) continue;
    if (e.isDirectory()) copyTree(src, dest, pkgName, r);
    else if (e.isFile()) {
      fs.mkdirSync(path.dirname(path.join(dest, r)), { recursive: true });
      fs.copyFileSync(path.join(src, r), path.join(dest, r));
    }
  }
}

/** Where Node would resolve `name` from a package directory (nested node_modules first). */
function resolvePkg(fromDir, name, root) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const p = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(p, 'package.json'))) return p;
    if (dir === root || dir === path.dirname(dir)) return null;
  }
}

/**
 * Copies the runtime closure of root's dependencies and optionalDependencies into
 * destRoot/node_modules (same layout); returns the package names copied.
 */
export function copyProductionModules(root, destRoot) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const seen = new Map();
  const queue = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})].filter((n) => !NOT_SHIPPED.has(n)).map((n) => ({ name: n, from: root, optional: n in (pkg.optionalDependencies ?? {}) }));
  while (queue.length > 0) {
    const { name, from, optional } = queue.shift();
    if (otherPlatform(name)) continue;
    const dir = resolvePkg(from, name, root);
    if (!dir) {
      if (optional) continue;
      throw new Error(`${name} (needed by ${path.relative(root, from) || 'pane'}) is not installed: run npm ci first`);
    }
    if (seen.has(dir)) continue;
    seen.set(dir, name);
    const own = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    for (const d of Object.keys(own.dependencies ?? {})) if (d !== 'node-addon-api') queue.push({ name: d, from: dir, optional: false });
    for (const d of Object.keys(own.optionalDependencies ?? {})) queue.push({ name: d, from: dir, optional: true });
  }
  for (const [dir, name] of seen) copyTree(dir, path.join(destRoot, path.relative(root, dir)), name);
  return [...seen.values()].sort();
}
