// pane(1), written from the command table itself (as `pane help` is), so the man
// page the packages install can never disagree with what the parser accepts.
// test/packaging/generated.test.ts keeps packaging/man/pane.1 in step.
import { GLOBAL_FLAGS, usageLine, type FlagSpec } from './args';
import type { CommandSpec } from './command';

/** roff-safe text: backslashes and hyphens escaped, no line starting a request. */
export function roff(text: string): string {
  const s = text.replace(/\\/g, '\\e').replace(/-/g, '\\-').replace(/’/g, "'").replace(/[“”]/g, '"');
  return s.replace(/^([.'])/gm, '\\&$1');
}

function flagTerm(f: FlagSpec): string {
  const names = [f.short !== undefined ? `\\fB\\-${f.short}\\fR` : undefined, `\\fB${roff(`--${f.name}`)}\\fR`].filter(Boolean).join(', ');
  const value = f.type === 'bool' ? '' : ` \\fI${roff(f.value ?? (f.type === 'enum' ? (f.values ?? []).join('|') : f.type.toUpperCase()))}\\fR`;
  return names + value;
}

function flagItems(flags: readonly FlagSpec[]): string[] {
  return flags.flatMap((f) => ['.TP', flagTerm(f), roff(f.doc + (f.required ? ' (required)' : '') + '.')]);
}

function commandItem(c: CommandSpec): string[] {
  const out = ['.TP', `\\fB${roff(usageLine(c))}\\fR`, roff(c.summary.charAt(0).toUpperCase() + c.summary.slice(1) + '.')];
  for (const n of c.notes ?? []) out.push('.IP', roff(n));
  if (c.flags.length > 0) out.push('.RS', ...flagItems(c.flags), '.RE');
  return out;
}

/** The whole page, for `version` (the package's). */
export function renderManPage(table: readonly CommandSpec[], version: string): string {
  const lines = [
    `.\\" pane(1): generated from the CLI's command table by kits/node/cli/manPage.ts; do not edit.`,
    `.TH PANE 1 "" "pane ${version}" "User Commands"`,
    // Ragged right: a usage line stretched to the margin reads "pane  new".
    '.ad l',
    '.SH NAME',
    'pane \\- drive a pane server: tiling terminals and AI coding agents as peers',
    '.SH SYNOPSIS',
    '.B pane',
    '[\\fB\\-\\-socket\\fR \\fIP\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR...]',
    '.br',
    '.B pane start',
    '.br',
    '.B pane \\-\\-version',
    '.SH DESCRIPTION',
    roff('pane is a keyboard-driven tiling desktop shell in which everything on screen is a pane and coding agents are peers in panes beside you. One pane server owns the state; the window, this command, the /pane namespace and MCP are views of it.'),
    '.PP',
    roff('`pane start` opens the desktop (a server and its window); `pane serve` runs a headless server; every other command is a one-shot client of a running server, found by --socket, then $PANE_SOCKET, then the per-user default socket.'),
    '.SH OPTIONS',
    ...flagItems(GLOBAL_FLAGS),
    '.TP',
    '\\fB\\-V\\fR, \\fB\\-\\-version\\fR',
    roff('print the version of pane and of its protocol, and exit.'),
    '.SH COMMANDS',
    roff('-t ID takes N or HOST:N; it defaults to $PANE_ID inside a pane, else the focused pane. Run `pane help COMMAND` for the same text as below.'),
    ...table.flatMap(commandItem),
    '.SH ENVIRONMENT',
    '.TP',
    '.B PANE_SOCKET',
    roff('the server socket when --socket is not given.'),
    '.TP',
    '.B PANE_ID',
    roff('the pane a command aims at by default; set inside every pane.'),
    '.TP',
    '.B PANE_BROWSER',
    roff('the Chromium-family browser `pane start` opens its window in when Electron is not installed.'),
    '.TP',
    '.B XDG_RUNTIME_DIR',
    roff('the default socket is $XDG_RUNTIME_DIR/pane/default.sock (else a private directory under /tmp).'),
    '.SH FILES',
    '.TP',
    '.I ~/.config/pane/',
    roff('apps/, keymaps and awareness settings (under $XDG_CONFIG_HOME when set).'),
    '.TP',
    '.I ~/.local/share/pane/',
    roff('agent homes (.plan, .access, Maildir) and other server data (under $XDG_DATA_HOME when set).'),
    '.SH EXIT STATUS',
    roff('0 ok; 1 the operation failed (one line names the problem); 2 usage error; 3 no server reachable.'),
    '.SH SEE ALSO',
    roff('The documentation shipped with pane: README.md and docs/ (architecture, protocol, namespace, agents, awareness, install).'),
    '',
  ];
  return lines.join('\n');
}
