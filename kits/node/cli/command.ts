// The shape of one row of the command table: its argument declarations (which
// the parser and `pane help` both read), its text, and its handler.
import type { ArgSpec, FlagSpec, ParsedArgs } from './args';
import type { CommandContext } from './context';

export interface CommandSpec extends ArgSpec {
  /** One line for the command list. */
  summary: string;
  /** Paragraphs for `pane help CMD`: behaviour worth knowing, decisions, examples. */
  notes?: readonly string[];
  /** The argv after the command name goes to the handler unparsed (serve). */
  passthrough?: boolean;
  /** The group's command when flags follow the group's word at once: `pane grant --session S` is `pane grant new --session S`. */
  groupDefault?: boolean;
  /** Returns the exit code; throws UsageError / NoServerError / server errors for the others. */
  run(ctx: CommandContext, args: ParsedArgs, argv: readonly string[]): Promise<number>;
}

/** -t, shared by every command that aims at a pane. */
export const TARGET: FlagSpec = {
  name: 'target',
  short: 't',
  type: 'pane',
  value: 'ID',
  doc: 'the pane, N or HOST:N (default: $PANE_ID inside a pane, else the focused pane)',
};

export const SESSION: FlagSpec = { name: 'session', type: 'string', value: 'S', doc: 'session name or id (default: the default session)' };

export const JSON_FLAG: FlagSpec = { name: 'json', type: 'bool', doc: 'print the protocol objects as JSON' };
