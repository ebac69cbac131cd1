// `pane session ...`: new / ls / kill / rename from the runtime contract, plus save and
// restore of a session as its snapshot (plain JSON data).
import fs from 'node:fs';
import type { SessionSnapshot } from '../../../protocol/session';
import { bool, str } from '../args';
import { JSON_FLAG, TARGET, type CommandSpec } from '../command';
import { STATE_VERSION } from '../../../protocol/stateVersion';
import { OpError, UsageError } from '../errors';
import { sessionTable } from '../format';
import { shown } from '../../../protocol/shown';
import { cwdOf, launchOf } from './panes';

export const sessionCommands: CommandSpec[] = [
  {
    command: 'session new',
    summary: 'create a session with one pane',
    flags: [
      { name: 'cwd', type: 'string', value: 'D', doc: 'working directory of its first pane (relative to here; with --host, absolute on that host)' },
      { name: 'host', type: 'string', value: 'HOST', doc: 'make it on a joined host (pane host ls): its panes are HOST:N' },
    ],
    positionals: [{ name: 'NAME' }],
    program: true,
    notes: ['Prints the session’s name. The first pane runs PROGRAM ARGS, or the user’s shell (with --host, that host’s).'],
    async run(ctx, a) {
      const c = await ctx.connect();
      const name = a.positionals[0];
      const host = str(a, 'host');
      if (host !== undefined) {
        // Another machine's directories: nothing here resolves them.
        const d = str(a, 'cwd');
        if (d !== undefined && !d.startsWith('/')) throw new UsageError(`--cwd ${d}: with --host, give a directory as an absolute path on ${host}`, 'session new');
        const launch = a.program ? { program: a.program[0] as string, args: a.program.slice(1), ...(d !== undefined ? { cwd: d } : {}) } : undefined;
        const r = await c.call('session/new', { host, ...(name !== undefined ? { name } : {}), ...(d !== undefined ? { cwd: d } : {}), ...(launch ? { launch } : {}) });
        ctx.out(`${r.name} (on ${host})`);
        return 0;
      }
      const cwd = cwdOf(a);
      const launch = a.program ? launchOf(ctx, a) : undefined;
      const r = await c.call('session/new', { ...(name !== undefined ? { name } : {}), ...(cwd !== undefined ? { cwd } : {}), ...(launch ? { launch } : {}) });
      ctx.out(r.name);
      return 0;
    },
  },
  {
    command: 'session ls',
    summary: 'list sessions: this server’s, then each joined host’s as HOST:NAME',
    flags: [JSON_FLAG, { name: 'host', type: 'string', value: 'HOST', doc: 'only that joined host’s sessions' }],
    notes: ['A joined host’s session is named HOST:NAME: `pane session kill box:work` and `pane session rename box:work w2` act on it there.'],
    async run(ctx, a) {
      const c = await ctx.connect();
      const only = str(a, 'host');
      const named = (host: string | null, list: { name: string }[]) => list.map((s) => (host === null ? s : { ...s, name: `${host}:${s.name}`, host }));
      let sessions: ({ name: string; host?: string } & Parameters<typeof sessionTable>[0][number])[];
      if (only !== undefined) sessions = named(only, (await c.call('session/list', { host: only })).sessions) as typeof sessions;
      else {
        sessions = (await c.call('session/list', {})).sessions;
        // Each joined host that answers: its sessions after this server's (one that does not is named on stderr, the rest listed).
        const { hosts } = await c.call('host/list', {}).catch(() => ({ hosts: [] as { name: string; state: string }[] }));
        for (const h of hosts.filter((x) => x.state === 'connected' || x.state === 'stale')) {
          try {
            sessions.push(...(named(h.name, (await c.call('session/list', { host: h.name })).sessions) as typeof sessions));
          } catch (e) {
            ctx.err(`pane: host ${h.name}: its sessions are not listed: ${(e as Error).message}`);
          }
        }
      }
      // A local session with a joined host's session's name is its view here (pane session attach HOST:NAME): one row in the table, marked in --json.
      const hostRows = new Set(sessions.filter((s) => s.host !== undefined).map((s) => shown(s.name)));
      const isView = (s: (typeof sessions)[number]) => s.host === undefined && hostRows.has(s.name);
      if (bool(a, 'json')) ctx.out(JSON.stringify(sessions.map((s) => (isView(s) ? { ...s, viewOf: s.name } : s)), null, 2));
      else ctx.out(sessionTable(sessions.filter((s) => !isView(s))));
      return 0;
    },
  },
  {
    command: 'session kill',
    summary: 'end a session and every pane in it',
    flags: [],
    positionals: [{ name: 'NAME', required: true }],
    async run(ctx, a) {
      const c = await ctx.connect();
      await c.call('session/kill', { session: a.positionals[0] as string });
      return 0;
    },
  },
  {
    command: 'session attach',
    summary: 'show a session in the window, as tmux attach (HOST:NAME: a joined host’s, tiled here)',
    flags: [
      JSON_FLAG,
      { name: 'host', type: 'string', value: 'HOST', doc: 'a joined host’s session (the same as HOST:NAME)' },
      { ...TARGET, doc: 'the pane whose window switches (default: $PANE_ID inside a pane; outside one, a one-time URL opens a window)' },
    ],
    positionals: [{ name: 'NAME', required: true }],
    notes: [
      'Inside a pane of the window, the window switches to NAME. Anywhere else (an ssh terminal, a script) it prints a one-time URL that opens a window on NAME, as `pane url` does.',
      'A joined host’s session HOST:NAME becomes a local session of that name whose tiles stand in for its panes, laid out as there; it follows that session (panes opened or closed there come and go here) until it ends there. Closing a tile leaves the remote pane running; `pane session kill HOST:NAME` ends the session on HOST.',
    ],
    async run(ctx, a) {
      const c = await ctx.connect();
      const given = a.positionals[0] as string;
      const host = str(a, 'host');
      if (host !== undefined && given.includes(':')) throw new UsageError(`${given} names its host already; give --host ${host} with a bare session name, or HOST:NAME alone`, 'session attach');
      const session = host !== undefined ? `${host}:${given}` : given;
      const from = ctx.target(a);
      const r = await c.call('session/attach', { session, ...(from !== undefined ? { from } : {}) });
      if (bool(a, 'json')) {
        ctx.out(JSON.stringify(r, null, 2));
        return 0;
      }
      const tiled = r.host !== undefined ? ` (${r.tiled === 0 ? 'its panes were tiled here already' : `${r.tiled} of ${r.host}’s panes tiled here`})` : '';
      ctx.out(`${r.name}${tiled}`);
      for (const e of r.elsewhere ?? []) ctx.err(`pane: ${e} already, so it is not tiled again here (a remote pane is tiled once: close that tile and attach again to have it here)`);
      if (r.windows > 0) ctx.out(`shown in ${r.windows === 1 ? 'the window' : `${r.windows} windows`} that showed ${from === undefined ? 'the pane' : `pane ${String(from)}`}`);
      else if (r.url !== undefined) ctx.out(`open it in a browser (the URL works once): ${r.url}`);
      else ctx.out(from === undefined ? 'no window was told: run this inside a pane of the window, or pick it in the window’s session list' : `no window shows pane ${String(from)}'s session: pick ${r.name} in the window’s session list`);
      return 0;
    },
  },
  {
    command: 'session rename',
    summary: 'rename a session (names are unique)',
    flags: [],
    positionals: [
      { name: 'NAME', required: true },
      { name: 'NEW', required: true },
    ],
    async run(ctx, a) {
      const c = await ctx.connect();
      const [session, name] = a.positionals as [string, string];
      ctx.out((await c.call('session/rename', { session, name })).name);
      return 0;
    },
  },
  {
    command: 'session save',
    summary: 'print a session’s snapshot as JSON (for `session restore`)',
    flags: [],
    positionals: [{ name: 'NAME' }],
    async run(ctx, a) {
      const c = await ctx.connect();
      const name = a.positionals[0];
      const snap = await c.call('session/snapshot', name === undefined ? {} : { session: name });
      // The daemon's state-file format (kits/protocol/snapshot.ts), holding this one session.
      const file = {
        version: STATE_VERSION,
        savedAt: Date.now(),
        host: snap.session.host,
        sessions: [snap.session],
        panes: snap.panes.map((p) => ({ ...p, address: `${p.host}:${p.n}` })),
        extra: {},
      };
      ctx.out(JSON.stringify(file, null, 2));
      return 0;
    },
  },
  {
    command: 'session restore',
    summary: 'recreate a session from a snapshot file (- for stdin), relaunching its programs',
    flags: [{ name: 'name', type: 'string', value: 'N', doc: 'name for the restored session' }],
    positionals: [{ name: 'FILE', required: true }],
    async run(ctx, a) {
      const file = a.positionals[0] as string;
      let text: string;
      try {
        text = file === '-' ? await readText(ctx.io.stdin) : fs.readFileSync(file, 'utf8');
      } catch (e) {
        throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 'session restore');
      }
      let parsed: { version?: unknown; sessions?: SessionSnapshot['session'][]; panes?: SessionSnapshot['panes'] };
      try {
        parsed = JSON.parse(text) as typeof parsed;
      } catch (e) {
        throw new UsageError(`${file} is not JSON: ${(e as Error).message}`, 'session restore');
      }
      const v = parsed.version;
      if (typeof v === 'number' && v > STATE_VERSION) throw new OpError(`${file} is version ${v}, newer than this pane, which reads versions 1 to ${STATE_VERSION}`);
      // Version 2 (a state file) holds sessions and panes side by side; each goes back as a version 1 session snapshot.
      const snapshots: SessionSnapshot[] =
        v === STATE_VERSION && Array.isArray(parsed.sessions) && Array.isArray(parsed.panes)
          ? parsed.sessions.map((session) => ({ version: 1 as const, session, panes: parsed.panes!.filter((p) => p.session === session.id) }))
          : [parsed as unknown as SessionSnapshot];
      const c = await ctx.connect();
      const name = str(a, 'name');
      for (const snapshot of snapshots) {
        const r = await c.call('session/restore', { snapshot, ...(name !== undefined && snapshots.length === 1 ? { name } : {}) });
        ctx.out(r.name);
      }
      return 0;
    },
  },
];

async function readText(stream: NodeJS.ReadableStream): Promise<string> {
  let s = '';
  for await (const c of stream) s += typeof c === 'string' ? c : (c as Buffer).toString('utf8');
  return s;
}
