// The sandbox helper's wire (decision 049): what an agent pane's launcher asks the
// daemon's long-lived helper (`pane sandboxd`), and the launcher itself. The helper
// holds @anthropic-ai/sandbox-runtime loaded and one pair of network proxies for
// every agent pane, so a launch costs a wrap and bubblewrap's own start, not a Node
// start, the runtime's load and two proxies' (~600 ms a launch before).
//
// An agent pane runs `/bin/sh -c LAUNCHER pane-sandbox SOCKET REQUEST`: the launcher
// sends `wrap PID REQUEST` on the helper's socket, gets back a shell script (the
// bubblewrap command line and what runs after it), and evals it. The daemon sends
// `prewrap TOKEN REQUEST` as it starts the pane, so the helper makes that script while
// the pane's process starts; the request names the token, and the launcher's ask
// collects what was made (a request that differs, or comes late, is wrapped anew). The socket lives in
// pane's runtime directory, which every sandbox hides: an agent that reached it could
// ask for a wrap with a wider network than its .access gives it.
import path from 'node:path';
import { z } from 'zod';

/** The first word of a launcher's argv after the script: how a saved launch is known as one. */
export const LAUNCHER_NAME = 'pane-sandbox';

/**
 * The helper's socket for the daemon with process id `daemonPid`, in `runtime` (pane's runtime dir,
 * hidden from every sandbox). A daemon runs one helper per unix-socket rule (the runtime holds it for
 * all its wraps): `sockets` true names the one whose walls let programs make unix sockets (an agent
 * whose .access says sandbox.unixSockets "allow"), started only when such an agent launches.
 */
export function helperSocket(runtime: string, daemonPid: number, sockets = false): string {
  return path.join(runtime, `sandbox-helper-${daemonPid}${sockets ? '-unix' : ''}.sock`);
}

/**
 * The helper's TMPDIR, beside its socket: where the runtime makes its proxies' sockets, which
 * every sandbox binds in. Not /tmp, which each sandbox has empty and its own. A short name: the
 * runtime's socket names in it are ~45 characters, and a unix socket's path is at most 107.
 */
export function helperTmp(runtime: string, daemonPid: number, sockets = false): string {
  return path.join(runtime, `srt-${daemonPid}${sockets ? 'u' : ''}`);
}

/** A prewrap's token: 128 random bits, base64url. */
export const PREWRAP_TOKEN = /^[A-Za-z0-9_-]{22}$/;

/** What an agent pane asks the helper to wrap: its program, its sandbox settings, where it starts. */
export const WrapRequestSchema = z
  .object({
    /** The program and its arguments, run inside the sandbox. */
    argv: z.array(z.string()).min(1),
    /** The runtime settings pane built from the agent's .access (server/agents/sandbox.ts sandboxSettings). */
    settings: z
      .object({
        /** pane's own part: hidden directories sealed read-only; the root's places (server/agents/sandbox.ts rootPlaces; none where bubblewrap is not the sandbox). */
        pane: z.object({ sealed: z.array(z.string()), root: z.array(z.string().startsWith('/')) }).strict(),
        network: z.object({ allowedDomains: z.array(z.string()), deniedDomains: z.array(z.string()), allowAllUnixSockets: z.boolean() }).strict(),
        filesystem: z.object({ denyRead: z.array(z.string()), allowRead: z.array(z.string()), allowWrite: z.array(z.string()), denyWrite: z.array(z.string()) }).strict(),
      })
      .strict(),
    /** The project: where the program starts, and whose guards are checked. */
    cwd: z.string().startsWith('/'),
    /** The agent's TMPDIR (in its home). */
    tmp: z.string().startsWith('/').optional(),
    /** Space-separated PORT:SOCKET words: its relays inside the sandbox, to its hook door and its pane socket (sandbox.ts sandboxRelays). */
    relay: z.string().optional(),
    /** The token of this very request's wrap, asked ahead by the daemon as it started the pane (`prewrap`): the launcher's ask collects it. */
    prewrap: z.string().regex(PREWRAP_TOKEN).optional(),
  })
  .strict();
export type WrapRequest = z.infer<typeof WrapRequestSchema>;

/** One line a helper takes at most: the settings of an agent with many paths granted fit well inside. */
export const MAX_REQUEST_BYTES = 256 * 1024;

/** The first line of every script the helper answers with; an error is this then `-error MESSAGE`. */
export const SCRIPT_MARK = '#pane-sandbox';

/**
 * Polls of 10 ms the launcher waits for the helper to take its ask (a daemon starts its
 * helper at its own start or first launch, ~0.3 s on a quiet machine, seconds on a
 * loaded one): 10 s, past which the launch fails, naming the socket. A poll waits for
 * the socket to be there and, once it is, for a connection it does not refuse: a
 * helper's socket exists from its bind, a moment before it listens, and a dead
 * helper's may be left until the daemon starts the next.
 */
export const LAUNCHER_SOCKET_POLLS = 1000;

/** Seconds socat waits for the helper's answer after the request is sent (a wrap takes ~20 ms; a first one, on a loaded machine, a second). */
export const LAUNCHER_ANSWER_S = 30;

/**
 * The launcher: POSIX sh, run as the agent pane's program outside the sandbox. Ctrl-C
 * and Ctrl-Z are the program's (the pane's foreground group gets them); the launcher
 * catches them with a no-op trap (not an ignore, which the program would inherit) and
 * stays to run what comes after the program (the registration's end, the project check).
 */
export const LAUNCHER = [
  's=$1 r=$2 w= i=0',
  // Asked again only where the ask never reached a helper (no socket, or its connection refused): a wrap is never asked twice.
  'while :; do',
  `  if [ -S "$s" ]; then w=$(printf 'wrap %s %s\\n' "$$" "$r" | LC_ALL=C socat -t ${LAUNCHER_ANSWER_S} - "UNIX-CONNECT:$s" 2>&1)`,
  `    case $w in '${SCRIPT_MARK}'*) break ;; *'Connection refused'*|*'No such file or directory'*) ;; *) break ;; esac`,
  '  fi',
  `  [ "$i" -lt ${LAUNCHER_SOCKET_POLLS} ] || break`,
  '  sleep 0.01; i=$((i+1))',
  'done',
  'case $w in',
  // The mark is cut with ? for its '#', which written out would make the cut ${w##…}, a pattern the answer never matches.
  `  '${SCRIPT_MARK}-error '*) printf 'pane: cannot start the sandbox: %s\\n' "\${w#?${SCRIPT_MARK.slice(1)}-error }" >&2; exit 126 ;;`,
  `  '${SCRIPT_MARK}'*) ;;`,
  `  *) printf 'pane: cannot start the sandbox: its helper (%s) did not answer%s\\n' "$s" "\${w:+: $w}" >&2; exit 126 ;;`,
  'esac',
  'trap : INT QUIT TSTP',
  'eval "$w"',
].join('\n');

/** The argv (after `/bin/sh`) of a launch through the helper at `socket`. */
export function launcherArgs(socket: string, req: WrapRequest): string[] {
  return ['-c', LAUNCHER, LAUNCHER_NAME, socket, JSON.stringify(req)];
}

/** The request a launcher's argv carries, or null when `args` (after the shell) is not a launcher's. */
function launcherRequest(args: readonly string[]): WrapRequest | null {
  if (args.length !== 5 || args[0] !== '-c' || args[2] !== LAUNCHER_NAME) return null;
  try {
    const r = WrapRequestSchema.safeParse(JSON.parse(args[4]!));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** The shell a launcher runs in. */
export const LAUNCHER_SHELL = '/bin/sh';

/** Launches already read, by their argv (a pane's launch is kept as it was made): a pane's tracker asks on every refresh. */
const readLaunches = new WeakMap<readonly string[], WrapRequest | null>();

/**
 * The request a launch carries when it is a launcher's (`/bin/sh -c LAUNCHER pane-sandbox
 * SOCKET REQUEST`), or null for any other launch. Read once per launch.
 */
export function launcherOf(launch: { readonly program: string; readonly args: readonly string[] }): WrapRequest | null {
  if (launch.program !== LAUNCHER_SHELL || launch.args[2] !== LAUNCHER_NAME) return null;
  let req = readLaunches.get(launch.args);
  if (req === undefined) {
    req = launcherRequest(launch.args);
    readLaunches.set(launch.args, req);
  }
  return req;
}
