// Commands on what a pane says about itself: its acme-style tag, its attrs, and
// the words of its command vocabulary (what a tag click executes).
import { bool, str } from '../args';
import { printAck } from './panes';
import { plumbCommands } from './plumb';
import { JSON_FLAG, TARGET, type CommandSpec } from '../command';
import { OpError, UsageError } from '../errors';

const ATTR_ARG = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)=(.*)$/s;

export const tagCommands: CommandSpec[] = [
  {
    command: 'tag',
    summary: 'show or set a pane’s tag (name, command words, user text)',
    flags: [
      TARGET,
      { name: 'name', type: 'string', value: 'N', doc: 'set the tag name' },
      { name: 'user', type: 'string', value: 'TEXT', doc: 'replace the user text', conflicts: ['append'] },
      { name: 'append', type: 'string', value: 'TEXT', doc: 'append to the user text (as acme does)' },
    ],
    notes: ['With no flag it prints the tag: name | command words | user text.'],
    async run(ctx, a) {
      const c = await ctx.connect();
      const pane = ctx.target(a);
      const set = { name: str(a, 'name'), user: str(a, 'user'), append: str(a, 'append') };
      if (Object.values(set).every((v) => v === undefined)) {
        const p = pane === undefined ? await focused(c) : await c.call('pane/get', { pane });
        ctx.out([p.tag.name, p.tag.commands.join(' '), p.tag.user].join(' | '));
        return 0;
      }
      const params = Object.fromEntries(Object.entries({ pane, ...set }).filter(([, v]) => v !== undefined));
      await c.call('pane/tag', params);
      return 0;
    },
  },
  {
    command: 'attr',
    summary: 'show a pane’s attrs, or set (KEY=VALUE) and delete (KEY=) them',
    flags: [TARGET, JSON_FLAG],
    positionals: [{ name: 'KEY=VALUE', variadic: true }],
    async run(ctx, a) {
      const set: Record<string, string | null> = {};
      for (const w of a.positionals) {
        const m = ATTR_ARG.exec(w);
        if (!m) throw new UsageError(`'${w}' is not KEY=VALUE (keys are letters, digits, "_", "." or "-", starting with a letter, digit or "_")`, 'attr');
        set[m[1] as string] = m[2] === '' ? null : (m[2] as string);
      }
      const pane = ctx.target(a);
      const c = await ctx.connect();
      if (a.positionals.length === 0) {
        const p = pane === undefined ? await focused(c) : await c.call('pane/get', { pane });
        if (a.flags.json === true) ctx.out(JSON.stringify(p.attrs, null, 2));
        else for (const [k, v] of Object.entries(p.attrs)) ctx.out(`${k}=${v}`);
        return 0;
      }
      await c.call('pane/attrs', { ...(pane === undefined ? {} : { pane }), set });
      return 0;
    },
  },
  {
    command: 'exec',
    summary: 'execute a word of the pane’s command vocabulary, as a tag click does',
    flags: [TARGET, { name: 'shell', type: 'bool', doc: 'a line that is no word of the pane runs as a shell line in your +Errors pane (acme); an agent’s runs in its own sandboxed one' }],
    positionals: [{ name: 'WORD', required: true }, { name: 'ARGS', variadic: true }],
    notes: ['`pane exec -t 3 Close` runs the pane’s Close command; `pane tag -t 3` lists the words.', 'A word that opens a pane (split, or an agent’s finger, mail, write) prints its id, as `pane split` does: `n=$(pane exec -t 3 finger)`.'],
    async run(ctx, a) {
      const c = await ctx.connect();
      const pane = ctx.target(a);
      const line = a.positionals.join(' ');
      const r = await c.call('pane/exec', { ...(pane === undefined ? {} : { pane }), line, origin: 'cli', ...(bool(a, 'shell') ? { fallback: 'shell' as const } : {}) });
      if (r.output !== undefined && r.output !== '') ctx.out(r.output);
      if (!r.done) throw new OpError(`pane ${r.pane} did not run '${line}'`);
      if (r.opened) printAck(ctx, c.host, r.opened, pane);
      return 0;
    },
  },
  ...plumbCommands,
];

/** The focused pane of the default session. */
async function focused(c: import('../../../client/connection').Connection) {
  const s = await c.call('session/get', {});
  if (s.focused === null) throw new OpError(`session ${s.name} has no focused pane; pass -t ID`);
  return c.call('pane/get', { pane: s.focused });
}
