// `pane help` text, produced from the command table itself so the help can
// never disagree with what the parser accepts.
import { GLOBAL_FLAGS, usageLine, type FlagSpec } from './args';
import type { CommandSpec } from './command';
export { suggest } from './suggest';

function flagRow(f: FlagSpec): [string, string] {
  const names = [f.short !== undefined ? `-${f.short}` : undefined, `--${f.name}`].filter(Boolean).join(', ');
  const value = f.type === 'bool' ? '' : ` ${f.value ?? (f.type === 'enum' ? (f.values ?? []).join('|') : f.type.toUpperCase())}`;
  return [`${names}${value}`, f.doc + (f.required ? ' (required)' : '')];
}

function rows(pairs: readonly [string, string][], indent = '  '): string {
  const w = Math.max(0, ...pairs.map(([a]) => a.length));
  return pairs.map(([a, b]) => `${indent}${a.padEnd(w)}  ${b}`).join('\n');
}

/** The whole command list: what `pane help` and `pane --help` print. */
export function generalHelp(commands: readonly CommandSpec[], defaultSocket: string): string {
  return [
    'pane — drive a pane server from the command line',
    '',
    'usage: pane [--socket P] COMMAND [ARGS...]',
    '',
    'commands:',
    rows(commands.map((c) => [c.command, c.summary])),
    '',
    `The server is found by --socket P, then $PANE_SOCKET, then ${defaultSocket}.`,
    '-t ID takes N or HOST:N; it defaults to $PANE_ID inside a pane, else the focused pane.',
    'Exit codes: 0 ok; 1 the operation failed; 2 usage error; 3 no server reachable.',
    'Run `pane help COMMAND` (or `pane COMMAND --help`) for its flags; `pane --version` for the versions.',
    '',
  ].join('\n');
}

/** A group's subcommands with their summaries (`pane host --help`, `pane help host`). */
export function groupHelp(commands: readonly CommandSpec[], group: string): string {
  const subs = commands.filter((c) => c.command.startsWith(`${group} `));
  return [`usage: pane ${group} SUBCOMMAND [ARGS...]`, '', `${group} commands:`, rows(subs.map((c) => [c.command, c.summary])), '', `Run \`pane help ${group} SUBCOMMAND\` (or \`pane ${group} SUBCOMMAND --help\`) for its flags.`, ''].join('\n');
}

/** One command: usage, flags, notes. */
export function commandHelp(c: CommandSpec): string {
  const out = [`usage: ${usageLine(c)}`, '', c.summary.charAt(0).toUpperCase() + c.summary.slice(1) + '.'];
  if (c.notes && c.notes.length > 0) out.push('', ...c.notes);
  const flags = c.passthrough ? [GLOBAL_FLAGS[0] as FlagSpec] : [...c.flags, ...GLOBAL_FLAGS];
  out.push('', 'flags:', rows(flags.map(flagRow)), '');
  return out.join('\n');
}

