// `pane host install NAME` (issue 26): puts this pane on a remote that lacks it, in
// the user's home and without root, as VS Code Remote installs its server over ssh.
// This install is packed (`npm pack`, no scripts: dist/ is what ships), the tarball
// goes over the host's own ssh argv (connection reuse) on stdin, and the remote's npm
// installs it under ~/.local (`npm install -g --prefix ~/.local`); then `pane --version`
// must answer there. A remote whose PATH lacks ~/.local/bin gets `pane` = ~/.local/bin/pane in its host file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostHow } from '../../../protocol/host';
import { str } from '../args';
import type { CommandSpec } from '../command';
import { OpError, UsageError } from '../errors';
import { readBelow, writeBelow } from '../../safeFile';
import { paneVersion } from '../../version';
import { hostsDir, runOnce, sshControlDir } from './hostPair';

/** How long packing, sending and the remote npm install may take: npm fetches the two dependencies on a slow link. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;
/** How long `pane --version` there may take to answer (an ssh round trip and a Node start). */
const VERSION_TIMEOUT_MS = 60_000;
/** How far up from this module the package root (package.json named pane) may be: dist/chunks/x.mjs is two levels. */
const MAX_LEVELS_UP = 4;

/**
 * The remote script, read by the remote user's shell: npm there or a clear refusal,
 * the tarball from stdin into a private temp dir, installed under ~/.local, then its version.
 */
const REMOTE_SCRIPT = [
  'set -e;',
  'command -v npm >/dev/null 2>&1 || { echo "pane host install: no npm on this machine: install Node.js 22 or later (with npm) first" >&2; exit 3; };',
  'd=$(mktemp -d);',
  `trap 'rm -rf "$d"' EXIT;`,
  'cat > "$d/pane.tgz";',
  'npm install -g --prefix "$HOME/.local" --no-fund --no-audit "$d/pane.tgz" >&2;',
  '"$HOME/.local/bin/pane" --version',
].join(' ');

/** The root of this pane package (where its package.json is). */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i <= MAX_LEVELS_UP; i++) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === 'pane') return dir;
    } catch {
      // not here: look one level up
    }
    dir = path.dirname(dir);
  }
  throw new OpError('cannot find this pane’s package.json to pack; give a tarball: pane host install NAME --tarball pane-X.tgz');
}

export const hostInstallCommands: CommandSpec[] = [
  {
    command: 'host install',
    summary: 'put this pane on an ssh host that lacks it, in the user’s home (npm, no root)',
    flags: [{ name: 'tarball', type: 'string', value: 'FILE', doc: 'install this package tarball (npm pack output) instead of packing the running pane' }],
    positionals: [{ name: 'NAME', required: true }],
    notes: [
      'Packs the running pane (npm pack, no scripts), sends it over the host’s ssh (its own argv, connection reuse) and runs `npm install -g --prefix ~/.local` there; the remote needs Node.js 22+ with npm, not root. Then `pane --version` must answer there; if the remote’s PATH lacks ~/.local/bin, the host file’s `pane` is set to ~/.local/bin/pane.',
    ],
    async run(ctx, a) {
      const name = a.positionals[0] as string;
      const [{ HostFileSchema }, { sshArgv, sshCommandArgv }] = await Promise.all([import('../../../protocol/host'), import('../../sshArgv')]);
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new UsageError(`"${name}" cannot name a host`, 'host install');
      const text = readBelow(hostsDir(), `${name}.json`);
      if (text === null) throw new OpError(`no host ${name}: add it first (pane host add ${name} ssh://[USER@]HOST)`);
      const file = HostFileSchema.parse(JSON.parse(text));
      const ssh = file.how.via === 'ssh' ? file.how : file.how.via === 'tls' ? file.how.pairedVia : undefined;
      if (ssh === undefined) throw new OpError(`host ${name} is reached by ${file.how.via}; pane host install works over ssh (pane host add ${name} ssh://[USER@]HOST)`);
      const controlDir = sshControlDir(ctx.socketPath);

      let tarball = str(a, 'tarball');
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-install-'));
      try {
        if (tarball === undefined) {
          // --ignore-scripts: prepack would rebuild dist/; the running pane's dist/ is what goes.
          const packed = await runOnce(['npm', 'pack', '--ignore-scripts', '--silent', '--pack-destination', tmp, packageRoot()], '', INSTALL_TIMEOUT_MS);
          const tgz = fs.readdirSync(tmp).find((f) => f.endsWith('.tgz'));
          if (packed.code !== 0 || tgz === undefined) throw new OpError(`npm pack of this pane failed (${packed.err.trim().split('\n').slice(-2).join(' / ') || `exit ${packed.code}`})`);
          tarball = path.join(tmp, tgz);
        }
        const r = await runOnce(sshCommandArgv(ssh, controlDir, [REMOTE_SCRIPT]), fs.readFileSync(tarball), INSTALL_TIMEOUT_MS);
        if (r.code !== 0) throw new OpError(`host ${name}: the install failed (${r.err.trim().split('\n').slice(-3).join(' / ') || `exit ${r.code}`})`);
        ctx.out(`${name}: installed ${r.out.trim().split('\n').at(-1) ?? 'pane'} in ~/.local (from ${path.basename(tarball)}; this pane is ${paneVersion()})`);
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
      // `pane` on the remote's PATH, as the host file names it; else ~/.local/bin/pane in the file.
      const v = await runOnce(sshArgv(ssh, controlDir, ['--version']), '', VERSION_TIMEOUT_MS);
      if (v.code === 0) {
        ctx.out(`${name}: ${ssh.pane ?? 'pane'} --version answers ${v.out.trim()}`);
        return 0;
      }
      const local: HostHow = { ...ssh, pane: '~/.local/bin/pane' };
      const v2 = await runOnce(sshArgv(local as Extract<HostHow, { via: 'ssh' }>, controlDir, ['--version']), '', VERSION_TIMEOUT_MS);
      if (v2.code !== 0) throw new OpError(`host ${name}: installed, but neither pane nor ~/.local/bin/pane answers --version there (${v2.err.trim().split('\n').at(-1) ?? ''})`);
      const raw = JSON.parse(text) as { how: Record<string, unknown> };
      if (file.how.via === 'ssh') raw.how.pane = '~/.local/bin/pane';
      else (raw.how.pairedVia as Record<string, unknown>).pane = '~/.local/bin/pane';
      HostFileSchema.parse(raw);
      writeBelow(hostsDir(), `${name}.json`, `${JSON.stringify(raw, null, 2)}\n`, { mode: 0o600 });
      ctx.out(`${name}: ~/.local/bin/pane --version answers ${v2.out.trim()} (not on the remote's PATH for ssh commands: the host file now names ~/.local/bin/pane)`);
      return 0;
    },
  },
];
