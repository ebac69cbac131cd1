// Which group of the command table (a file under commands/) each command lives in,
// so the bin loads the one-file bundle built for that group alone (decision 020):
// a bundle holding every command costs ~10 ms more to load than one holding `ls`.
// main.test.ts holds this map equal to the table.

/** A file under commands/, or `ns` for the namespace's own commands (in every bundle). */
export const GROUPS = ['panes', 'floating', 'tags', 'streams', 'sessions', 'server', 'durable', 'agents', 'awareness', 'sandbox', 'hosts', 'ns'] as const;
export type GroupName = (typeof GROUPS)[number];

/** The group of each command's first word. */
export const GROUP_OF: Readonly<Record<string, GroupName>> = {
  ls: 'panes', new: 'panes', split: 'panes', focus: 'panes', close: 'panes', zoom: 'panes', hide: 'panes', show: 'panes', restart: 'panes', swap: 'panes', resize: 'panes', layout: 'panes', move: 'panes',
  float: 'floating',
  tag: 'tags', attr: 'tags', exec: 'tags', plumb: 'tags',
  attach: 'streams', send: 'streams', output: 'streams', screen: 'streams', watch: 'streams', wait: 'streams',
  session: 'sessions',
  serve: 'server', start: 'server', info: 'server', clients: 'server', permit: 'server', url: 'server', stop: 'server', grant: 'server', metrics: 'server', top: 'server',
  restore: 'durable', service: 'durable',
  agent: 'agents', access: 'agents', finger: 'agents', mail: 'agents', write: 'agents', plan: 'agents', peers: 'agents', hook: 'agents', mcp: 'agents',
  claims: 'awareness', claim: 'awareness', release: 'awareness', handoff: 'awareness', delegate: 'awareness', awareness: 'awareness',
  sandbox: 'sandbox', sandboxd: 'sandbox',
  host: 'hosts',
  cat: 'ns', tail: 'ns', mount: 'ns', umount: 'ns',
};

/**
 * The group argv's command is in (after leading --socket P), or undefined: help, other
 * flags, a word no group has. `--version` needs no command at all: the smallest bundle
 * (ns) prints it as well as the whole one, ~50 ms sooner.
 */
export function groupOf(argv: readonly string[]): GroupName | undefined {
  let i = 0;
  while (i < argv.length && (argv[i] === '--socket' || argv[i]!.startsWith('--socket='))) i += argv[i] === '--socket' ? 2 : 1;
  const word = argv[i];
  if (word === '-V' || word === '--version') return 'ns';
  return word !== undefined && Object.hasOwn(GROUP_OF, word) ? GROUP_OF[word] : undefined;
}
