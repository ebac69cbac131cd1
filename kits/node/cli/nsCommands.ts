// The namespace from the command line: pane cat, ls PATH, write, tail, mount
// and umount — all over the protocol (ns/*), so they work wherever the socket
// reaches. `pane ls` with no PATH stays the pane list; a PATH contains "/".
import type { NsEntry } from '../../protocol/namespace';
import { bool, int } from './args';
import { JSON_FLAG, type CommandSpec } from './command';
import type { CommandContext } from './context';
import { UsageError } from './errors';
import { mountCommand, umountCommand } from './nsMount';
import type { Connection } from '../../client/connection';

/** Bytes per ns/read: the protocol's largest piece, so a big body takes few round trips. */
const PIECE = 1 << 20;
/** Bytes per ns/write of stdin, cut at a line end where one is near, so ctl lines stay whole. */
const WRITE_CHUNK = 512 << 10;

function decode(r: { data: string; encoding: 'utf8' | 'base64' }): Buffer {
  return Buffer.from(r.data, r.encoding === 'base64' ? 'base64' : 'utf8');
}

/** A namespace path as given on the command line: must start with "/" (a bare word is refused, not guessed). */
export function nsPath(word: string, command: string): string {
  if (!word.startsWith('/')) throw new UsageError(`'${word}' is not a namespace path: paths start with /, e.g. /3/body or /index`, command);
  return word;
}

/** ls -l style mode: d or -, then rwx for the owner (the namespace has one user: the server's). */
export function modeText(e: Pick<NsEntry, 'type' | 'mode'>): string {
  const bits = ['r', 'w', 'x'];
  let s = e.type === 'dir' ? 'd' : '-';
  for (let shift = 6; shift >= 0; shift -= 3) for (let b = 0; b < 3; b++) s += e.mode & (1 << (shift + 2 - b)) ? bits[b] : '-';
  return s;
}

/**
 * Prints a whole file. One path read first: most files fit one piece, so that is
 * one round trip. A longer one is read on through a handle from offset 0 again,
 * so every piece comes from one rendering (one cat, one version).
 */
export async function catOne(ctx: CommandContext, c: Connection, path: string, write: (b: Uint8Array) => Promise<void> = (b) => ctx.writeBytes(b)): Promise<void> {
  const first = await c.call('ns/read', { path, offset: 0, count: PIECE });
  if (first.eof) {
    if (first.count > 0) await write(decode(first));
    return;
  }
  const { fid } = await c.call('ns/open', { path, mode: 'r' });
  try {
    let offset = 0;
    for (;;) {
      const r = await c.call('ns/read', { path, fid, offset, count: PIECE });
      if (r.count > 0) await write(decode(r));
      offset = r.offset + r.count;
      if (r.eof || r.count === 0) return;
    }
  } finally {
    await c.call('ns/close', { fid }).catch(() => undefined);
  }
}

/** The last `n` lines of a buffer (a final newline does not start an empty line). */
export function lastLines(b: Buffer, n: number): Buffer {
  if (n <= 0 || b.byteLength === 0) return Buffer.alloc(0);
  let i = b.byteLength - (b[b.byteLength - 1] === 0x0a ? 1 : 0);
  for (let k = 0; k < n; k++) {
    if (i <= 0) return b;
    const j = b.lastIndexOf(0x0a, i - 1);
    if (j < 0) return b;
    i = j;
  }
  return b.subarray(i + 1);
}

async function readStdin(ctx: CommandContext): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const ch of ctx.io.stdin) chunks.push(typeof ch === 'string' ? Buffer.from(ch) : (ch as Buffer));
  return Buffer.concat(chunks);
}

export function chunks(data: Buffer, size = WRITE_CHUNK): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  while (data.byteLength - at > size) {
    const nl = data.lastIndexOf(0x0a, at + size - 1);
    const end = nl >= at + size / 2 ? nl + 1 : at + size;
    out.push(data.subarray(at, end));
    at = end;
  }
  out.push(data.subarray(at));
  return out;
}

export const nsCommands: CommandSpec[] = [
  {
    command: 'cat',
    summary: 'print namespace files (e.g. /3/body, /index, /log)',
    flags: [],
    positionals: [{ name: 'PATH', required: true, variadic: true }],
    notes: [
      'Reads through ns/open + ns/read in pieces, so a long scrollback streams and one file is one version.',
      'event and log print what they hold now and end; `pane tail PATH` follows them.',
    ],
    async run(ctx, a) {
      const paths = a.positionals.map((w) => nsPath(w, 'cat'));
      const c = await ctx.connect();
      for (const p of paths) await catOne(ctx, c, p);
      return 0;
    },
  },
  {
    command: 'write',
    summary: 'write TEXT (or stdin with -) to a namespace file, e.g. /3/ctl',
    flags: [{ name: 'no-newline', short: 'n', type: 'bool', doc: 'do not end TEXT with a newline (stdin is always sent as is)' }],
    positionals: [{ name: 'PATH', required: true }, { name: 'TEXT', variadic: true }],
    notes: [
      'TEXT words are joined by blanks and end with a newline, as echo does; `-` sends stdin exactly.',
      '`pane write /new/ctl htop` prints the new pane’s ctl line, id first.',
      'A bad ctl command fails the whole write and names the line; nothing of it is done.',
    ],
    async run(ctx, a) {
      const [first, ...words] = a.positionals;
      const path = nsPath(first!, 'write');
      let data: Buffer;
      if (words.length === 1 && words[0] === '-') data = await readStdin(ctx);
      else if (words.length === 0) throw new UsageError('give TEXT to write, or - to write stdin', 'write');
      else data = Buffer.from(words.join(' ') + (bool(a, 'no-newline') ? '' : '\n'), 'utf8');
      const c = await ctx.connect();
      // One handle for all pieces: new/ctl's later pieces then go to the pane the first made.
      const { fid } = await c.call('ns/open', { path, mode: 'w' });
      try {
        for (const [i, piece] of chunks(data).entries()) {
          const r = await c.call('ns/write', { path, fid, data: piece.toString('base64'), encoding: 'base64' });
          if (r.ctl !== undefined && i === 0) ctx.out(r.ctl);
        }
      } finally {
        await c.call('ns/close', { fid }).catch(() => undefined);
      }
      return 0;
    },
  },
  {
    command: 'tail',
    summary: 'print the last lines of event or log, then follow it until the pane closes (Ctrl-C stops)',
    flags: [{ name: 'lines', short: 'n', type: 'int', min: 0, value: 'N', doc: 'lines already there to print first (default 10)' }],
    positionals: [{ name: 'PATH', required: true }],
    notes: ['Follows through an open handle whose reads block, as acme’s event file does. On a file that is not a stream it prints the last lines and ends.'],
    async run(ctx, a) {
      const path = nsPath(a.positionals[0]!, 'tail');
      const n = int(a, 'lines') ?? 10;
      const c = await ctx.connect();
      const opened = await c.call('ns/open', { path, mode: 'r' });
      const { fid } = opened;
      // What was there at the open, then everything after it: no line twice, none missed.
      const start = opened.size;
      const head: Buffer[] = [];
      for (let off = 0; off < start || !opened.stream; ) {
        const r = await c.call('ns/read', { path, offset: off, count: PIECE, ...(opened.stream ? {} : { fid }) });
        head.push(decode(r));
        off = r.offset + r.count;
        if (r.eof || r.count === 0) break;
      }
      await ctx.writeBytes(lastLines(Buffer.concat(head), n));
      if (!opened.stream) return 0;
      const stop = new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
      for (;;) {
        const r = await Promise.race([c.call('ns/read', { path, fid, count: PIECE, wait: true }), stop.then(() => null)]);
        if (r === null || r.count === 0) return 0;
        await ctx.writeBytes(decode(r));
      }
    },
  },
  mountCommand,
  umountCommand,
];

/** `pane ls [PATH]`: the pane list, or with a PATH the namespace directory. */
export function lsWithPath(ls: CommandSpec): CommandSpec {
  return {
    ...ls,
    summary: `${ls.summary}; with PATH, list a namespace directory (PATH contains /)`,
    flags: [...ls.flags, { name: 'long', short: 'l', type: 'bool', doc: 'with PATH: mode, size and name, as ls -l' }],
    positionals: [{ name: 'PATH' }],
    notes: [...(ls.notes ?? []), 'With PATH (starting with /, e.g. /, /3, /by-sig): lists that namespace directory, directories with a trailing /.'],
    async run(ctx, a, argv) {
      const word = a.positionals[0];
      if (word === undefined) {
        if (bool(a, 'long')) throw new UsageError('-l lists a namespace directory: give a PATH, e.g. pane ls -l /3', 'ls');
        return ls.run(ctx, a, argv);
      }
      const path = nsPath(word, 'ls');
      const c = await ctx.connect();
      const { entries } = await c.call('ns/list', { path });
      if (bool(a, 'json')) ctx.out(JSON.stringify(entries, null, 2));
      else if (bool(a, 'long')) {
        const w = Math.max(1, ...entries.map((e) => String(e.size).length));
        for (const e of entries) ctx.out(`${modeText(e)} ${String(e.size).padStart(w)} ${e.name}${e.type === 'dir' ? '/' : ''}`);
      } else for (const e of entries) ctx.out(e.name + (e.type === 'dir' ? '/' : ''));
      return 0;
    },
  };
}

/**
 * One word, two commands (`pane write ada` talks to an agent, `pane write /3/ctl`
 * writes a file): the first positional decides — a namespace PATH starts with "/".
 */
export function sharedByPath(other: CommandSpec, ns: CommandSpec): CommandSpec {
  const first = other.positionals?.[0]?.name ?? 'ARG';
  return {
    ...other,
    summary: `${other.summary}; with a PATH (starting with /): ${ns.summary}`,
    flags: [...other.flags, ...ns.flags.filter((f) => !other.flags.some((o) => o.name === f.name || (f.short !== undefined && o.short === f.short)))],
    positionals: [{ name: `${first}|PATH` }, ...(other.positionals ?? []).slice(1)],
    notes: [...(other.notes ?? []), `With a first argument starting with /: ${ns.summary}.`, ...(ns.notes ?? [])],
    run: (ctx, a, argv) => (a.positionals[0]?.startsWith('/') ? ns.run(ctx, a, argv) : other.run(ctx, a, argv)),
  };
}

/** Joins the namespace commands to the CLI's table (the one registration edit in main.ts). */
export function withNamespace(table: CommandSpec[]): CommandSpec[] {
  const mine = new Map(nsCommands.map((c) => [c.command, c]));
  const out = table.map((s) => {
    if (s.command === 'ls') return lsWithPath(s);
    const ns = mine.get(s.command);
    if (!ns) return s;
    mine.delete(s.command);
    return sharedByPath(s, ns);
  });
  return [...out, ...mine.values()];
}
