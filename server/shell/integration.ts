// pane's shell integration: bash, zsh and fish started in a pane report their
// working directory (OSC 7) at every prompt, without touching the user's rc files —
// bash through --rcfile (ours sources ~/.bashrc first), zsh through ZDOTDIR (ours
// hands back to the user's), fish through --init-command. See docs/decisions/017.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runtimeDir } from '../../kits/node/paths';
import type { LaunchSpec } from '../../kits/protocol/model';

/** Set to 0 in the server's environment to start shells exactly as given. */
export const INTEGRATION_ENV = 'PANE_SHELL_INTEGRATION';

const HEADER = '# Written by the pane server for its panes. Your own rc files are read first.\n';

const BASH = `${HEADER}
[ -r "$HOME/.bashrc" ] && . "$HOME/.bashrc"
__pane_osc7() {
  local LC_ALL=C s=$PWD out= c i
  for ((i = 0; i < \${#s}; i++)); do
    c=\${s:i:1}
    case $c in [A-Za-z0-9/._~-]) out+=$c ;; *) printf -v c '%%%02X' "'$c"; out+=$c ;; esac
  done
  printf '\\e]7;file://%s%s\\e\\\\' "$HOSTNAME" "$out"
}
case ";\${PROMPT_COMMAND-};" in *";__pane_osc7;"*) ;; *) PROMPT_COMMAND="__pane_osc7\${PROMPT_COMMAND:+;$PROMPT_COMMAND}" ;; esac
`;

const ZSHENV = `${HEADER}
if [[ -n \${PANE_USER_ZDOTDIR+x} ]]; then ZDOTDIR=$PANE_USER_ZDOTDIR; else unset ZDOTDIR; fi
unset PANE_USER_ZDOTDIR
[[ -r \${ZDOTDIR:-$HOME}/.zshenv ]] && source \${ZDOTDIR:-$HOME}/.zshenv
if [[ -o interactive ]]; then
  __pane_osc7() {
    emulate -L zsh
    local LC_ALL=C out= c i
    for (( i = 1; i <= \${#PWD}; i++ )); do
      c=\${PWD[i]}
      if [[ $c == [A-Za-z0-9/._~-] ]]; then out+=$c; else out+=$(printf '%%%02X' "'$c"); fi
    done
    printf '\\e]7;file://%s%s\\e\\\\' "$HOST" "$out"
  }
  autoload -Uz add-zsh-hook && add-zsh-hook precmd __pane_osc7
fi
`;

const FISH = `${HEADER}
function __pane_osc7 --on-event fish_prompt
    printf '\\e]7;file://%s%s\\e\\\\' $hostname (string escape --style=url -- $PWD)
end
`;

/** Shells pane knows how to integrate, by the program's base name. */
const INTEGRATED = new Set(['bash', 'zsh', 'fish']);

/**
 * Where the integration files are: `shell-<hash of their text>` in the user's private
 * runtime directory (kits/node/paths.ts, the default socket's), written once and
 * shared by every server of this user running the same pane. A server killed
 * (a crash, `kill -9`) therefore leaves nothing new behind; a directory per server
 * in the temp dir, removed at stop, was left by every one that did not stop.
 * Without a usable runtime directory, a private mkdtemp directory of this server's,
 * removed at stop, as before.
 */
let written: string | null = null;
let owned = false;

const FILES: [string, string][] = [
  ['bashrc', BASH],
  [path.join('zsh', '.zshenv'), ZSHENV],
  ['pane.fish', FISH],
];

/** Writes the files `dir` lacks, each whole beside it and then renamed into place: a shell starting meanwhile reads all of it or none. */
function writeFiles(dir: string): void {
  fs.mkdirSync(path.join(dir, 'zsh'), { recursive: true, mode: 0o700 });
  for (const [name, text] of FILES) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) continue;
    const part = `${file}.${process.pid}.part`;
    fs.writeFileSync(part, text, { mode: 0o600 });
    fs.renameSync(part, file);
  }
}

function filesDir(): string {
  if (written && fs.existsSync(written)) return written;
  let shared: string | null = null;
  try {
    const hash = createHash('sha256').update(FILES.map(([n, t]) => `${n}\0${t}`).join('\0')).digest('hex').slice(0, 16);
    shared = path.join(runtimeDir(), `shell-${hash}`);
  } catch {
    shared = null; // the runtime directory is refused (not private) or cannot be made
  }
  if (shared) {
    writeFiles(shared);
    written = shared;
    owned = false;
    return shared;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-shell-'));
  writeFiles(dir);
  written = dir;
  owned = true;
  return dir;
}

/** Server stop: removes the files if they were this server's own (the mkdtemp fallback); shared ones stay for the next server. */
export function removeIntegrationFiles(): void {
  if (written && owned) fs.rmSync(written, { recursive: true, force: true });
  written = null;
  owned = false;
}

/**
 * The argv and environment that start `launch` with pane's integration, or the
 * launch unchanged: only bash, zsh and fish started without arguments (an
 * interactive shell, as pane starts the user's shell) are integrated.
 */
export function integrate(launch: LaunchSpec, env: Record<string, string>): { launch: LaunchSpec; env: Record<string, string> } {
  const shell = path.basename(launch.program);
  if (!INTEGRATED.has(shell) || launch.args.length > 0 || env[INTEGRATION_ENV] === '0') return { launch, env };
  let dir: string;
  try {
    dir = filesDir();
  } catch {
    return { launch, env }; // no temp dir: the shell still starts, cwd then comes from /proc
  }
  if (shell === 'bash') return { launch: { ...launch, args: ['--rcfile', path.join(dir, 'bashrc')] }, env };
  if (shell === 'fish') return { launch: { ...launch, args: ['--init-command', `source ${fishQuote(path.join(dir, 'pane.fish'))}`] }, env };
  const zsh: Record<string, string> = { ...env, ZDOTDIR: path.join(dir, 'zsh') };
  if (env.ZDOTDIR !== undefined) zsh.PANE_USER_ZDOTDIR = env.ZDOTDIR;
  return { launch, env: zsh };
}

/** fish's single quotes: only \\ and \' are escapes inside them. */
function fishQuote(s: string): string {
  return `'${s.replace(/[\\']/g, '\\$&')}'`;
}
