// Commands about the server itself: serve (handed to the composition root),
// info, connected clients and their write permission, stop.
import { bool } from '../args';
import { JSON_FLAG, type CommandSpec } from '../command';
import { keyValues, table } from '../format';
import { stopCommand } from './durable';

export interface ServeHook {
  serve: (argv: string[]) => Promise<number>;
}

/** `pane serve` is the only command that is not a client: runCli hands its argv over. */
export function serverCommands(hook: ServeHook): CommandSpec[] {
  return [
    {
      command: 'serve',
      summary: 'run a pane server in the foreground',
      flags: [],
      passthrough: true,
      notes: [
        'Listens on --socket P (then $PANE_SOCKET, then the per-user default) until Ctrl-C or `pane stop`.',
        'The server parses the rest itself: --host NAME (its name in pane ids), --http PORT (renderer + WebSocket on 127.0.0.1), --empty (no first session). See `pane serve --help`.',
      ],
      run: (_ctx, _a, argv) => hook.serve([...argv]),
    },
    {
      command: 'info',
      summary: 'server version, counts and metrics',
      flags: [JSON_FLAG],
      async run(ctx, a) {
        const c = await ctx.connect();
        const info = await c.call('server/info', {});
        ctx.out(bool(a, 'json') ? JSON.stringify(info, null, 2) : keyValues(info));
        return 0;
      },
    },
    {
      command: 'clients',
      summary: 'list connected clients',
      flags: [JSON_FLAG],
      async run(ctx, a) {
        const c = await ctx.connect();
        const { clients } = await c.call('client/list', {});
        if (bool(a, 'json')) ctx.out(JSON.stringify(clients, null, 2));
        else
          ctx.out(
            table(
              ['ID', 'NAME', 'KIND', 'USER', 'TRANSPORT', 'WRITE', 'ATTACHED'],
              clients.map((k) => [k.id, k.name, k.kind, k.user, k.transport, k.canWrite ? 'yes' : 'no', k.attached.join(',') || '-']),
            ),
          );
        return 0;
      },
    },
    {
      command: 'permit',
      summary: 'grant (rw) or revoke (ro) a client’s right to write to panes',
      flags: [],
      positionals: [{ name: 'CLIENT', required: true }, { name: 'MODE', required: true, values: ['rw', 'ro'] }],
      async run(ctx, a) {
        const c = await ctx.connect();
        await c.call('client/permission', { client: a.positionals[0] as string, canWrite: a.positionals[1] === 'rw' });
        return 0;
      },
    },
    stopCommand,
  ];
}
