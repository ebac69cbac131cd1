// `npm run dist:electron`: the Electron builds (dir and tar.gz, see
// electron-builder.yml) from the Electron distribution PANE_ELECTRON_DIST names,
// passed to electron-builder as electronDist. Electron's binary cannot be
// downloaded where pane is built, so with none given this stops, saying so in one line.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ICON_SIZES, rasteriser } from './deb.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VAR = 'PANE_ELECTRON_DIST';

/** Why no Electron build can be made with this environment, or null. */
export function electronDistProblem(env = process.env) {
  const dir = env[VAR];
  if (!dir) return `${VAR} is not set: set it to an unpacked Electron distribution (the directory holding the electron binary), since electron-builder cannot download one here`;
  const binary = path.join(dir, process.platform === 'win32' ? 'electron.exe' : process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron');
  if (!fs.statSync(binary, { throwIfNoEntry: false })?.isFile()) return `${VAR}=${dir} holds no Electron binary: point it at an unpacked Electron distribution`;
  return null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problem = electronDistProblem();
  if (problem) {
    process.stderr.write(`pane dist:electron: ${problem}\n`);
    process.exit(1);
  }
  if (!process.argv.includes('--no-build')) execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--clean', '--quiet'], { cwd: root, stdio: 'inherit' });
  const icons = path.join(root, 'release/electron-icons');
  const raster = rasteriser();
  fs.mkdirSync(icons, { recursive: true });
  for (const n of ICON_SIZES) raster?.(path.join(root, 'packaging/icons/pane.svg'), n, path.join(icons, `${n}x${n}.png`));
  const iconFlag = raster ? [`-c.linux.icon=${icons}`] : [];
  const r = spawnSync('npx', ['electron-builder', '--linux', '--publish', 'never', `-c.electronDist=${path.resolve(process.env[VAR])}`, ...iconFlag], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
