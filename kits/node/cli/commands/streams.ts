// Commands on a pane's byte streams and the event stream: send input, read or
// follow output by offset, print the screen, watch events as JSON lines.
import { paneExitLine } from '../../../protocol/exitLabel';
import type { PaneRef } from '../../../protocol/ids';
import { ATTACH_HISTORY_MAX, MAX_GRID_ROWS } from '../../../protocol/gridLimits';
import { bool, int, str, type ParsedArgs } from '../args';
import { TARGET, type CommandSpec } from '../command';
import type { CommandContext } from '../context';
import { EXIT, streamEnded, UsageError } from '../errors';
import { drain, follow } from './follow';
import { waitCommand } from './wait';
import { catOne } from '../nsCommands';
import { PaneFault } from '../../../protocol/fault';
import { shownKeepingTabs } from '../../../protocol/shown';

/** Bytes per pane/input call: base64 of this stays under the protocol's 1 MiB data limit. */
const INPUT_CHUNK = 512 * 1024;
const FAMILIES = ['pane', 'layout', 'focus', 'session', 'client', 'output', 'config', 'agent', 'awareness', 'host'] as const;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks);
}

/**
 * The bytes `pane send` writes. Text mode types the text: line breaks become
 * Enter (\r, what a keyboard sends; TUIs such as coding agents read \n as "new
 * line in the input", not "submit"), and one Enter ends it unless noNewline.
 * Raw mode sends the bytes exactly as given.
 */
export function sendBytes(input: Buffer, mode: { raw: boolean; noNewline: boolean }): Buffer {
  if (mode.raw) return input;
  const text = input.toString('utf8').replace(/\r?\n$/, '').replace(/\r?\n/g, '\r');
  return Buffer.from(mode.noNewline ? text : text + '\r', 'utf8');
}

function aim(ctx: CommandContext, a: ParsedArgs): { pane?: PaneRef } {
  const pane = ctx.target(a);
  return pane === undefined ? {} : { pane };
}

export const streamCommands: CommandSpec[] = [
  {
    command: 'send',
    summary: 'type text into a pane and submit it (Enter pressed once the program has it), or send raw bytes',
    flags: [
      TARGET,
      { name: 'no-newline', short: 'n', type: 'bool', doc: 'do not press Enter at the end' },
      { name: 'raw', type: 'bool', doc: 'send the bytes exactly as given: no Enter, nothing translated', conflicts: ['no-newline'] },
    ],
    positionals: [{ name: 'TEXT', required: true, variadic: true }],
    notes: [
      'TEXT words are joined by spaces. A lone - reads the bytes from stdin.',
      'Text mode types the text as a keyboard would: line breaks inside it are sent as Enter (\\r); then, once the program has taken the text (the end of the text came back in its output and settled, at most 1.5 s), Enter is pressed as a key of its own, so coding agents and other TUIs that read a burst as a paste submit it. -n leaves it unsubmitted.',
      'Use -- before TEXT that starts with "-": pane send -t 3 -- -v',
    ],
    async run(ctx, a) {
      const input = a.positionals.length === 1 && a.positionals[0] === '-' ? await readAll(ctx.io.stdin) : Buffer.from(a.positionals.join(' '), 'utf8');
      const raw = bool(a, 'raw');
      // The text without its Enter: the Enter is pressed by the server as a key of its own, once the program has taken the text (pane/input submit).
      const submit = !raw && !bool(a, 'no-newline');
      const bytes = sendBytes(input, { raw, noNewline: true });
      const c = await ctx.connect();
      let pane = ctx.target(a);
      let at = 0;
      do {
        const chunk = bytes.subarray(at, at + INPUT_CHUNK);
        const last = at + INPUT_CHUNK >= bytes.byteLength;
        const r = await c.call('pane/input', { ...(pane === undefined ? {} : { pane }), data: chunk.toString('base64'), encoding: 'base64', ...(last && submit ? { submit: true } : {}) });
        // Later chunks go to the pane the first one reached, even if focus moves meanwhile.
        pane ??= r.pane;
        at += INPUT_CHUNK;
      } while (at < bytes.byteLength);
      return 0;
    },
  },
  waitCommand,
  {
    command: 'attach',
    summary: 'show a pane in this terminal and type into it, as dtach or tmux attach (from ssh, with no window); Ctrl+\\ detaches',
    flags: [
      { ...TARGET, type: 'string', value: 'ID|SESSION', doc: 'the pane (N or HOST:N), or a session (NAME, followed; HOST:NAME, its focused pane), as tmux attach -t takes a session (default: the focused session, followed)' },
      { name: 'detach-key', type: 'string', value: '^K', doc: 'the key that detaches, a control key written with a caret (default ^\\)' },
      { name: 'read-only', short: 'r', type: 'bool', doc: 'watch only: keys are not sent (the detach key still works)' },
      { name: 'fit', type: 'bool', doc: "size the pane's terminal to this one (less the status row), now and as it resizes" },
      { name: 'history', type: 'int', value: 'ROWS', min: 0, max: ATTACH_HISTORY_MAX, doc: `rows of the pane's history brought to scroll back into (default ${ATTACH_HISTORY_MAX}; 0 over a slow link: the screen alone, and what is printed after)` },
      { name: 'no-mouse-scroll', type: 'bool', doc: 'leave the mouse to this terminal while the program does not ask for it: its own selection without Shift, and no wheel scrollback' },
    ],
    notes: [
      "The pane is drawn from pane's own model of its screen, as tmux draws a window: text, colours and the cursor reach this terminal; the program's escape sequences (a title, the clipboard, queries) never do. The last row names the pane, its size and the detach key.",
      'Given a session (or no -t), the attach follows that session’s focus, as a tmux client shows its session’s current pane: `pane split`, `pane focus` or a click in a window move it to another pane, and a closed pane gives way to the one focused next; it ends with the session. `-t N` stays on pane N.',
      'A pane larger than this terminal shows the part that holds its cursor, and the status row says so; --fit resizes the pane instead (a window showing it sizes it back when its layout changes).',
      'The wheel and Shift+PgUp/PgDn scroll back into the pane’s history (its last --history rows, and all printed since); scrolled back, the arrows, PgUp/PgDn, g and G move as in a pager, ? and / search up and down (n and N again; lowercase text ignores case), q returns, and any other key returns and goes to the program. Over a screen with no history (a TUI’s alternate screen) the wheel is the arrow keys, as a terminal sends them.',
      'A program that asks for the mouse (vim, htop, an agent’s TUI) gets clicks and the wheel in the form it asked for. Otherwise the terminal is asked for the mouse: the wheel scrolls back here, and a drag (a double click: a word; a triple: a row) selects and copies to the clipboard (OSC 52, as tmux does; where the terminal takes none, select with Shift held), or give --no-mouse-scroll to leave the mouse to the terminal.',
      'Keys go to the pane as the window sends them, with this connection’s rights: an agent’s CLI types only where its .access lets it, a read-only guest not at all. It ends when the program does, saying how, or at the detach key; the pane runs on.',
    ],
    async run(ctx, a) {
      const { runAttach, detachKeyOf, DEFAULT_DETACH } = await import('./attach');
      const spec = str(a, 'detach-key');
      const t = str(a, 'target');
      return runAttach(ctx, t === undefined ? ctx.target(a) : t, { detachKey: spec === undefined ? DEFAULT_DETACH : detachKeyOf(spec), readOnly: bool(a, 'read-only'), fit: bool(a, 'fit'), history: int(a, 'history') ?? ATTACH_HISTORY_MAX, mouseScroll: !bool(a, 'no-mouse-scroll') });
    },
  },
  {
    command: 'output',
    summary: 'print a pane’s output by stream offset; --follow keeps streaming',
    flags: [
      TARGET,
      { name: 'from', type: 'int', value: 'OFFSET', min: 0, doc: 'stream offset to start at (default: the oldest byte still held)' },
      { name: 'follow', short: 'f', type: 'bool', doc: 'then stream new output until the pane exits or Ctrl-C' },
      { name: 'status', type: 'bool', doc: "with --follow: exit with the program's status (its code; 128+N for signal N; 1 if the pane was closed first)" },
    ],
    notes: [
      'Bytes are written as the program wrote them (escape sequences included). If the ring has already dropped the bytes asked for, a note goes to stderr and output continues from the oldest byte held.',
      "A follow that ends with its program says how on stderr ([make exited 2 at 14:03:07]); with --status its exit status is the program's, so `pane output -t N -f --status && deploy` runs deploy only after a build that passed.",
    ],
    async run(ctx, a) {
      const c = await ctx.connect();
      const pane = ctx.target(a);
      const from = int(a, 'from');
      if (bool(a, 'status') && !bool(a, 'follow')) throw new UsageError('--status is the status of a program followed to its end: give --follow too', 'output');
      if (bool(a, 'follow')) return follow(ctx, c, pane, from, { status: bool(a, 'status') });
      await drain(ctx, c, pane, from);
      return 0;
    },
  },
  {
    command: 'screen',
    summary: 'print the pane’s scrollback and screen as text, and how its program ended if it has (a pane with no terminal: its body)',
    flags: [
      TARGET,
      { name: 'ansi', type: 'bool', doc: 'print the serialized terminal state (escape sequences) instead of plain text' },
      { name: 'rows', type: 'int', value: 'N', min: 1, max: MAX_GRID_ROWS, doc: 'only N rows: the last ones, or from --top (what a slow link needs)' },
      { name: 'top', type: 'int', value: 'ROW', min: 0, doc: 'with --rows: the first row, counted from the oldest line of history (0)' },
      { name: 'offset', type: 'int', value: 'K', min: 0, doc: 'with --rows: the N rows that end K rows above the last one (scrolled back K rows)' },
    ],
    async run(ctx, a) {
      const c = await ctx.connect();
      const rows = int(a, 'rows');
      let top = int(a, 'top');
      const offset = int(a, 'offset');
      if ((top !== undefined || offset !== undefined) && rows === undefined) throw new UsageError(`--${top !== undefined ? 'top' : 'offset'} needs --rows`, 'screen');
      if (top !== undefined && offset !== undefined) throw new UsageError('--top counts from the oldest row, --offset from the newest: give one', 'screen');
      if (rows !== undefined) {
        if (bool(a, 'ansi')) throw new UsageError('--rows gives plain text; --ansi gives the whole screen', 'screen');
        // Counted back from the newest row: where that is, asked first (one row), then the window.
        if (offset !== undefined) top = Math.max(0, (await c.call('pty/grid', { ...aim(ctx, a), rows: 1 })).total - rows - offset);
        const g = await c.call('pty/grid', { ...aim(ctx, a), rows, ...(top !== undefined ? { top } : {}) });
        if (g.lines.length > 0) ctx.out(g.lines.join('\n'));
        return 0;
      }
      const ansi = bool(a, 'ansi');
      let s;
      try {
        s = await c.call('pty/screen', { ...aim(ctx, a), form: ansi ? 'both' : 'text' });
      } catch (e) {
        // A pane with no terminal (widgets, a view) shows its body: the text of /N/body. This
        // server escapes a widget's values itself; a joined host's body (HOST:N) is that host's
        // words, so every line is escaped here as well: printed text never holds a control.
        if (!(e instanceof PaneFault) || e.reason !== 'no terminal' || ansi) throw e;
        const target = ctx.target(a) ?? e.subject;
        if (target === undefined) throw e;
        const parts: Uint8Array[] = [];
        await catOne(ctx, c, `/${target}/body`, async (b) => void parts.push(b));
        const text = Buffer.concat(parts).toString('utf8').replace(/\n$/, '');
        if (text !== '') ctx.out(text.split('\n').map(shownKeepingTabs).join('\n'));
        return 0;
      }
      if (ansi) {
        await ctx.writeBytes(Buffer.from(s.serialized, 'utf8'));
        return 0;
      }
      if (s.text !== '') ctx.out(s.text);
      // A finished program's screen ends as it left it; say that it ended, and how (as the window does).
      // The target as given: s.pane is the pane's number on its own host (HOST:N stays HOST:N).
      const ended = paneExitLine(await c.call('pane/get', { pane: ctx.target(a) ?? s.pane }));
      if (ended !== null) ctx.out(ended);
      return 0;
    },
  },
  {
    command: 'watch',
    summary: 'print events as JSON lines, until Ctrl-C',
    flags: [{ name: 'state', type: 'bool', doc: 'first print the state the events apply to, as {"event":"state",...}' }],
    positionals: [{ name: 'FAMILY', variadic: true, values: FAMILIES }],
    notes: [`Families: ${FAMILIES.join(', ')} (default: all). Each line is {"event":NAME,"rev":N,"data":{...}}.`],
    async run(ctx, a) {
      const c = await ctx.connect();
      const families = a.positionals as (typeof FAMILIES)[number][];
      let ended = false;
      let resolve: (n: number) => void = () => {};
      const done = new Promise<number>((r) => (resolve = r));
      const code = (n: number): void => {
        ended = true;
        resolve(n);
      };
      c.onEvent((event, rev, data) => ended || ctx.out(JSON.stringify({ event, rev, data })));
      c.onClose((reason) => {
        if (ended) return;
        ctx.err(streamEnded(reason));
        code(EXIT.failed);
      });
      // The state is printed at its place, before any event read with it (behind it): a reader applies the events to it in order.
      const withState = bool(a, 'state');
      await c.call('events/subscribe', families.length > 0 ? { families } : {}, { inOrder: (snap) => void (withState && ctx.out(JSON.stringify({ event: 'state', rev: snap.rev, data: snap }))) });
      const onSigint = (): void => code(EXIT.ok);
      process.once('SIGINT', onSigint);
      try {
        return await done;
      } finally {
        process.removeListener('SIGINT', onSigint);
      }
    },
  },
];
