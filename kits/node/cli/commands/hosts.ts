// `pane host ...` (issue 26): add, list, remove, join and leave other machines'
// pane daemons. A host is a file, ~/.config/pane/hosts/NAME.json, which the
// server watches; add and rm write and remove it, connect and disconnect ask the server.
import { shown } from '../../../protocol/shown';
import fs from 'node:fs';
import path from 'node:path';
import type { HostFile, HostInfo } from '../../../protocol/host';
import { bool, str } from '../args';
import { JSON_FLAG, SESSION, TARGET, type CommandSpec } from '../command';
import { OpError, UsageError } from '../errors';
import { table } from '../format';
import { configDir } from '../../paths';
import { createBelow } from '../../safeFile';
import { hostClientCommands } from './hostClients';
import { hostInstallCommands } from './hostInstall';
import { hostPairCommands } from './hostPair';

const NAME = { name: 'NAME', required: true } as const;

/** The hosts folder of the person's config: the one the server reads. */
export function hostsDir(): string {
  return path.join(configDir(), 'hosts');
}

/** DEST of `pane host add` as a host file's `how`: ssh://[user@]host[:port], tls://host:port, or an argv after --. */
export function howOf(dest: string | undefined, argv: string[] | undefined): HostFile['how'] {
  if (argv !== undefined) {
    if (dest !== undefined) throw new UsageError('give DEST or a command after --, not both', 'host add');
    return { via: 'command', argv };
  }
  if (dest === undefined) throw new UsageError('give DEST (ssh://[USER@]HOST[:PORT] or tls://HOST:PORT) or a command after -- (e.g. -- docker exec -i box pane serve --stdio)', 'host add');
  const m = /^(ssh|tls):\/\/(?:([^@/]+)@)?(\[[^\]]+\]|[^:/]+)(?::(\d+))?\/?$/.exec(dest);
  if (!m) throw new UsageError(`"${dest}" is no DEST: write ssh://[USER@]HOST[:PORT] or tls://HOST:PORT, or a command after --`, 'host add');
  const [, scheme, user, host, port] = m as unknown as [string, string, string | undefined, string, string | undefined];
  if (scheme === 'tls') {
    if (port === undefined) throw new UsageError('tls://HOST:PORT needs its port', 'host add');
    if (user !== undefined) throw new UsageError('tls:// takes no user (its certificate says who you are)', 'host add');
    return { via: 'tls', host: host.replace(/^\[|\]$/g, ''), port: Number(port) };
  }
  return { via: 'ssh', destination: user === undefined ? host : `${user}@${host}`, ...(port !== undefined ? { port: Number(port) } : {}) };
}

/**
 * WHY for a host with no error: a stale one says how long it has been silent (the server cuts
 * and redials it at its DROP_AFTER_MS); one whose daemon outlived an update there, that it does.
 */
function why(h: HostInfo): string {
  if (h.state === 'stale' && h.lastHeardMs !== null) return `no answer for ${Math.round(h.lastHeardMs / 1000)} s`;
  return h.remote?.codeReplaced ? `its daemon runs the code it started with (pane was updated there since): pane stop there, then pane host connect ${h.name}` : '';
}

/** `pane host ls`'s table: WHY is the last failure, or how long a stale host has been silent. */
export function hostTable(hosts: readonly HostInfo[]): string {
  const rows = hosts.map((h) => [h.name, h.how, h.state + (h.readOnly ? ' (read-only)' : ''), h.state === 'disconnected' || h.state === 'connecting' ? '-' : String(h.panes), h.error ?? why(h)]);
  return table(['NAME', 'HOW', 'STATE', 'PANES', 'WHY'], rows);
}

export const hostCommands: CommandSpec[] = [
  {
    command: 'host add',
    summary: 'add another machine’s pane (a host file), reached by ssh, a command, or TLS',
    flags: [
      { name: 'read-only', type: 'bool', doc: 'join it for viewing only: nothing here may change its panes' },
      { name: 'ssh-config', type: 'string', value: 'FILE', doc: 'an ssh_config for this host (ssh -F); its key, known_hosts and the rest go there' },
    ],
    positionals: [NAME, { name: 'DEST' }],
    program: true,
    notes: [
      'Writes ~/.config/pane/hosts/NAME.json; the server reads it at once. Join it with `pane host connect NAME`; its panes are then NAME:N everywhere a pane is named.',
      'Further ssh options (IdentityFile, UserKnownHostsFile, ProxyJump …, from an allowlist), the remote pane program (`pane`), `autoConnect` (join at start) and `readOnly` are fields of the file; edit it, and the server applies the change at once.',
      'DEST is ssh://[USER@]HOST[:PORT] (the system ssh, your own config, agent and keys, in batch mode with connection reuse; the remote runs `pane serve --stdio`), tls://HOST:PORT (mutual TLS: `pane host pair NAME` on an ssh host writes the certificates and turns it into one), or -- ARGV… : any command whose stdio reaches a remote `pane serve --stdio` (`-- docker exec -i box pane serve --stdio`, `-- kubectl exec -i pod -- pane serve --stdio`).',
    ],
    async run(ctx, a) {
      const [name, dest] = a.positionals as [string, string | undefined];
      const how = howOf(dest, a.program);
      if (str(a, 'ssh-config') !== undefined) {
        if (how.via !== 'ssh') throw new UsageError('--ssh-config is for ssh:// hosts', 'host add');
        how.configFile = path.resolve(str(a, 'ssh-config') as string);
      }
      const file = { how, ...(bool(a, 'read-only') ? { readOnly: true } : {}) };
      // The schema the server reads it with (loaded only here: the other commands start without zod).
      const { HostFileSchema } = await import('../../../protocol/host');
      const { HostNameSchema } = await import('../../../protocol/ids');
      if (!HostNameSchema.safeParse(name).success) throw new UsageError(`"${name}" cannot name a host: letters, digits, ".", "_" or "-", starting with a letter or digit (it is the HOST of HOST:N)`, 'host add');
      const r = HostFileSchema.safeParse(file);
      if (!r.success) {
        const i = r.error.issues[0];
        throw new UsageError(`${i?.path.join('.') || '(file)'}: ${i?.message ?? 'invalid'}`, 'host add');
      }
      const text = `${JSON.stringify(file, null, 2)}\n`;
      const dir = hostsDir();
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!createBelow(dir, `${name}.json`, text)) throw new OpError(`${path.join(dir, `${name}.json`)} exists: remove it first (pane host rm ${name}), or edit it`);
      ctx.out(path.join(dir, `${name}.json`));
      return 0;
    },
  },
  {
    command: 'host ls',
    summary: 'list hosts: how each is reached, whether it is joined, its panes',
    flags: [JSON_FLAG],
    notes: ['STATE is connected, stale (joined but not answering its heartbeat), connecting or disconnected; WHY says why it is not joined. Files that do not read are listed after, by file and field.'],
    async run(ctx, a) {
      const c = await ctx.connect();
      const list = await c.call('host/list', {});
      if (bool(a, 'json')) {
        ctx.out(JSON.stringify(list, null, 2));
        return 0;
      }
      if (list.hosts.length > 0) ctx.out(hostTable(list.hosts));
      else ctx.out(`no hosts (add one: pane host add NAME ssh://[USER@]HOST)`);
      for (const e of list.errors) ctx.err(`pane: ${e.file}: ${e.field}: ${e.message}`);
      return 0;
    },
  },
  {
    command: 'host rm',
    summary: 'remove a host file (leaving the host; its panes run on there)',
    flags: [],
    positionals: [NAME],
    async run(ctx, a) {
      const name = a.positionals[0] as string;
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new UsageError(`"${name}" cannot name a host`, 'host rm');
      const file = path.join(hostsDir(), `${name}.json`);
      try {
        fs.unlinkSync(file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new OpError(`no host ${name}: ${file} does not exist (pane host ls lists them)`);
        throw e;
      }
      return 0;
    },
  },
  {
    command: 'host connect',
    summary: 'join a host: its panes appear as NAME:N',
    flags: [],
    positionals: [NAME],
    async run(ctx, a) {
      const c = await ctx.connect();
      const h = await c.call('host/connect', { name: a.positionals[0] as string });
      if (h.state === 'disconnected') throw new OpError(`host ${h.name} is not joined: ${h.error ?? 'it did not answer'}`);
      // The remote's host name and version are its own words: escaped.
      ctx.out(shown(`${h.name}: ${h.state}, ${h.panes} pane${h.panes === 1 ? '' : 's'}${h.remote ? ` (${h.remote.host}, pane ${h.remote.version})` : ''}`));
      return 0;
    },
  },
  {
    command: 'host disconnect',
    summary: 'leave a host (its panes run on there)',
    flags: [],
    positionals: [NAME],
    async run(ctx, a) {
      const c = await ctx.connect();
      await c.call('host/disconnect', { name: a.positionals[0] as string });
      return 0;
    },
  },
  {
    command: 'host show',
    summary: 'tile a joined host’s pane HOST:N in this window, beside a local pane',
    flags: [
      TARGET,
      SESSION,
      { name: 'direction', short: 'd', type: 'enum', value: 'h|v', values: ['horizontal', 'vertical'], aliases: { h: 'horizontal', v: 'vertical' }, doc: 'h = side by side (the remote pane on the right), v = stacked; default h' },
      { name: 'float', type: 'bool', doc: 'float it over the tiles instead of splitting' },
    ],
    positionals: [{ name: 'HOST:N', required: true }],
    notes: [
      'Makes a local stand-in pane (kind remote) beside the target (default: $PANE_ID inside a pane, else the focused pane) and prints its number: the layout, focus, zoom, float and keys hold that number, while its screen, output and input are the remote pane’s, streamed over the host’s link. Its tag names HOST:N and shows the link’s state while it is not connected; typing while the link is down waits in order for it.',
      'A remote pane already shown is focused where it is. `pane close` of the stand-in removes only the stand-in (the remote pane runs on); its `kill` word (or `pane close -t HOST:N`) closes the remote pane. Split splits locally. A host joined read-only shows the pane and refuses typing into it.',
    ],
    async run(ctx, a) {
      const remote = a.positionals[0] as string;
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*:[1-9][0-9]*$/.test(remote)) throw new UsageError(`"${remote}" is no remote pane: write HOST:N (pane ls lists them)`, 'host show');
      const c = await ctx.connect();
      const pane = ctx.target(a);
      const ack = await c.call('host/show', {
        remote,
        ...(pane !== undefined ? { pane } : {}),
        ...(str(a, 'session') !== undefined ? { session: str(a, 'session') as string } : {}),
        ...(str(a, 'direction') !== undefined ? { direction: str(a, 'direction') as 'horizontal' | 'vertical' } : {}),
        float: bool(a, 'float'),
      });
      ctx.out(String(ack.pane));
      return 0;
    },
  },
  ...hostPairCommands,
  ...hostClientCommands,
  ...hostInstallCommands,
];
