// `pane serve`: runs a server in the foreground until SIGINT/SIGTERM or server/stop.
import path from 'node:path';
import { daemonSettingsUnset } from '../kits/node/daemonEnv';
import { applyMallocSettings } from '../kits/node/glibcHeap';
import { resolveSocketPath } from '../kits/node/paths';
import { describeEndpoint, parseEndpoint } from '../kits/protocol/endpointForm';
import { distDir } from './distDir';

const USAGE = `usage: pane serve [--socket PATH] [--host NAME] [--http PORT] [--empty] [--state DIR]
       pane serve --stdio [--socket PATH]
  --socket PATH  listen here (default: $PANE_SOCKET, then $XDG_RUNTIME_DIR/pane/default.sock)
  --stdio        speak the protocol on stdin/stdout to the user's daemon at the socket, starting
                 it if none runs (for ssh, docker exec -i, …: a client dials exec:… or a host file)
  --host NAME    this server's host name in pane ids (default: the machine's)
  --http PORT    also serve the renderer and its WebSocket on 127.0.0.1:PORT (0 = any)
  --empty        start with no session (default: a session "main" with a shell)
  --state DIR    keep state in DIR (journal, snapshots, history) and bring it back at start,
                 as the daemon does with $XDG_STATE_HOME/pane (default: keep nothing)`;

export async function serve(argv: string[]): Promise<number> {
  let socket: string | undefined;
  let host: string | undefined;
  let http: number | undefined;
  let empty = false;
  let state: string | undefined;
  let stdio = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const val = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '--socket') socket = val();
      else if (a === '--host') host = val();
      else if (a === '--http') http = Number(val());
      else if (a === '--empty') empty = true;
      else if (a === '--stdio') stdio = true;
      else if (a === '--state') state = path.resolve(val());
      else if (a === '-h' || a === '--help') {
        process.stdout.write(`${USAGE}\n`);
        return 0;
      } else throw new Error(`unknown flag ${a}`);
    } catch (e) {
      process.stderr.write(`pane serve: ${(e as Error).message}\n${USAGE}\n`);
      return 2;
    }
  }
  if (http !== undefined && !(Number.isInteger(http) && http >= 0 && http < 65536)) {
    process.stderr.write(`pane serve: --http needs a port number 0..65535\n`);
    return 2;
  }
  // A server listens, and --stdio attaches, on a unix socket only: `unix:P` or a bare path.
  // The default socket's directory refused (another user's, others may write, a link) is the
  // operation failing (1); a --socket that parses as no endpoint is a usage error (2).
  let resolved: string;
  try {
    resolved = resolveSocketPath(socket);
  } catch (e) {
    process.stderr.write(`pane serve: ${(e as Error).message}\n`);
    return 1;
  }
  let where;
  try {
    where = parseEndpoint(resolved);
  } catch (e) {
    process.stderr.write(`pane serve: ${(e as Error).message}\n`);
    return 2;
  }
  if (where.kind !== 'unix') {
    process.stderr.write(`pane serve: ${describeEndpoint(where)} is no unix socket; pane serve${stdio ? ' --stdio' : ''} needs --socket PATH (or $PANE_SOCKET a path)\n`);
    return 2;
  }
  const socketPath = where.path;
  if (stdio) {
    if (host !== undefined || http !== undefined || empty || state !== undefined) {
      process.stderr.write(`pane serve: --stdio attaches to the daemon and takes only --socket\n${USAGE}\n`);
      return 2;
    }
    return (await import('./stdioServe')).serveStdio({ socketPath });
  }
  const staticDir = path.join(distDir(), 'renderer');
  heapLikeTheDaemon();
  let running;
  try {
    // Loaded here, not at the top: `pane serve --stdio` is a relay and starts without the server.
    const { startServer } = await import('./main');
    running = await startServer({
      socketPath,
      ...(host !== undefined ? { host } : {}),
      ...(http !== undefined ? { http: { port: http, staticDir } } : { frontOnDemand: { staticDir } }),
      initialSession: !empty,
      ...(state !== undefined ? { stateDir: state } : {}),
    });
  } catch (e) {
    process.stderr.write(`pane serve: ${(e as Error).message}\n`);
    return 1;
  }
  // The URL carries a one-time launch token, never the secret: once opened it is spent.
  process.stderr.write(`pane server ${running.server.host} listening on ${socketPath}${running.http ? ` and ${running.http.launchUrl()}` : ''}\n`);
  return new Promise<number>((resolve) => {
    const stop = () => void running.stop().then(() => resolve(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    process.once('pane:stopped' as never, () => resolve(0));
  });
}

/**
 * A server in the foreground did not start with the daemon's environment (daemonEnv),
 * whose malloc settings glibc reads only at a process's start: the ones its own
 * environment did not give are set through mallopt, before the screen worker and the
 * PTYs' threads allocate, so `pane serve` gives memory back after a flood as the
 * daemon does (decisions 025, 028). Where glibc cannot be reached it says so, once.
 */
function heapLikeTheDaemon(): void {
  const unset = daemonSettingsUnset(process.env);
  if (Object.keys(unset).length === 0) return;
  const r = applyMallocSettings(unset);
  if (typeof r === 'string') process.stderr.write(`pane serve: memory freed after a flood may stay with this server (the daemon's ${Object.keys(unset).join(', ')} not set: ${r}); start it with them in its environment to match the daemon\n`);
}
