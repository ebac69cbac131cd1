// Commands about the server itself: serve (handed to the composition root),
// info, connected clients and their write permission, stop.
import { bool } from '../args';
import { OpError } from '../errors';
import { grantCommands } from './grants';
import { metricsCommands } from './metrics';
import { topCommands } from './top';
import { JSON_FLAG, type CommandSpec } from '../command';
import { infoText, table } from '../format';
import { stopCommand } from './durable';

export interface ServeHook {
  serve: (argv: string[]) => Promise<number>;
  /** Opens the desktop (the launcher `npm start` runs); absent where no launcher is bundled. */
  start?: (argv: string[]) => Promise<number>;
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
        '`pane serve --stdio` is no server: it speaks the protocol on stdin/stdout to the user\'s daemon (started if none runs), after a preamble line, for a client on another machine that dials `exec:ssh HOST pane serve --stdio` (or docker/kubectl exec -i).',
      ],
      run: (_ctx, _a, argv) => hook.serve([...argv]),
    },
    {
      command: 'start',
      summary: 'open the desktop: a pane server and its window (what `npm start` does)',
      flags: [],
      passthrough: true,
      notes: [
        'Opens the window in Electron when it is installed beside pane, else in a Chromium or Chrome window (--app mode, a throwaway profile), else prints the URL to open and what to install.',
        'The launcher parses the rest itself: --attach SOCKET, --socket PATH, --port N, --serve, --chromium. See `pane start --help`.',
      ],
      run: (_ctx, _a, argv) => {
        if (!hook.start) throw new OpError('this build of pane has no desktop launcher (dist/start.mjs); run `npm run build`');
        return hook.start([...argv]);
      },
    },
    {
      command: 'info',
      summary: 'server version, counts and metrics',
      flags: [JSON_FLAG],
      async run(ctx, a) {
        const c = await ctx.connect();
        const info = await c.call('server/info', {});
        ctx.out(bool(a, 'json') ? JSON.stringify(info, null, 2) : infoText(info, Date.now()));
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
    {
      command: 'url',
      summary: 'print a one-time URL that opens a window on this server in a browser',
      flags: [],
      notes: [
        'A daemon that serves no HTTP yet (the one `npm start` starts: its window comes through its own bridge) opens its front on 127.0.0.1, on a port of its choosing, for this. The URL works once: opening it sets an HttpOnly cookie in that browser and spends the token, so a copy left in scrollback or history opens nothing. Run it again for another browser.',
      ],
      async run(ctx) {
        const c = await ctx.connect();
        ctx.out((await c.call('server/launch-url', {})).url);
        return 0;
      },
    },
    stopCommand,
    ...grantCommands,
    ...metricsCommands,
    ...topCommands,
  ];
}
