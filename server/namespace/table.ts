// The /pane tree as one table, acme's fsys.c way: each row is a file or
// directory with its mode, what read and write do, a one-line doc, and the
// functions that do it. The resolver, ns/* handlers, directory listings and
// docs/namespace.md are all driven from these rows, so they cannot disagree.
import {
  attrsRead,
  attrsWrite,
  bodyRead,
  bodyWrite,
  commandsRead,
  ctlRead,
  ctlWrite,
  diffRead,
  eventWrite,
  inputWrite,
  reviewRead,
  reviewWrite,
  tagRead,
  tagWrite,
} from './paneFiles';
import {
  clientsRead,
  entry,
  indexRead,
  metricsRead,
  statsRead,
  latencyRead,
  agentsRead,
  panesMetricsRead,
  newCtlRead,
  newCtlWrite,
  paneDirList,
  rootList,
  versionRead,
  viewKeyList,
  viewList,
  type View,
} from './rootFiles';
import { snapshotsRead, snapshotsWrite } from './snapshotFiles';
import { grantsRead, grantsWrite } from './grantFiles';
import type { Row } from './types';

/** Modes as ls shows them: directories r-x, read-only r--, read-write rw-, write-only -w-. */
const DIR = 0o555;
const RO = 0o444;
const RW = 0o644;
const WO = 0o222;

/** The files of every pane directory: /<n>/ and the same pane under each by-* view. */
export const PANE_FILES: readonly Row[] = [
  {
    path: '/<n>/tag', type: 'file', mode: RW, content: tagRead, put: tagWrite,
    doc: 'The tag, as the window shows it.',
    read: 'one line: the name, the command words, "|", then the user text',
    write: 'appends the text to the user part (a final newline is dropped, a blank is kept between words)',
  },
  {
    path: '/<n>/body', type: 'file', mode: RW, content: bodyRead, put: bodyWrite,
    doc: 'The pane’s text, served in pieces by offset.',
    read: 'a terminal: scrollback then screen as plain text, trailing blanks trimmed, then, once its program has ended, a line saying how and when (`[make exited 2 at 14:03:07]`); a text pane: its contents',
    write: 'appends (text panes only; a terminal is typed into through input)',
  },
  {
    path: '/<n>/input', type: 'file', mode: WO, put: inputWrite,
    doc: 'Keyboard input of a terminal pane.',
    read: '',
    write: 'the bytes, exactly, to the PTY (needs write permission: pane/input)',
  },
  {
    path: '/<n>/ctl', type: 'file', mode: RW, content: ctlRead, put: ctlWrite,
    doc: 'Status and control.',
    read: 'one line: id, session, signature, state, COLSxROWS, geometry x,y,w,h (- when hidden), quadrant',
    write: 'commands of the pane’s vocabulary, one per line, each run as pane/exec (origin ctl); a bad line fails the write',
  },
  {
    path: '/<n>/commands', type: 'file', mode: RO, content: commandsRead,
    doc: 'The pane’s command vocabulary: the words of the tag, the palette, ctl and `pane exec`.',
    read: 'one word per line: its usage (args in order, [optional], a|b choices), a tab, its doc',
    write: '',
  },
  {
    path: '/<n>/attrs', type: 'file', mode: RW, content: attrsRead, put: attrsWrite,
    doc: 'Attributes, computed and user-defined.',
    read: 'key=value lines: id sig kind owner session cwd pid quadrant geometry state exit size, then the pane’s own attrs sorted',
    write: 'key=value lines set user-defined keys, key= deletes one; computed keys are refused',
  },
  {
    path: '/<n>/diff', type: 'file', mode: RO, content: diffRead,
    doc: 'What an agent pane’s worktree changed since its branch’s base (panes without a worktree answer so).',
    read: 'a unified diff, files git does not track yet shown as new; cut with a note past 512 KiB',
    write: '',
  },
  {
    path: '/<n>/review', type: 'file', mode: RW, content: reviewRead, put: reviewWrite,
    doc: 'Review of an agent pane’s worktree: its changed files, and the verdict on them.',
    read: 'STATUS PATH lines (M modified, A added, D deleted, R renamed, ? untracked)',
    write: '`accept [FILE]` commits the changes (all, or one file) to the agent’s branch; `reject [FILE]` restores them to its last commit; `open FILE` opens a changed file in $VISUAL/$EDITOR beside the agent’s pane',
  },
  {
    path: '/<n>/event', type: 'file', stream: true, mode: RW, feed: (c, t) => c.ns.eventFeed(t.pane!.n), put: eventWrite,
    doc: 'The pane’s events, one per line: SEQ KIND ORIGIN BY TEXT.',
    read: 'a growing file; through an open handle a read blocks until the next event. Opened read-write: this reader intercepts command executions',
    write: 'the SEQ of an "offered" line: performs that command by default. Through the read-write handle, `word NAME [<arg>|[arg]|<arg:a|b>|<arg:int>|<arg...>]... -- DOC` adds a word to the pane’s vocabulary (tag, palette, commands, pane exec, MCP) for as long as the handle is open, offered to this reader when run; `unword NAME` takes it back',
  },
];

const viewRows = (view: View, key: string, what: string): Row[] => [
  {
    path: `/${view}/`, type: 'dir', mode: DIR, list: (c) => viewList(c, view, { type: 'dir', mode: DIR } as Row),
    doc: `Panes grouped by ${what}.`, read: `one directory per ${what} in use ("/" and "%" in names written %2F, %25)`, write: '',
  },
  {
    path: `/${view}/<${key}>/`, type: 'dir', mode: DIR, list: (c, t) => viewKeyList(c, view, t.key!, { type: 'dir', mode: DIR } as Row),
    doc: `The panes whose ${what} is <${key}>.`, read: 'one directory per pane, named by its number', write: '',
  },
  {
    path: `/${view}/<${key}>/<n>/`, type: 'dir', mode: DIR, list: (c, t) => paneDirList(c, t, PANE_FILES),
    doc: 'The same pane directory as /<n>/: the same files, the same state.', read: 'the files of /<n>/', write: '',
  },
];

export const NAMESPACE_TABLE: readonly Row[] = [
  {
    path: '/', type: 'dir', mode: DIR, list: (c) => rootList(c, NAMESPACE_TABLE),
    doc: 'The namespace root (mounted at /pane or wherever `pane mount DIR` puts it).',
    read: 'the files and directories below, then one directory per pane, then one per joined host’s pane (HOST:N)', write: '',
  },
  {
    path: '/index', type: 'file', mode: RO, content: (c) => indexRead(c),
    doc: 'Every pane, one fixed-width line each.',
    read: 'id host session signature owner quadrant state cwd, padded to fixed widths (blanks in a field become _, an empty one -), then the tag line',
    write: '',
  },
  {
    path: '/log', type: 'file', stream: true, mode: RO, feed: (c) => c.ns.log,
    doc: 'Every pane operation on the server, one line each: ID OP TEXT (ID is - when no pane).',
    read: 'a growing file of new, close, exit, restart, exec, tag, focus, zoom, session-new, session-close, attach, detach, denied; a handle’s read blocks for the next',
    write: '',
  },
  {
    path: '/agents', type: 'file', mode: RO, content: (c) => agentsRead(c),
    doc: 'Every agent the reader may see, one JSON object a line (what an agents board binds).',
    read: 'name host state since source pane worktree app project prompt (cut at 300 characters) topics claims converges ("PEER NN% on TOPICS" for each open convergence prediction) unread (null for a grant’s guest or a read-only client: no mail)',
    write: '',
  },
  {
    path: '/new/', type: 'dir', mode: DIR, list: () => [entry({ type: 'file', mode: RW }, 'ctl')],
    doc: 'Makes new panes.', read: 'ctl', write: '',
  },
  {
    path: '/new/ctl', type: 'file', mode: RW, content: (c) => newCtlRead(c), put: newCtlWrite,
    doc: 'Writing a program line opens a pane running it.',
    read: 'through the handle that created a pane: that pane’s ctl line, id first; otherwise nothing',
    write: 'first line: a program and its args (quotes group, no shell; empty = your shell), run beside the focused pane; further lines: ctl commands for it',
  },
  {
    path: '/server/', type: 'dir', mode: DIR,
    list: () => NAMESPACE_TABLE.filter((r) => r.path.startsWith('/server/') && r.path !== '/server/').map((r) => entry(r, r.path.slice('/server/'.length))),
    doc: 'The server itself.', read: 'version clients stats metrics latency panes grants snapshots', write: '',
  },
  {
    path: '/server/version', type: 'file', mode: RO, content: (c) => versionRead(c),
    doc: 'What is serving.', read: 'one line: pane VERSION protocol N host HOST', write: '',
  },
  {
    path: '/server/clients', type: 'file', mode: RO, content: (c) => clientsRead(c),
    doc: 'Connected clients.', read: 'one line each: id name kind user transport capabilities write|read-only attached-panes', write: '',
  },
  {
    path: '/server/stats', type: 'file', mode: RO, content: (c) => statsRead(c),
    doc: 'Counts and sizes.', read: '"name value" lines: panes sessions clients rev uptime_ms rss_bytes heap_used_bytes pid ns_open_handles ns_log_bytes', write: '',
  },
  {
    path: '/server/metrics', type: 'file', mode: RO, content: (c) => metricsRead(c),
    doc: 'The daemon’s and each pane’s figures and the latency histograms, in Prometheus text (as `pane metrics` prints them).', read: 'Prometheus text exposition 0.0.4: pane_* gauges, counters and the pane_echo_seconds, pane_hook_duration_seconds, pane_request_duration_seconds histograms', write: '',
  },
  {
    path: '/server/latency', type: 'file', mode: RO, content: (c) => latencyRead(c),
    doc: 'Each latency histogram read off: how many, the median, p99 and mean.', read: 'one JSON object a line: name (echo, hook, request), method (a request’s), count, p50Ms, p99Ms, meanMs', write: '',
  },
  {
    path: '/server/panes', type: 'file', mode: RO, content: (c) => panesMetricsRead(c),
    doc: 'What each pane costs, from /proc (server/metrics’ per-pane figures).',
    read: 'one JSON object a line: pane kind signature session agent state outputBytes attached processes cpuSeconds rssBytes ioReadBytes ioWriteBytes, cpuPercent and outputBytesPerSecond over the last second or two (null at first), rssMiB', write: '',
  },
  {
    path: '/server/grants', type: 'file', mode: RW, content: (c) => grantsRead(c), put: (c, _t, d) => grantsWrite(c, d),
    doc: 'The attach grants alive (the person’s: never an agent’s or a guest’s to read).',
    read: 'one JSON object a line: id mode session sessionName note createdAt expiresAt uses lastUsedAt clients (never a token); through the handle that issued one: that grant with its token and URL',
    write: '`new [ro|rw] [session NAME] [context NAME] [for DURATION] [name LABEL…]` issues one (read it back through the same handle); `revoke ID` revokes one and closes its guests',
  },
  {
    path: '/server/snapshots', type: 'file', mode: RW, content: (c) => snapshotsRead(c), put: (c, _t, d) => snapshotsWrite(c, d),
    doc: 'The state generations the daemon keeps (empty when the server keeps none).',
    read: 'one line each, newest first: GEN ISO-TIME sessions N panes N bytes N',
    write: '`save` writes a generation now; `restore GEN|TIME` brings one back beside the current sessions',
  },
  {
    path: '/plumb/', type: 'dir', mode: DIR,
    list: (c) => c.ctx.services.plumb.portList(c.ctx.services.plumb.rulesFor(undefined).rules).map((p) => entry({ type: 'file', mode: RO }, p.port)),
    doc: 'The plumber’s ports (docs/plumbing.md): editors, agents and `pane plumb read PORT` listen on them.',
    read: 'one file per port a rule sends to or someone reads (edit, web, git, …)', write: '',
  },
  {
    path: '/plumb/<port>', type: 'file', stream: true, mode: RO, feed: (c, t) => c.ctx.services.plumb.port(t.name),
    doc: 'A port: every message a rule sends to it, one JSON line each.',
    read: 'a growing file of {src, dst, wdir, type, data, attrs, rule} lines; through an open handle a read blocks for the next, and messages held while nobody read come first (for two minutes, the newest 16)',
    write: '',
  },
  ...viewRows('by-sig', 'sig', 'app signature'),
  ...viewRows('by-owner', 'owner', 'owner (a user or agent)'),
  ...viewRows('by-session', 'session', 'session name'),
  {
    path: '/<n>/', type: 'dir', mode: DIR, list: (c, t) => paneDirList(c, t, PANE_FILES),
    doc: 'One pane; <n> is its number here, or HOST:N for a joined host’s pane (answered by that host).', read: 'tag body input ctl commands attrs diff review event', write: '',
  },
  ...PANE_FILES,
];

/** Rows by path pattern, for the resolver. */
export const ROWS: ReadonlyMap<string, Row> = new Map(NAMESPACE_TABLE.map((r) => [r.path, r]));
