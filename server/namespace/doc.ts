// docs/namespace.md, written like acme(4) and generated from the table: the
// prose is here, every file's mode, read, write and doc come from the rows, so
// the manual cannot drift from the code (test/namespace/doc.test.ts holds it).
import { LOG_KEEP, EVENT_KEEP, OFFERS_KEPT, TEXT_MAX } from './namespace';
import { NAMESPACE_TABLE } from './table';
import { BODY_REUSE_MS } from './paneFiles';
import { READER_MAX_BYTES, RECENT_KEEP } from './feed';
import { MOUNT_REFUSALS_PER_MINUTE } from '../../kits/node/fuse/refusals';

function modeText(type: string, mode: number): string {
  let s = type === 'dir' ? 'd' : '-';
  for (const b of [0o400, 0o200, 0o100]) s += mode & b ? (b === 0o400 ? 'r' : b === 0o200 ? 'w' : 'x') : '-';
  return s;
}

const cell = (s: string) => (s === '' ? '—' : s.replace(/\|/g, '\\|'));

export function renderNamespaceDoc(): string {
  const o: string[] = [];
  const p = (...lines: string[]) => o.push(...lines);
  p(
    '# namespace(4) — the /pane file tree',
    '',
    '<!-- Generated from server/namespace/table.ts by server/namespace/doc.ts; `npm run docs` rewrites it, and a test fails when it is stale. -->',
    '',
    '## NAME',
    '',
    'pane — the pane server’s panes as files: `index`, `log`, `new/ctl`, `<n>/{tag,body,input,ctl,commands,attrs,event}`, `by-sig/`, `by-owner/`, `by-session/`, `server/`',
    '',
    '## SYNOPSIS',
    '',
    '```',
    'pane mount /pane                      # or any DIR; pane umount DIR',
    'cat /pane/index',
    'cat /pane/3/body',
    'echo close > /pane/3/ctl',
    'ls /pane/by-sig/com.pane.terminal/',
    'tail -f /pane/log',
    'pane cat /3/body; pane ls /; pane write /3/ctl zoom; pane tail /3/event',
    '```',
    '',
    '## DESCRIPTION',
    '',
    'The pane server serves its state as a file tree, the way acme serves `/mnt/acme`. The files are not a copy: every read is computed from the live panes and every write is a protocol request (`pane/exec`, `pane/tag`, `pane/attrs`, `pane/input`, ...) made with the reader’s own connection, so it meets the same validation, capability checks and typed errors as any client. A change made through a file shows in the window, `pane ls` and the protocol at once, and the other way round.',
    '',
    'The tree is reached two ways. Over the protocol with `ns/list`, `ns/stat`, `ns/open`, `ns/read`, `ns/write` and `ns/close` (see docs/protocol.md) — which is what `pane cat PATH`, `pane ls PATH`, `pane write PATH` and `pane tail PATH` use, so they work against any server the socket reaches. And as a real file system: `pane mount DIR` starts a mount process, a protocol client like any other, that serves the tree through FUSE. Paths below are relative to the mount point (`/3/body` is `/pane/3/body` when mounted at `/pane`).',
    '',
    'Each pane has a directory named by its number `<n>`; `HOST:n` with this server’s own host name is the same pane. A joined host’s pane (issue 26, decision 037) is the directory `HOST:n` beside them, `HOST` the name of its file in `~/.config/pane/hosts/`: the root lists one for each pane the host reported at its last heartbeat, and every list, stat, read and write below it is answered by that host’s own namespace (its `/n/` files), so `cat /box:3/body` is what `cat /3/body` gives on box. Each call waits at most NS_REMOTE_TIMEOUT_MS (5 s) for the host; a host not joined, or one that does not answer, fails the call naming its state (`pane host ls`). A host joined `readOnly` shows its files without write bits and refuses writes (EACCES); an agent sees no other host’s panes. Opening a remote `event` read-write (interception) is refused; read-only it is read by offset. `/index` lists the joined hosts’ panes after this server’s, as of each host’s last heartbeat (the host column is the host file’s name, the session `-`: it is named on that host), and `by-sig/` and `by-owner/` hold them as `HOST:n` directories with the same files; `by-session/` holds this server’s panes only, since a remote pane’s session lives on its host.',
    '',
    '## FILES',
    '',
    'The table below is the namespace table itself (server/namespace/table.ts). `<n>` is a pane; `<sig>`, `<owner>` and `<session>` are the keys of the views. A mode shows what the file allows; anything else is refused.',
    '',
    '| path | mode | read | write | doc |',
    '| --- | --- | --- | --- | --- |',
  );
  for (const r of NAMESPACE_TABLE) p(`| \`${r.path}\` | \`${modeText(r.type, r.mode)}\`${r.stream ? ' stream' : ''} | ${cell(r.read)} | ${cell(r.write)} | ${cell(r.doc)} |`);
  p(
    '',
    '### ctl',
    '',
    'A read gives one line: `id session signature state COLSxROWS x,y,w,h quadrant`, blanks in a field written `_`, an empty field `-`. The geometry is the rectangle the server lays the pane out in (`-` when it is not visible); the quadrant is where the server lays the pane out (the attr `quadrant`, kept by the server with or without a window open).',
    '',
    'A write holds commands, one per line, each a word of the pane’s vocabulary with its arguments exactly as `/<n>/commands` lists them: `close`, `zoom`, `focus [left|right|up|down|next|prev]`, `split [h|v] [ratio]`, `resize left|right|up|down [cells]`, `swap`, `name TEXT`, `float`, `tile`, `raise`, `lower`, `move x y`, `size w h`, `restart`, `interrupt`, `send TEXT`. Each line is run as `pane/exec` with origin `ctl`, parsed by the same `parseCommandLine` as a tag click, the palette and `pane exec`. Before anything runs every line is checked; an unknown word or a malformed argument fails the whole write with a message naming the line (`/3/ctl line 2 ("frob"): unknown command "frob" for pane 3; known: ...`), and nothing of it is done. A line that fails when run (say `resize left` on a pane at the window edge) stops the write there; the lines before it stay done.',
    '',
    '### event',
    '',
    'Each line is `SEQ KIND ORIGIN BY TEXT`. SEQ counts up per pane; ORIGIN and BY are `-` where they do not apply. Kinds:',
    '',
    '- `executed ORIGIN BY LINE` — a command line was performed (ORIGIN: `tag`, `palette`, `ctl`, `cli`, `protocol`; BY: the user or agent).',
    '- `offered ORIGIN BY LINE` — an execution handed to this pane’s interceptor instead of being performed (below).',
    '- `created`, `closed`, `exited code=N|signal=N`, `restarted`, `state STATE`, `resized COLSxROWS`, `focus on|off`, `zoom on|off`.',
    '- `tag TAGLINE` — the tag changed; `attrs k=v k= ...` — attrs changed (`k=` removed).',
    '',
    `**Interception.** As in acme, a program that holds a pane’s \`event\` file open read-write (FUSE: \`exec 3<>/pane/3/event\`; protocol: \`ns/open\` with mode \`rw\`) takes over that pane’s command executions. \`pane/exec\` consults the interceptor (server/namespace/intercept.ts) before performing anything: with one present, the line — from a tag click, the palette, \`pane exec\` or a ctl write — is not performed but appended to the event file as an \`offered\` line, and the caller is told it was handed over. The program handles the ones it wants (this is how an app or agent adds words to a pane’s vocabulary) and writes the others back: a line whose first field is the SEQ of an \`offered\` line (echoing the whole line back works) has that command performed by default, with its original origin and user, and an \`executed\` line follows. Writing back a SEQ that was never offered, or was performed already, fails the write. The last ${OFFERS_KEPT} offers of a pane can be written back. When an interceptor is present, ctl writes skip the up-front check, since the interceptor may know words the vocabulary does not. One reader intercepts a pane at a time (a second read-write open fails with EBUSY); closing the file, or the connection ending, stops the interception. Opening for read-write needs the write capability (and, for an agent, panes.write on that pane).`,
    '',
    '### log',
    '',
    'Each line is `ID OP TEXT`: `new SESSION SIG NAME`, `close SESSION`, `exit code=N|signal=N`, `restart`, `exec ORIGIN BY LINE`, `tag TAGLINE`, `focus SESSION`, `zoom on`, `attach CLIENT ID` and `detach CLIENT ID` (a client taking or leaving a pane’s stream), and with ID `-`: `session-new NAME`, `session-close NAME`, `denied AGENT METHOD RULE: WHAT` (an agent refused by its .access; the NAME of a pane launched without a sandbox ends in `[unsandboxed]`).',
    '',
    '### Streams: event and log',
    '',
    `Both are growing files. Read by offset — \`cat\`, \`grep -r\`, \`tail -f\` on a mount, \`pane cat\` — they hold the recent lines and end, like a log file; \`tail -f\` follows them as they grow. They keep at most ${LOG_KEEP} bytes (log) and ${EVENT_KEEP} bytes (event); when a line would pass that the file starts over empty, as a log rotated by truncation (\`tail -f\` says “file truncated” and follows on). Read through an open handle that waits — acme’s behaviour, what \`pane tail\` and an interceptor do — a read blocks until the next line and returns every line since the open, none twice, across rotations. A waiting reader that falls more than ${READER_MAX_BYTES} bytes behind loses its oldest lines and is told so in a \`- dropped N lines\` line. Seeking back up to ${RECENT_KEEP} bytes on such a handle re-reads what it had (so bash’s \`read\` works on it).`,
    '',
    '### body',
    '',
    `A terminal’s body is its scrollback then its screen as plain text, one line per row, trailing blanks trimmed, trailing empty rows dropped, ending in a newline. It is rendered by the screen model and served in pieces by offset (at most 1 MiB a piece over the protocol), never as one reply: a read from offset 0 renders it anew (unless no output arrived since the last rendering), and later pieces reuse that rendering — through a handle always, by path for ${BODY_REUSE_MS / 1000} s — so one \`cat\` sees one version. A text pane’s body is what was written to it (appends, at most ${TEXT_MAX} bytes); a widget pane’s is empty.`,
    '',
    '### new/ctl',
    '',
    'Writing a program line opens a pane running it, beside the focused pane of the first session (or as the first pane of a new session when there is none). The line is split into argv: blanks separate words, `\'...\'` and `"..."` group, `\\` escapes; there is no shell, so no variables, globs or pipes (run `sh -c \'...\'` for those). An empty line runs the user’s shell. Further lines of the write, and later writes through the same handle, are ctl commands for the new pane. Reading the same handle afterwards gives the new pane’s ctl line, id first; `pane write /new/ctl PROGRAM` prints it.',
    '',
    '### attrs',
    '',
    'The computed keys come first, in this order: `id` (HOST:n), `sig`, `kind`, `owner`, `session`, `cwd`, `pid`, `quadrant`, `geometry`, `state`, `exit`, `size`; then the pane’s own attrs sorted by key (`title`, `bell`, and whatever apps and users set). Newlines in values read as `\\n`. A write of `key=value` lines sets user-defined keys and `key=` deletes one, all in one request; writing a computed key is refused (EACCES).',
    '',
    '## ERRORS',
    '',
    'Over the protocol and the CLI errors are typed (docs/protocol.md) with a one-line message naming the path and the problem. Through FUSE they become errno values:',
    '',
    '| protocol code | errno | e.g. |',
    '| --- | --- | --- |',
    '| `pane-not-found`, `session-not-found`, `not-found` | ENOENT | a gone pane, `/3/nothing`, `by-sig/x/3` when pane 3 is not x |',
    '| `bad-request`, `failed` | EINVAL | an unknown ctl word, a bad argument, `resize left` at the edge |',
    '| `denied`, `not-permitted`, `unauthorized` | EACCES | no write capability, writing `commands`, reading `input`, writing a computed attr |',
    '| `is-directory` / `not-directory` | EISDIR / ENOTDIR | reading `/3`, listing `/index` |',
    '| `busy` | EBUSY | a second interceptor on one pane |',
    '| the server went away | ENOTCONN | |',
    '',
    'EIO is reserved for what cannot be explained; an ordinary mistake never gets it.',
    '',
    `An errno cannot say which word was unknown or why a resize failed, so the mount process writes the server's message for each refused write, open for writing and read to its log, one line each (\`2026-12-06T13:57:09Z write "/1/ctl" refused: /1/ctl line 1 ("frobnicate"): unknown command "frobnicate" for pane 1; known: close zoom …\`); \`pane mount\` prints the log's path. Not logged: a path that is not there (shells and \`ls\` probe for them) and a file opened for reading that does not allow it (\`grep -r\` opens every \`input\`). At most \`MOUNT_REFUSALS_PER_MINUTE\` (${MOUNT_REFUSALS_PER_MINUTE}) lines a minute, then one that counts the rest (kits/node/fuse/refusals.ts).`,
    '',
    '## FUSE',
    '',
    '`pane mount DIR` checks that FUSE can work (Linux, /dev/fuse, fuse-native with libfuse2) and says plainly why not otherwise; the protocol and CLI paths work everywhere. It starts `pane mount --foreground DIR` as a separate process — a client of the server over its socket, exactly like the CLI — waits until the mount is up, and returns. That process answers the kernel asynchronously and never touches its own mount, so a read that blocks (an interceptor waiting on `event`) holds one FUSE thread and nothing else. The mount uses `direct_io` (files computed on read report size 0, like /proc, and are read to their end) and no attribute or entry caching (a closed pane disappears at once; `tail -f` sees a stream grow). The process ends when `pane umount DIR` stops it, when the mount is taken away (`fusermount -u`), or when the server goes; a mount left by a killed process (“Transport endpoint is not connected”) is detached by the next `pane mount` of that directory. Its log is in the runtime directory beside its pid file.',
    '',
    'Writes are messages: each write(2) call is one ctl, attrs or event message, so a command must not be split across calls (`echo` and `printf` write a line in one call). `O_TRUNC` is accepted and means nothing. Files cannot be created, removed or renamed.',
    '',
    '## DEPARTURES FROM ACME',
    '',
    '- Windows are panes; `<n>` also accepts `HOST:n`, for panes of joined servers.',
    '- `new/` holds only `ctl`, and only a write creates: the first line is a program to run (acme creates an empty window when any `new/` file is opened). Reading `new/ctl` without having written through that handle gives nothing, so `grep -r` over a mount never makes panes.',
    '- `tag` writes append to the user text only (the name and command words belong to the pane), and keep a blank between words; newlines become blanks.',
    '- `body` of a terminal is read-only; typing goes to `input` (acme has no terminals; its win uses body and the event file).',
    '- `ctl` takes the pane’s command vocabulary (the same words as the tag), not acme’s ctl messages, and refuses a bad line before running any.',
    '- `event` lines are `SEQ KIND ORIGIN BY TEXT`, not acme’s `c1 c2 q0 q1 flag n text`; a command is passed back by its SEQ. ctl writes are offered to the interceptor as well as tag and palette clicks. Only one interceptor per pane.',
    '- Opened read-only (or read by path), `event` and `log` are growing files that end, so `cat`, `grep -r` and `tail -f` work on a mount; acme’s blocking read is what a handle opened read-write (FUSE) or a waiting read (protocol, `pane tail`) gets.',
    '- `index` lines carry id, host, session, signature, owner, quadrant, state and cwd (the directory the pane’s shell is in; blanks as `_`) before the tag, in fixed-width columns that widen, never cut.',
    '- Added: `input`, `commands`, `attrs`, `by-sig/`, `by-owner/`, `by-session/`, `server/`.',
    '',
  );
  return o.join('\n');
}
