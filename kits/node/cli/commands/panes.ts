// Pane commands of the table: list, create, and the layout operations of the
// runtime contract (split, focus, close, zoom, restart, swap, resize).
import path from 'node:path';
import type { LaunchSpec } from '../../../protocol/model';
import type { PaneRef } from '../../../protocol/ids';
import type { FocusDirection, FocusMove } from '../../../protocol/pane';
import type { Params } from '../../../protocol/index';
import { bool, int, str, type ParsedArgs } from '../args';
import { JSON_FLAG, SESSION, TARGET, type CommandSpec } from '../command';
import type { CommandContext } from '../context';
import { OpError, UsageError } from '../errors';
import { lsTable, paneId } from '../format';

const DIRECTION = {
  name: 'direction',
  short: 'd',
  type: 'enum',
  value: 'h|v',
  values: ['horizontal', 'vertical'],
  aliases: { h: 'horizontal', v: 'vertical' },
  doc: 'h = side by side (new pane on the right), v = stacked (new pane below); default h',
} as const;
// The protocol's lists, spelled here so the CLI loads no schema to print its help (decision 020); `satisfies` keeps them its.
const FOCUS_DIRS = ['left', 'right', 'up', 'down', 'next', 'prev'] as const satisfies readonly FocusDirection[];
const FOCUS_MOVES = [...FOCUS_DIRS, 'last'] as const satisfies readonly FocusMove[];
const EDGES = ['left', 'right', 'up', 'down'] as const;
// kits/layout/presets.ts's LAYOUT_PRESETS, then session/layout's two others: spelled here so help loads no schema (decision 020).
const LAYOUTS = ['even-horizontal', 'even-vertical', 'main-horizontal', 'main-vertical', 'tiled', 'spread', 'next'] as const satisfies readonly Params<'session/layout'>['layout'][];
const CWD = { name: 'cwd', type: 'string', value: 'D', doc: 'working directory of the new pane (relative to here)' } as const;
const SIG = { name: 'sig', type: 'string', value: 'SIG', doc: 'app signature, reverse-DNS (e.g. com.example.tool)' } as const;
const NAME = { name: 'name', type: 'string', value: 'N', doc: 'tag name of the new pane' } as const;

/** The launch spec from `-- PROGRAM ARGS...` and --cwd; undefined means "the user's shell". */
export function launchOf(ctx: CommandContext, a: ParsedArgs): LaunchSpec | undefined {
  const cwd = cwdOf(a);
  if (a.program) {
    const [program, ...args] = a.program as [string, ...string[]];
    return cwd === undefined ? { program, args } : { program, args, cwd };
  }
  // pane/split has no cwd of its own: a cwd alone means the user's shell, started there.
  if (cwd !== undefined) return { program: ctx.io.env.SHELL || '/bin/sh', args: [], cwd };
  return undefined;
}

/** --cwd resolved against the caller's directory: the server's cwd is not ours. */
export function cwdOf(a: ParsedArgs): string | undefined {
  const d = str(a, 'cwd');
  return d === undefined ? undefined : path.resolve(d);
}

/**
 * Prints a new pane's id the way the user types it. When the request went to a joined
 * host (`-t box:1`), the answer must name that host's pane: an unqualified id, or one of
 * another host, is refused rather than printed, since a script acts on what this prints.
 */
export function printAck(ctx: CommandContext, host: string, ack: { pane: number; id: string }, asked?: PaneRef): void {
  const i = ack.id.lastIndexOf(':');
  const at = i < 0 ? host : ack.id.slice(0, i);
  const target = typeof asked === 'string' && asked.includes(':') ? asked.slice(0, asked.lastIndexOf(':')) : host;
  if (target !== host && at !== target) throw new OpError(`host ${target} answered with pane id ${JSON.stringify(ack.id.slice(0, 80))}, which is not one of its own; not printed`);
  ctx.out(paneId({ n: ack.pane, host: at }, host));
}

/** Params for the commands that take only a target. */
function aim(ctx: CommandContext, a: ParsedArgs): { pane?: PaneRef } {
  const pane = ctx.target(a);
  return pane === undefined ? {} : { pane };
}

async function simple(ctx: CommandContext, a: ParsedArgs, method: 'pane/close' | 'pane/restart'): Promise<number> {
  const c = await ctx.connect();
  await c.call(method, aim(ctx, a));
  return 0;
}

/** `pane hide` and `pane show`: one request (pane/hide) each way. */
function hideCommand(command: 'hide' | 'show', hidden: boolean, summary: string): CommandSpec {
  return {
    command,
    summary,
    flags: [TARGET],
    async run(ctx, a) {
      await (await ctx.connect()).call('pane/hide', { ...aim(ctx, a), hidden });
      return 0;
    },
  };
}

/** A direction given as -d DIR or as DIR alone (`pane focus left`, as a person types it); both must agree. */
export function directionOf<D extends string = FocusDirection>(flag: string | undefined, word: string | undefined, command: string): D | undefined {
  if (flag !== undefined && word !== undefined && flag !== word) throw new UsageError(`-d ${flag} and DIR ${word} disagree; give one`, command);
  return (flag ?? word) as D | undefined;
}

/** Most cells one resize moves an edge: past any screen's width. */
const MAX_RESIZE_CELLS = 10_000;

/** `pane resize`'s count: -n CELLS or CELLS alone (not both, unless they agree). */
export function resizeCells(flag: number | undefined, word: string | undefined): number {
  if (word === undefined) {
    if (flag === undefined) throw new UsageError('missing CELLS: how far to move the edge (-n CELLS, or CELLS after the flags)', 'resize');
    return flag;
  }
  if (!/^[0-9]{1,5}$/.test(word) || Number(word) < 1 || Number(word) > MAX_RESIZE_CELLS) throw new UsageError(`CELLS: '${word}' is not a whole number from 1 to ${MAX_RESIZE_CELLS}`, 'resize');
  if (flag !== undefined && flag !== Number(word)) throw new UsageError(`-n ${flag} and CELLS ${word} disagree; give one`, 'resize');
  return Number(word);
}

export const paneCommands: CommandSpec[] = [
  {
    command: 'ls',
    summary: 'list panes',
    flags: [JSON_FLAG, SESSION],
    notes: [
      'Columns: ID, SESSION, SIGNATURE, OWNER, QUADRANT (attr "quadrant": where it sits, or hidden), STATE, PID, CWD, TAG.',
      'STATE is starting, running, or how the program ended (exited 0, killed (SIGTERM)); an agent’s running pane says what the agent is doing instead: working, needs you, done, ready or idle.',
      'IDs of this server’s panes show as N; panes of joined hosts (pane host) as HOST:N. --json prints the Pane objects.',
    ],
    async run(ctx, a) {
      const c = await ctx.connect();
      const session = str(a, 'session');
      const [list, sessions, remote] = await Promise.all([
        c.call('pane/list', session === undefined ? {} : { session }),
        bool(a, 'json') ? undefined : c.call('session/list', {}),
        // Joined hosts' panes as HOST:N (issue 26); a server without hosts has none to add.
        session === undefined ? c.call('host/list', { panes: true }).catch(() => undefined) : undefined,
      ]);
      list.panes.push(...(remote?.panes ?? []));
      if (bool(a, 'json')) {
        ctx.out(JSON.stringify(list.panes, null, 2));
        return 0;
      }
      const names = new Map((sessions?.sessions ?? []).map((s) => [s.id, s.name]));
      // A joined host's session as HOST:NAME (its panes name it by id, which only that host knows).
      for (const s of remote?.sessions ?? []) names.set(s.id, `${s.host}:${s.name}`);
      ctx.out(lsTable(list.panes, names, c.host, ctx.io.env.HOME));
      return 0;
    },
  },
  {
    command: 'new',
    summary: 'open a new pane (creating the session if there is none)',
    flags: [SESSION, CWD, SIG, NAME, { name: 'float', type: 'bool', doc: 'open it in the floating layer instead of the tiling' }, { name: 'app', type: 'string', value: 'APP', doc: 'launch an app file instead (its id, signature or name: agents-board, pane-monitor, …), as the launcher does' }],
    program: true,
    notes: [
      'Splits the focused pane of the session (side by side), or, when --session names no session (or there is none at all), creates that session with this as its first pane.',
      'Runs PROGRAM with ARGS as argv (never through a shell), or the user’s shell. Prints the new pane’s id.',
      'With --app, the app file says what runs and where (a widget app opens its widget pane); PROGRAM, --sig and --float do not apply.',
    ],
    async run(ctx, a) {
      const c = await ctx.connect();
      const session = str(a, 'session');
      const launch = launchOf(ctx, a);
      const app = str(a, 'app');
      if (app !== undefined) {
        if (launch || str(a, 'sig') !== undefined || bool(a, 'float')) throw new UsageError('--app launches what its app file says: give no PROGRAM, --sig or --float with it', 'new');
        const ack = await c.call('apps/launch', { app, ...(session !== undefined ? { session } : {}), ...(cwdOf(a) !== undefined ? { cwd: cwdOf(a) as string } : {}) });
        if (str(a, 'name') !== undefined) await c.call('pane/tag', { pane: ack.pane, name: str(a, 'name') as string });
        printAck(ctx, c.host, ack);
        return 0;
      }
      const spec = {
        ...(launch ? { launch } : {}),
        ...(str(a, 'name') !== undefined ? { name: str(a, 'name') } : {}),
        ...(str(a, 'sig') !== undefined ? { signature: str(a, 'sig') } : {}),
      };
      const { sessions } = await c.call('session/list', {});
      const exists = session === undefined ? sessions.length > 0 : sessions.some((s) => s.name === session || s.id === session);
      if (!exists) {
        const created = await c.call('session/new', {
          ...(session !== undefined ? { name: session } : {}),
          ...(cwdOf(a) !== undefined ? { cwd: cwdOf(a) } : {}),
          ...(launch ? { launch } : {}),
        });
        const s = await c.call('session/get', { session: created.session });
        if (s.focused === null) throw new OpError(`session ${s.name} was created without a pane`);
        // session/new takes no pane spec: name the first pane afterwards; a signature cannot follow.
        if (str(a, 'name') !== undefined) await c.call('pane/tag', { pane: s.focused, name: str(a, 'name') as string });
        if (str(a, 'sig') !== undefined) ctx.err(`pane: note: --sig is not applied to the first pane of a new session (session/new takes no signature)`);
        if (bool(a, 'float')) await c.call('pane/float', { pane: s.focused, mode: 'float' });
        printAck(ctx, c.host, { pane: s.focused, id: `${s.host}:${s.focused}` });
        return 0;
      }
      const where = session === undefined ? {} : { session };
      if (!bool(a, 'float')) {
        printAck(ctx, c.host, await c.call('pane/split', { ...where, ...spec }));
        return 0;
      }
      const ack = await c.call('float/create', { ...where, ...spec });
      printAck(ctx, c.host, ack);
      // An agent's float that would have covered the pane the person types in, with no room beside it (decision 060).
      if (!ack.rect.visible) ctx.err(`pane ${ack.pane} opened hidden: shown, it would cover the pane the person is typing in; the person shows it from the dock (or pane show ${ack.pane})`);
      return 0;
    },
  },
  {
    command: 'split',
    summary: 'split a pane, running a program or the shell in the new half',
    flags: [
      TARGET,
      DIRECTION,
      { name: 'ratio', short: 'r', type: 'int', value: 'PCT', min: 1, max: 99, doc: 'percent kept by the existing pane (the server clamps to 10..90); default 50' },
      CWD,
      SIG,
      NAME,
    ],
    program: true,
    notes: ['Prints the new pane’s id.'],
    async run(ctx, a) {
      const c = await ctx.connect();
      const launch = launchOf(ctx, a);
      const ack = await c.call('pane/split', {
        ...aim(ctx, a),
        ...(str(a, 'direction') !== undefined ? { direction: str(a, 'direction') as 'horizontal' | 'vertical' } : {}),
        ...(int(a, 'ratio') !== undefined ? { ratio: int(a, 'ratio') } : {}),
        ...(launch ? { launch } : {}),
        ...(str(a, 'name') !== undefined ? { name: str(a, 'name') } : {}),
        ...(str(a, 'sig') !== undefined ? { signature: str(a, 'sig') } : {}),
      });
      printAck(ctx, c.host, ack, ctx.target(a));
      return 0;
    },
  },
  {
    command: 'focus',
    summary: 'focus a pane, or move focus by direction or order, or back to the pane focused before',
    flags: [TARGET, { name: 'direction', short: 'd', type: 'enum', value: 'DIR', values: FOCUS_MOVES, doc: 'left|right|up|down (by geometry), next|prev (by order), from the target, or last: the pane focused before it (or DIR alone: pane focus left)' }],
    positionals: [{ name: 'DIR', values: FOCUS_MOVES }],
    notes: ['`pane focus last` goes back to the pane the session focused before, as tmux’s last-pane (the server keeps each session’s focus history, whichever window, key or command moved it); again goes back and forth. Closing the focused pane goes back there too.'],
    async run(ctx, a) {
      const d = directionOf<FocusMove>(str(a, 'direction'), a.positionals[0], 'focus');
      const c = await ctx.connect();
      await c.call('pane/focus', { ...aim(ctx, a), ...(d ? { direction: d } : {}) });
      return 0;
    },
  },
  { command: 'close', summary: 'close a pane, ending its program', flags: [TARGET], run: (ctx, a) => simple(ctx, a, 'pane/close') },
  {
    command: 'zoom',
    summary: 'zoom the pane to the whole session view, or back (toggles unless --on or --off)',
    flags: [TARGET, { name: 'on', type: 'bool', doc: 'zoom, even if zoomed already' }, { name: 'off', type: 'bool', doc: 'unzoom, even if not zoomed' }],
    async run(ctx, a) {
      if (bool(a, 'on') && bool(a, 'off')) throw new UsageError('--on and --off contradict each other; give one', 'zoom');
      const zoom = bool(a, 'on') ? { zoom: true } : bool(a, 'off') ? { zoom: false } : {};
      await (await ctx.connect()).call('pane/zoom', { ...aim(ctx, a), ...zoom });
      return 0;
    },
  },
  {
    command: 'layout',
    summary: 'lay the session’s tiles out in a preset, as tmux’s select-layout (next, the default, takes the next one)',
    flags: [TARGET, SESSION],
    positionals: [{ name: 'PRESET', values: LAYOUTS }],
    notes: [
      'PRESET: even-horizontal (side by side), even-vertical (stacked), main-horizontal (the focused tile large on top, the others side by side under it), main-vertical (large on the left, the others stacked on the right), tiled (a grid); spread keeps the arrangement and gives the panes even shares (tmux’s select-layout -E); next, the default, takes the preset after the one the tiles are in. Prints the one laid out.',
      'The session is the target pane’s (-t, else $PANE_ID inside a pane), or --session’s. Floating panes stay where they are; a zoom ends; the focus stays. A preset that would leave a tile smaller than 6×2 cells is refused (next passes over it). In the window: the prefix, then Space (next) or Shift+E (spread).',
    ],
    async run(ctx, a) {
      const session = str(a, 'session');
      // --session names the session unless -t names a pane too ($PANE_ID alone does not outrank it).
      const pane = str(a, 'target') !== undefined || session === undefined ? ctx.target(a) : undefined;
      const layout = (a.positionals[0] ?? 'next') as (typeof LAYOUTS)[number];
      const c = await ctx.connect();
      const r = await c.call('session/layout', { layout, ...(pane !== undefined ? { pane } : {}), ...(session !== undefined ? { session } : {}) });
      ctx.out(r.layout);
      return 0;
    },
  },
  {
    command: 'move',
    summary: 'move a pane, its program running on, into another session (tmux’s join-pane) or a session of its own (--new, break-pane)',
    flags: [TARGET, { ...DIRECTION, doc: 'h = beside the session’s focused tile, v = under it; default h' }, { name: 'new', type: 'bool', doc: 'a new session for it alone, named SESSION (or the next free name)' }],
    positionals: [{ name: 'SESSION' }],
    notes: [
      'The pane keeps its program, output and history; it goes beside the focused tile of SESSION and takes the focus there. The session it left closes up as at a close (the focus goes back to the pane focused before) and ends if that was its last pane. Prints the session it is in now.',
      'A joined host’s pane (-t HOST:N) moves between that host’s sessions: name one as HOST:NAME (or --new). A program does not change machines, so a pane here never joins a host’s session, nor one of theirs a session here; a tile of a host’s session shown here stays where it is.',
    ],
    async run(ctx, a) {
      const fresh = bool(a, 'new');
      const name = a.positionals[0];
      if (!fresh && name === undefined) throw new UsageError('missing SESSION: the session it joins (or --new for one of its own)', 'move');
      const c = await ctx.connect();
      const ack = await c.call('pane/move', {
        ...aim(ctx, a),
        direction: (str(a, 'direction') ?? 'horizontal') as 'horizontal' | 'vertical',
        ...(fresh ? { newSession: true, ...(name !== undefined ? { name } : {}) } : { to: name! }),
      });
      ctx.out(ack.name ?? (await c.call('session/get', { session: ack.session })).name);
      return 0;
    },
  },
  hideCommand('hide', true, 'hide (minimise) a pane, tile or float; its program runs on and `pane show` or the dock brings it back'),
  hideCommand('show', false, 'show a hidden pane again where it was (a tile back in the tiling) and focus it'),
  { command: 'restart', summary: 'relaunch the pane’s program in place', flags: [TARGET], run: (ctx, a) => simple(ctx, a, 'pane/restart') },
  {
    command: 'swap',
    summary: 'swap a pane with another, or with its neighbour in a direction',
    flags: [
      TARGET,
      { name: 'with', type: 'pane', value: 'ID', doc: 'the other pane', conflicts: ['direction'] },
      { name: 'direction', short: 'd', type: 'enum', value: 'DIR', values: FOCUS_DIRS, doc: 'the neighbour: left|right|up|down|next|prev (or DIR alone: pane swap right)' },
    ],
    positionals: [{ name: 'DIR', values: FOCUS_DIRS }],
    async run(ctx, a) {
      const w = str(a, 'with');
      const d = directionOf(str(a, 'direction'), a.positionals[0], 'swap');
      if (w === undefined && d === undefined) throw new UsageError('swap needs --with ID or a direction (-d DIR, or DIR alone)', 'swap');
      if (w !== undefined && d !== undefined) throw new UsageError('--with and a direction both name the other pane; give one', 'swap');
      const c = await ctx.connect();
      await c.call('pane/swap', { ...aim(ctx, a), ...(w !== undefined ? { with: w } : {}), ...(d ? { direction: d } : {}) });
      return 0;
    },
  },
  {
    command: 'resize',
    summary: 'move a pane’s edge by N cells',
    flags: [
      TARGET,
      { name: 'direction', short: 'd', type: 'enum', value: 'left|right|up|down', values: EDGES, required: true, doc: 'the edge to move' },
      { name: 'cells', short: 'n', type: 'int', value: 'CELLS', min: 1, max: MAX_RESIZE_CELLS, doc: 'how far (or CELLS after the flags, as tmux resize-pane -L 5 takes it)' },
    ],
    positionals: [{ name: 'CELLS' }],
    async run(ctx, a) {
      const cells = resizeCells(int(a, 'cells'), a.positionals[0]);
      const c = await ctx.connect();
      await c.call('pane/resize', {
        ...aim(ctx, a),
        direction: str(a, 'direction') as (typeof EDGES)[number],
        cells,
      });
      return 0;
    },
  },
];
