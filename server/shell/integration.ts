// pane's shell integration: bash, zsh and fish started in a pane report their
// working directory (OSC 7) at every prompt, without touching the user's rc files —
// bash through --rcfile (ours sources ~/.bashrc first), zsh through ZDOTDIR (ours
// hands back to the user's), fish through --init-command. See docs/decisions/017.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LaunchSpec } from '../../kits/protocol/model';

/** Set to 0 in the server's environment to start shells exactly as given. */
export const INTEGRATION_ENV = 'PANE_SHELL_INTEGRATION';

const HEADER = '# Written by the pane server for its panes; regenerated at each start. Your own rc files are read first.\n';

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

/** Where this server wrote its integration files (a private mkdtemp directory), made on first use. */
let written: string | null = null;

function filesDir(): string {
  if (written && fs.existsSync(written)) return written;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-shell-'));
  fs.writeFileSync(path.join(dir, 'bashrc'), BASH, { mode: 0o600 });
  fs.mkdirSync(path.join(dir, 'zsh'), { mode: 0o700 });
  fs.writeFileSync(path.join(dir, 'zsh', '.zshenv'), ZSHENV, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'pane.fish'), FISH, { mode: 0o600 });
  written = dir;
  return dir;
}

/** Removes the files (server stop). */
export function removeIntegrationFiles(): void {
  if (written) fs.rmSync(written, { recursive: true, force: true });
  written = null;
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
