// git, run by the server as the person in a repository an agent controls: every
// setting by which a repository makes git run a program is pinned off on the
// command line (which outranks the repository's own config), the repository's
// filter/diff/merge drivers are disarmed by name, and no GIT_* variable of the
// server's leaks in. See docs/decisions/030-paths-an-agent-controls.md.
import { execFileSync } from 'node:child_process';
import { PaneFault } from '../../kits/protocol/error';

/**
 * Settings pinned on every such git: each would let the repository (its
 * .git/config, an included file, or its hooks directory) run a program as the person.
 */
export const PINNED_GIT_CONFIG: readonly (readonly [string, string])[] = [
  ['core.hooksPath', '/dev/null'], // every hook: post-checkout, reference-transaction, post-index-change…
  ['core.fsmonitor', 'false'], // a command run whenever the index is refreshed
  ['core.pager', 'cat'],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  ['core.askPass', ''],
  ['core.sshCommand', 'false'],
  ['core.gitProxy', ''],
  ['core.alternateRefsCommand', ''],
  ['credential.helper', ''], // empty resets the list of helpers
  ['diff.external', ''],
  ['gpg.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.defaultKeyCommand', ''],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['uploadpack.packObjectsHook', ''],
  ['protocol.allow', 'never'], // no transport at all (ext::, ssh, file://): nothing here fetches
  ['submodule.recurse', 'false'],
  ['core.untrackedCache', 'false'],
  ['gc.auto', '0'], // no background `git gc --auto` (its pre-auto-gc hook, its time)
  ['maintenance.auto', 'false'],
  ['safe.bareRepository', 'explicit'], // no bare repository planted in the project is picked up by discovery
];

/**
 * Driver settings a repository names itself (`filter.NAME.smudge`…): each is a
 * command, pinned to the empty one. An empty filter is no filter (the file is
 * checked out as stored); an empty diff command or textconv makes git fail
 * ("cannot run") rather than run anything, so a diff pane runs passes git's own
 * `--no-ext-diff --no-textconv` as well.
 */
const DRIVER_KEY = /^(filter\.[^\n]+\.(clean|smudge|process)|diff\.[^\n]+\.(command|textconv)|merge\.[^\n]+\.driver)$/i;

/** git answers these in milliseconds; a repository that makes it take longer is not waited on past this. */
export const GIT_TIMEOUT_MS = 15_000;

/** The server's environment without GIT_* (a GIT_DIR or GIT_CONFIG_* of the person's must not steer it), and git told to ask nobody. */
export function gitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!k.startsWith('GIT_') && k !== 'SSH_ASKPASS') env[k] = v;
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_ATTR_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', GIT_EDITOR: 'false', GIT_NO_REPLACE_OBJECTS: '1' };
}

const pins = (pairs: readonly (readonly [string, string])[]) => pairs.flatMap(([k, v]) => ['-c', `${k}=${v}`]);

function run(cwd: string, args: string[]): string {
  // --no-pager: pager.<command> is a command of the repository's too (stdout is a pipe, but say it anyway).
  return execFileSync('git', ['--no-pager', ...args], { cwd, env: gitEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: GIT_TIMEOUT_MS, maxBuffer: 1 << 20 }).trim();
}

/** The commands the repository's config names as filter, diff or merge drivers: each is pinned to nothing. */
function driverPins(cwd: string, where: string[]): string[] {
  let names: string;
  try {
    names = run(cwd, [...pins(PINNED_GIT_CONFIG), ...where, 'config', '--show-scope', '--name-only', '--get-regexp', '^(filter|diff|merge)\\.']);
  } catch {
    return []; // exit 1: no such setting
  }
  // The person's own (global, system) drivers, git-lfs's for one, are theirs and stay.
  return names
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([scope, k]) => scope !== 'global' && scope !== 'system' && k !== undefined && DRIVER_KEY.test(k))
    .flatMap(([, k]) => ['-c', `${k}=`]);
}

/**
 * Runs `git ARGS` in `cwd` with nothing of the repository's that runs a program:
 * hooks, fsmonitor, pagers, editors, credential helpers, drivers. `where` pins the
 * repository (`--git-dir=… --work-tree=…`) so no `.git` file or core.worktree moves it.
 */
export function safeGit(cwd: string, args: string[], where: string[] = []): string {
  try {
    return run(cwd, [...pins(PINNED_GIT_CONFIG), ...driverPins(cwd, where), ...where, ...args]);
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new PaneFault('failed', `git ${args[0]} failed in ${cwd}: ${(err.stderr || err.message).trim().split('\n')[0]}`, { reason: 'git', subject: cwd });
  }
}
