// The package as installed: `npm run dist`'s tarball and .deb sizes, the tarball
// installed with `npm install -g --prefix` (from the registry), and that prefix's
// `pane ls` one-shot, run through its shebang, against `node -e 0` in the same run.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { client, root, startServerProc, timeCommand } from './procs';
import { fmt, range, summarize, type Row } from './stats';

const MiB = 1024 * 1024;

function duBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += duBytes(p);
    else if (e.isFile()) n += fs.statSync(p).size;
  }
  return n;
}

export async function installRows(dir: string, runs: number): Promise<Row[]> {
  const out = path.join(dir, 'release');
  // dist/ is current (npm run bench builds first): package it as it is.
  execFileSync(process.execPath, [path.join(root, 'scripts/dist.mjs'), '--no-build', '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  const files = fs.readdirSync(out);
  const tgz = path.join(out, files.find((f) => f.endsWith('.tgz')) ?? 'none.tgz');
  const deb = files.find((f) => f.endsWith('.deb'));
  const rows: Row[] = [];
  const prefix = path.join(dir, 'prefix');
  const t0 = performance.now();
  const inst = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--allow-scripts=fuse-native,electron', '--no-audit', '--no-fund', tgz], { encoding: 'utf8', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
  const installSeconds = (performance.now() - t0) / 1000;
  const installed = inst.status === 0;
  const unpacked = path.join(prefix, 'lib/node_modules/pane');
  rows.push({ bench: 'npm tarball, packed (MiB)', figure: fmt(fs.statSync(tgz).size / MiB), anchor: '—', ratio: '—', aim: 'report' });
  rows.push({
    bench: 'npm install -g of the tarball: size installed (MiB), time (s)',
    figure: installed ? fmt(duBytes(unpacked) / MiB, 1) : `failed: ${inst.stderr.split('\n').find((l) => /ERR/.test(l)) ?? 'see npm'}`.slice(0, 60),
    anchor: installed ? `${fmt(installSeconds, 1)} s` : '—',
    ratio: installed ? `node-pty ${fmt(duBytes(path.join(unpacked, 'node_modules/@lydell/node-pty-' + process.platform + '-' + process.arch)) / MiB, 1)} MiB` : '—',
    aim: 'report',
  });
  if (deb) {
    const kib = Number(execFileSync('dpkg-deb', ['-f', path.join(out, deb), 'Installed-Size'], { encoding: 'utf8' }).trim());
    rows.push({ bench: '.deb (MiB)', figure: fmt(fs.statSync(path.join(out, deb)).size / MiB), anchor: `installed ${fmt(kib / 1024, 1)} MiB`, ratio: '—', aim: 'report' });
  } else rows.push({ bench: '.deb (MiB)', figure: 'n/a (no dpkg-deb)', anchor: '—', ratio: '—', aim: 'report' });
  if (!installed) return rows;

  const bin = path.join(prefix, 'bin/pane');
  const srv = await startServerProc(dir);
  try {
    const c = await client(srv.socket);
    await c.call('session/new', { name: 'installed', launch: { program: '/bin/cat', args: [] } });
    c.close();
    const env = { ...process.env, PANE_SOCKET: srv.socket, PATH: `${path.dirname(bin)}:${process.env.PATH ?? ''}` };
    for (let i = 0; i < 3; i++) timeCommand(bin, ['ls'], env); // warm the page cache
    const ls: number[] = [];
    const node: number[] = [];
    for (let i = 0; i < runs; i++) {
      ls.push(timeCommand(bin, ['ls'], env));
      node.push(timeCommand(process.execPath, ['-e', '0']));
    }
    const a = summarize(ls);
    const b = summarize(node);
    rows.push({ bench: 'installed `pane ls` one-shot, through its shebang (ms) vs `node -e 0`', figure: range(a, 1), anchor: `node -e 0 ${range(b, 1)}`, ratio: `${fmt(a.median / b.median)}×`, aim: '≤ 1.3×' });
  } finally {
    await srv.stop();
  }
  return rows;
}
