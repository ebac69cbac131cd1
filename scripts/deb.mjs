// Builds pane_<version>_<arch>.deb with dpkg-deb alone (electron-builder's deb
// target downloads fpm, which cannot be fetched here): the npm tarball's files
// under /usr/lib/pane with the runtime node_modules, /usr/bin/pane, the desktop
// entry, icons, pane(1), completions and the Debian docs. docs/install.md shows the layout.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { copyProductionModules } from './prodModules.mjs';

/** The hicolor sizes a desktop picks from; 16–48 for menus and panels, the rest for launchers and docks. */
export const ICON_SIZES = [16, 22, 24, 32, 48, 64, 128, 256, 512];
const MAINTAINER = process.env.PANE_DEB_MAINTAINER ?? 'pane contributors <pane@users.noreply.github.com>';

/** Why a .deb cannot be built here, or null. */
export function debUnavailable() {
  if (spawnSync('dpkg-deb', ['--version']).status !== 0) return 'dpkg-deb is not installed (it comes with dpkg on Debian and Ubuntu)';
  if (!rasteriser()) return 'no SVG rasteriser for the icon sizes (install librsvg2-bin for rsvg-convert)';
  return null;
}

/** (svg, size, outPng) → void with rsvg-convert, or null when it is not installed. */
export function rasteriser() {
  if (spawnSync('rsvg-convert', ['--version']).status === 0) return (svg, size, out) => execFileSync('rsvg-convert', ['-w', String(size), '-h', String(size), svg, '-o', out]);
  return null;
}

const write = (file, text, mode = 0o644) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode });
  fs.chmodSync(file, mode);
};
const gzip = (text) => zlib.gzipSync(text, { level: 9 }); // no name or mtime in the header: reproducible

function walk(dir, each) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, each);
    each(p, e);
  }
}

const isElf = (p) => {
  const fd = fs.openSync(p, 'r');
  const b = Buffer.alloc(4);
  fs.readSync(fd, b, 0, 4, 0);
  fs.closeSync(fd);
  return b.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
};

/** Modes Debian expects: 0755 dirs and programs (ELF executables, scripts), 0644 the rest (shared objects too). */
function normaliseModes(stage) {
  walk(stage, (p, e) => {
    if (e.isSymbolicLink()) return;
    if (e.isDirectory()) return fs.chmodSync(p, 0o755);
    const head = fs.readFileSync(p).subarray(0, 2).toString();
    const elfProgram = isElf(p) && !/\.(node|so)(\.[0-9]+)*$/.test(p);
    fs.chmodSync(p, head === '#!' || elfProgram ? 0o755 : 0o644);
  });
}

function copyright(version) {
  const mit = fs.readFileSync(new URL('../LICENSE', import.meta.url), 'utf8').split('\n').slice(2).map((l) => (l.trim() ? ` ${l}` : ' .')).join('\n').replace(/( \.\n)+$/, '');
  return `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: pane
Comment: pane ${version}. The bundles under usr/lib/pane/dist include MIT-licensed
 libraries (React, xterm.js, zod, ws, the MCP SDK); each keeps its notice in the bundle.

Files: *
Copyright: 2026 pane contributors
License: MIT

Files: usr/lib/pane/node_modules/*
Copyright: the authors of each package (see its package.json)
License: MIT

Files: usr/lib/pane/node_modules/fuse-shared-library-linux/libfuse/*
Copyright: Miklos Szeredi and the libfuse contributors
License: LGPL-2.1 and GPL-2
 The library is LGPL-2.1 (/usr/share/common-licenses/LGPL-2.1); fusermount and
 mount.fuse are GPL-2 (/usr/share/common-licenses/GPL-2).

License: MIT
${mit}
`;
}

/**
 * The libraries the PTY addon (@lydell/node-pty's prebuilt pty.node) links (libc6, libstdc++6...), by dpkg-shlibdeps where
 * dpkg-dev is installed; the FUSE binaries are left out: they load only for `pane mount`,
 * whose libfuse2 is a Recommends.
 */
function sharedLibraryDepends(stage, outDir) {
  if (spawnSync('dpkg-shlibdeps', ['--version']).status !== 0) return '';
  const elves = [];
  walk(stage, (p, e) => e.isFile() && isElf(p) && !/fuse/.test(path.relative(stage, p)) && elves.push(p));
  const work = fs.mkdtempSync(path.join(outDir, 'shlibs-'));
  try {
    write(path.join(work, 'debian/control'), 'Source: pane\n\nPackage: pane\nArchitecture: any\n');
    const r = spawnSync('dpkg-shlibdeps', ['-O', ...elves], { cwd: work, encoding: 'utf8' });
    return /^shlibs:Depends=(.*)$/m.exec(r.stdout)?.[1] ?? '';
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Stages and builds the .deb from an npm tarball; returns its path. */
export function buildDeb({ root, tarball, outDir, log }) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const arch = execFileSync('dpkg', ['--print-architecture'], { encoding: 'utf8' }).trim();
  const stage = path.join(outDir, `deb-${arch}`);
  fs.rmSync(stage, { recursive: true, force: true });
  const lib = path.join(stage, 'usr/lib/pane');
  const share = path.join(stage, 'usr/share');
  fs.mkdirSync(lib, { recursive: true });

  // The program: exactly the npm package's files, then its runtime node_modules.
  execFileSync('tar', ['-xzf', tarball, '-C', lib, '--strip-components=1', '--no-same-owner']);
  const packaging = path.join(lib, 'packaging');
  const doc = path.join(share, 'doc/pane');
  fs.mkdirSync(doc, { recursive: true });
  fs.renameSync(path.join(lib, 'README.md'), path.join(doc, 'README.md'));
  fs.rmSync(path.join(lib, 'LICENSE'));
  const shipped = copyProductionModules(root, lib);
  log(`deb: node_modules ${shipped.join(', ')}`);
  if (spawnSync('strip', ['--version']).status === 0) {
    walk(lib, (p, e) => e.isFile() && isElf(p) && execFileSync('strip', ['--strip-unneeded', '--remove-section=.comment', '--remove-section=.note', p]));
  }

  const shlibs = sharedLibraryDepends(stage, outDir);

  write(path.join(stage, 'usr/bin/pane'), '#!/bin/sh\n# pane from the pane .deb: the CLI on Debian\'s Node (the shebang of dist/pane.cjs would take the first node on PATH).\nexec /usr/bin/node /usr/lib/pane/dist/pane.cjs "$@"\n', 0o755);
  write(path.join(share, 'applications/pane.desktop'), fs.readFileSync(path.join(packaging, 'pane.desktop')));
  const svg = path.join(packaging, 'icons/pane.svg');
  fs.mkdirSync(path.join(share, 'icons/hicolor/scalable/apps'), { recursive: true });
  fs.copyFileSync(svg, path.join(share, 'icons/hicolor/scalable/apps/pane.svg'));
  const raster = rasteriser();
  for (const n of ICON_SIZES) {
    const dir = path.join(share, `icons/hicolor/${n}x${n}/apps`);
    fs.mkdirSync(dir, { recursive: true });
    raster(svg, n, path.join(dir, 'pane.png'));
  }
  write(path.join(share, 'man/man1/pane.1.gz'), gzip(fs.readFileSync(path.join(packaging, 'man/pane.1'))));
  const comp = (f) => fs.readFileSync(path.join(packaging, 'completions', f));
  write(path.join(share, 'bash-completion/completions/pane'), comp('pane.bash'));
  write(path.join(share, 'zsh/vendor-completions/_pane'), comp('_pane'));
  write(path.join(share, 'fish/vendor_completions.d/pane.fish'), comp('pane.fish'));
  write(path.join(share, 'lintian/overrides/pane'), fs.readFileSync(path.join(packaging, 'deb/lintian-overrides')));
  fs.rmSync(packaging, { recursive: true });
  write(path.join(doc, 'copyright'), copyright(pkg.version));
  const when = process.env.SOURCE_DATE_EPOCH ? new Date(Number(process.env.SOURCE_DATE_EPOCH) * 1000) : new Date();
  write(path.join(doc, 'changelog.gz'), gzip(`pane (${pkg.version}) unstable; urgency=medium\n\n  * Built from the pane sources with \`npm run dist\`.\n\n -- ${MAINTAINER}  ${when.toUTCString().replace('GMT', '+0000')}\n`));

  normaliseModes(stage);
  fs.chmodSync(path.join(stage, 'usr/bin/pane'), 0o755);
  let bytes = 0;
  const sums = [];
  walk(stage, (p, e) => {
    if (!e.isFile()) return;
    bytes += fs.statSync(p).size;
    sums.push(`${crypto.createHash('md5').update(fs.readFileSync(p)).digest('hex')}  ${path.relative(stage, p)}`);
  });
  const control = [
    'Package: pane',
    `Version: ${pkg.version}`,
    `Architecture: ${arch}`,
    `Maintainer: ${MAINTAINER}`,
    `Installed-Size: ${Math.ceil(bytes / 1024)}`,
    // Node ≥ 20.19 runs the CLI and server; the window is a Chromium-family browser in --app mode (Electron is not in Debian).
    `Depends: nodejs (>= 20.19), chromium | chromium-browser | google-chrome-stable${shlibs ? `, ${shlibs}` : ''}`,
    // pane mount: fusermount3 and libfuse2 (libfuse2t64 from trixie on).
    'Recommends: fuse3, libfuse2 | libfuse2t64',
    'Suggests: git, tmux',
    'Section: utils',
    'Priority: optional',
    'Description: keyboard-driven tiling desktop shell with AI agents as peers',
    ' pane is a keyboard-driven tiling desktop shell. One pane server owns the',
    ' terminals, sessions and layout; the window, the pane command, the /pane',
    ' namespace (FUSE) and MCP are views of it. Coding agents (Claude Code, Codex,',
    ' Aider, Gemini CLI) run in panes as users with mail, .plan and finger, and',
    ' are told when their work converges.',
    '',
  ].join('\n');
  write(path.join(stage, 'DEBIAN/control'), control);
  write(path.join(stage, 'DEBIAN/md5sums'), sums.sort((a, b) => a.slice(34).localeCompare(b.slice(34))).join('\n') + '\n');
  const out = path.join(outDir, `pane_${pkg.version}_${arch}.deb`);
  execFileSync('dpkg-deb', ['--root-owner-group', '-Zxz', '--build', stage, out], { stdio: ['ignore', 'ignore', 'inherit'] });
  fs.rmSync(stage, { recursive: true, force: true });
  return out;
}
