// The `pane` command line: finds the command in the table, parses its flags,
// runs it against the server, and turns every failure into one line and an exit
// code. Nothing here loads zod, so a one-shot command starts about as fast as Node.
import { parseArgs, str, usageLine } from './args';
import type { CommandSpec } from './command';
import { agentCommands } from './commands/agents';
import { awarenessCommands } from './commands/awareness';
import { durableCommands } from './commands/durable';
import { floatCommands } from './commands/floating';
import { paneCommands } from './commands/panes';
import { serverCommands, type ServeHook } from './commands/server';
import { sessionCommands } from './commands/sessions';
import { streamCommands } from './commands/streams';
import { withNamespace } from './nsCommands';
import { tagCommands } from './commands/tags';
import { sandboxCommands } from './commands/sandbox';
import { hostCommands } from './commands/hosts';
import { CommandContext, type CliIo } from './context';
import { EXIT, NoServerError, UsageError, exitCodeOf, messageOf } from './errors';
import { commandHelp, generalHelp, groupHelp, suggest } from './help';
import { defaultSocketPath } from '../paths';
import { PROTOCOL_VERSION } from '../../protocol/version';
import { paneVersion } from '../version';

export type { CliIo } from './context';
export { EXIT } from './errors';

/** The table of commands, in the order `pane help` lists them. */
export function commandTable(hook: ServeHook): CommandSpec[] {
  const table: CommandSpec[] = withNamespace([
    ...paneCommands,
    ...floatCommands,
    ...tagCommands,
    ...streamCommands,
    ...sessionCommands,
    ...serverCommands(hook),
    ...durableCommands,
    ...agentCommands,
    ...awarenessCommands,
    ...sandboxCommands,
    ...hostCommands,
  ]);
  table.push({
    command: 'help',
    summary: 'list the commands, or show one command’s usage and flags',
    flags: [],
    positionals: [{ name: 'COMMAND', variadic: true }],
    async run(ctx, a) {
      if (a.positionals.length === 0) {
        ctx.out(generalHelp(table, defaultSocketPath(false)));
        return EXIT.ok;
      }
      if (a.positionals.length === 1 && isGroup(table, a.positionals[0] as string)) {
        ctx.out(groupHelp(table, a.positionals[0] as string));
        return EXIT.ok;
      }
      const { spec } = findCommand(table, a.positionals);
      ctx.out(commandHelp(spec));
      return EXIT.ok;
    },
  });
  return table;
}

/** Whether `word` names a group of subcommands ("session", "host"), not a command. */
function isGroup(table: readonly CommandSpec[], word: string): boolean {
  return table.some((c) => c.command.startsWith(`${word} `));
}

/** Matches the longest command name at the start of argv ("session new" before "session"). */
function findCommand(table: readonly CommandSpec[], argv: readonly string[]): { spec: CommandSpec; rest: string[] } {
  const [first = '', second] = argv;
  const group = table.filter((c) => c.command.startsWith(first + ' '));
  if (group.length > 0) {
    const subs = group.map((c) => c.command.slice(first.length + 1));
    const byDefault = group.find((c) => c.groupDefault);
    if (second?.startsWith('-') && second !== '--help' && second !== '-h' && byDefault) return { spec: byDefault, rest: argv.slice(1) };
    if (second === undefined || second.startsWith('-')) throw new UsageError(`${first} needs a subcommand: ${subs.join(', ')}`);
    const spec = group.find((c) => c.command === `${first} ${second}`);
    if (!spec) throw new UsageError(`unknown ${first} command '${second}'; try ${subs.join(', ')}`);
    return { spec, rest: argv.slice(2) };
  }
  const spec = table.find((c) => c.command === first);
  if (!spec) {
    const names = [...new Set(table.map((c) => c.command.split(' ')[0] as string))];
    const near = suggest(first, names);
    throw new UsageError(`unknown command '${first}'${near.length > 0 ? ` (did you mean ${near.join(' or ')}?)` : ''}`);
  }
  return { spec, rest: argv.slice(1) };
}

/** Global flags before the command: --socket P, --help and --version. */
function leadingGlobals(argv: readonly string[]): { socket: string | undefined; help: boolean; version: boolean; rest: string[] } {
  let socket: string | undefined;
  let i = 0;
  for (; i < argv.length; i++) {
    const w = argv[i] as string;
    if (w === '-h' || w === '--help') return { socket, help: true, version: false, rest: argv.slice(i + 1) };
    if (w === '-V' || w === '--version') return { socket, help: false, version: true, rest: argv.slice(i + 1) };
    if (w === '--socket' || w.startsWith('--socket=')) {
      if (socket !== undefined) throw new UsageError('--socket given twice');
      const v = w === '--socket' ? argv[++i] : w.slice('--socket='.length);
      if (v === undefined) throw new UsageError('--socket needs a value (P)');
      socket = v;
    } else if (w.startsWith('-') && w !== '-') throw new UsageError(`unknown flag ${w} (flags go after the command, e.g. pane ls --json)`);
    else break;
  }
  return { socket, help: false, version: false, rest: argv.slice(i) };
}

/**
 * Runs one `pane` command line; resolves to its exit code (0 ok, 1 operation
 * error, 2 usage error, 3 no server). `extra.serve` runs the server for `pane serve`.
 */
export async function runCli(argv: string[], extra: ServeHook, io: Partial<CliIo> = {}): Promise<number> {
  const cio: CliIo = {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    // process.stdin is built on first touch (~3 ms, and it loads readline for a TTY): only `send -` and `restore -` need it.
    get stdin() {
      return io.stdin ?? process.stdin;
    },
    env: io.env ?? process.env,
  };
  const table = commandTable(extra);
  let command: string | undefined;
  let ctx: CommandContext | undefined;
  const onPipeError = (e: NodeJS.ErrnoException): void => {
    // The reader went away (`pane watch | head -1`): stop quietly, as cat does.
    if (e.code === 'EPIPE') process.exit(EXIT.ok);
  };
  cio.stdout.on('error', onPipeError);
  try {
    const g = leadingGlobals(argv);
    if (g.version) {
      cio.stdout.write(`pane ${paneVersion()} (protocol ${PROTOCOL_VERSION})\n`);
      return EXIT.ok;
    }
    if (g.help || g.rest.length === 0) {
      (g.help ? cio.stdout : cio.stderr).write(generalHelp(table, defaultSocketPath(false)));
      return g.help ? EXIT.ok : EXIT.usage;
    }
    // `pane host --help`: the group's subcommands, as `pane --help` lists the commands.
    if (g.rest.length === 2 && (g.rest[1] === '-h' || g.rest[1] === '--help') && isGroup(table, g.rest[0] as string)) {
      cio.stdout.write(groupHelp(table, g.rest[0] as string));
      return EXIT.ok;
    }
    const { spec, rest } = findCommand(table, g.rest);
    command = spec.command;
    if (spec.passthrough) {
      // The server parses its own flags (and prints its own --help).
      return await spec.run(new CommandContext(cio, '', spec.command, false), { flags: {}, positionals: [], program: undefined }, g.socket === undefined ? rest : ['--socket', g.socket, ...rest]);
    }
    const a = parseArgs(spec, rest);
    if (a.flags.help === true) {
      cio.stdout.write(commandHelp(spec));
      return EXIT.ok;
    }
    const local = str(a, 'socket');
    if (local !== undefined && g.socket !== undefined) throw new UsageError('--socket given twice', spec.command);
    const flag = local ?? g.socket;
    const socketPath = flag ?? cio.env.PANE_SOCKET ?? defaultSocketPath();
    ctx = new CommandContext(cio, socketPath, spec.command, flag !== undefined);
    // A bad -t or $PANE_ID is a usage error, reported before any connection is tried.
    if (spec.flags.some((f) => f.name === 'target')) ctx.target(a);
    return await spec.run(ctx, a, rest);
  } catch (e) {
    const code = exitCodeOf(e);
    if (e instanceof UsageError) {
      const cmd = e.command ?? command;
      const spec = cmd === undefined ? undefined : table.find((c) => c.command === cmd);
      const lines = [`pane${cmd ? ` ${cmd}` : ''}: ${e.message}`];
      if (spec) lines.push(`usage: ${usageLine(spec)}`, `Run \`pane help ${spec.command}\` for details.`);
      else lines.push('Run `pane --help` for the list of commands.');
      cio.stderr.write(lines.join('\n') + '\n');
    } else if (code === EXIT.usage && command !== undefined) {
      // The server refused a value the user gave (bad-request): still a usage error.
      const spec = table.find((c) => c.command === command);
      cio.stderr.write(`pane ${command}: ${messageOf(e)}\n${spec ? `usage: ${usageLine(spec)}\n` : ''}`);
    } else if (e instanceof NoServerError) {
      cio.stderr.write(`pane: ${e.message}\n`);
    } else {
      cio.stderr.write(`pane: ${messageOf(e)}\n`);
    }
    return code;
  } finally {
    // The EPIPE listener stays: a write queued now may fail after we return.
    await ctx?.close();
  }
}
