// `pane plumb send|test|read|rules`: the plumber from the command line. send does
// what a click on the text would (as you), test says which rule would fire and
// why the ones before it did not, read listens on a port (a file under
// /pane/plumb/), rules lists what applies here, in the order it is tried.
import { bool, int, str } from '../args';
import { JSON_FLAG, TARGET, type CommandSpec } from '../command';
import { OpError, UsageError } from '../errors';
import { table } from '../format';
import type { PlumbError, PlumbOutcome } from '../../../protocol/plumb';

const MESSAGE_FLAGS = [
  TARGET,
  { name: 'click', type: 'int', min: 0, value: 'N', doc: 'the offset in TEXT where the click was: a rule matches the text around it (without one, the whole TEXT must match)' },
  { name: 'wdir', type: 'string', value: 'DIR', doc: 'the directory relative paths are read in (default: the pane’s cwd with -t, else this shell’s)' },
  { name: 'port', type: 'string', value: 'PORT', doc: 'only rules that send to PORT fire (plumb(7)’s dst)' },
  JSON_FLAG,
] as const;

const errorLines = (errors: readonly PlumbError[]) => errors.map((e) => `${e.file}:${e.line}: ${e.message}`);

function messageParams(ctx: Parameters<CommandSpec['run']>[0], a: Parameters<CommandSpec['run']>[1]) {
  const text = a.positionals.join(' ');
  const pane = ctx.target(a);
  const click = int(a, 'click');
  const wdir = str(a, 'wdir');
  const port = str(a, 'port');
  if (click !== undefined && click >= text.length) throw new UsageError(`--click ${click} is past the end of the text (${text.length} characters)`, 'plumb');
  return { text, ...(pane !== undefined ? { pane } : {}), ...(click !== undefined ? { click } : {}), ...(port !== undefined ? { port } : {}), wdir: wdir ?? (pane === undefined ? process.cwd() : undefined) };
}

function say(ctx: Parameters<CommandSpec['run']>[0], r: PlumbOutcome, json: boolean): number {
  if (json) {
    ctx.out(JSON.stringify(r, null, 2));
    return r.fired ? 0 : 1;
  }
  for (const l of errorLines(r.errors)) ctx.err(`pane plumb: ${l}`);
  if (!r.fired) {
    for (const t of r.tried ?? []) ctx.out(`  ${t}`);
    throw new OpError(r.action);
  }
  ctx.out(`${r.rule}: ${r.action}`);
  if (r.data !== undefined) ctx.out(`  data ${r.data}`);
  const attrs = Object.entries(r.attrs ?? {});
  if (attrs.length > 0) ctx.out(`  attrs ${attrs.map(([k, v]) => `${k}=${v}`).join(' ')}`);
  if (r.open) ctx.out(`  open ${r.open} (a window opens it when you click there)`);
  return 0;
}

export const plumbCommands: CommandSpec[] = [
  {
    command: 'plumb send',
    summary: 'plumb TEXT as a click on it would: open file:line in an editor pane, a URL, a commit, or send it to a port',
    flags: [...MESSAGE_FLAGS],
    positionals: [{ name: 'TEXT', required: true, variadic: true }],
    notes: [
      'The first rule that matches fires (your ~/.config/pane/plumbing, then the project’s .pane/plumbing, then pane’s own: pane plumb rules). What it starts or types runs as you, through the same checks as your own requests.',
      'Exit status 1 when no rule matches.',
    ],
    async run(ctx, a) {
      const c = await ctx.connect();
      return say(ctx, await c.call('plumb/send', messageParams(ctx, a)), bool(a, 'json'));
    },
  },
  {
    command: 'plumb test',
    summary: 'say which rule TEXT would fire and what it would do, and why each rule before it did not',
    flags: [...MESSAGE_FLAGS],
    positionals: [{ name: 'TEXT', required: true, variadic: true }],
    notes: ['Nothing is done. Exit status 1 when no rule matches.'],
    async run(ctx, a) {
      const c = await ctx.connect();
      const r = await c.call('plumb/test', messageParams(ctx, a));
      if (!bool(a, 'json') && r.fired) for (const t of r.tried ?? []) ctx.out(`  ${t}`);
      return say(ctx, r, bool(a, 'json'));
    },
  },
  {
    command: 'plumb read',
    summary: 'listen on a port: print each message a rule sends to PORT, one JSON line, until Ctrl-C',
    flags: [],
    positionals: [{ name: 'PORT', required: true }],
    notes: ['While you read, messages for PORT come to you instead of its fallback (an editor pane, a browser); messages held while nobody read (two minutes at most) come first. The port is the file /pane/plumb/PORT.'],
    async run(ctx, a) {
      const port = a.positionals[0]!;
      if (!/^[a-z][a-z0-9_-]{0,31}$/.test(port)) throw new UsageError(`'${port}' is not a port name (a lowercase word)`, 'plumb read');
      const path = `/plumb/${port}`;
      const c = await ctx.connect();
      const { fid } = await c.call('ns/open', { path, mode: 'r' });
      const stop = new Promise<null>((resolve) => process.once('SIGINT', () => resolve(null)));
      for (;;) {
        const r = await Promise.race([c.call('ns/read', { path, fid, count: 1 << 20, wait: true }), stop]);
        if (r === null || r.count === 0) return 0;
        await ctx.writeBytes(Buffer.from(r.data, r.encoding === 'base64' ? 'base64' : 'utf8'));
      }
    },
  },
  {
    command: 'plumb rules',
    summary: 'list the plumbing rules that apply here, in the order they are tried, with their errors and the ports',
    flags: [TARGET, { name: 'wdir', type: 'string', value: 'DIR', doc: 'whose project rules to include (default: the pane’s cwd with -t, else this shell’s)' }, JSON_FLAG],
    async run(ctx, a) {
      const pane = ctx.target(a);
      const c = await ctx.connect();
      const r = await c.call('plumb/rules', { ...(pane !== undefined ? { pane } : { wdir: str(a, 'wdir') ?? process.cwd() }) });
      if (bool(a, 'json')) {
        ctx.out(JSON.stringify(r, null, 2));
        return 0;
      }
      ctx.out(table(['RULE', 'FROM', 'DOES', 'PATTERN'], r.rules.map((x) => [x.at, x.origin, x.does, x.pattern ?? '-'])));
      ctx.out('');
      ctx.out(table(['PORT', 'READERS', 'HELD'], r.ports.map((p) => [p.port, String(p.readers), String(p.held)])));
      for (const l of errorLines(r.errors)) ctx.err(`pane plumb: ${l}`);
      return r.errors.length > 0 ? 1 : 0;
    },
  },
];
