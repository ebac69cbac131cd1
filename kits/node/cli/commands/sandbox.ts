// `pane sandbox --settings JSON -- PROGRAM ARGS`: what the server runs in an
// agent's pane to start its program inside the OS sandbox built from its .access,
// through @anthropic-ai/sandbox-runtime (bubblewrap on Linux, sandbox-exec on macOS).
// This process stays outside, holding the network proxies, until the program ends;
// inside, relays carry the agent's HTTP hooks and its pane calls to its own sockets.
// `pane sandboxd --listen SOCKET`: the daemon's long-lived helper that does the same
// for every agent pane at once (kits/node/sandboxHelper.ts, decision 049): the
// runtime loaded once, one pair of proxies, a wrap per launch.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { CommandSpec } from '../command';
import { OpError, UsageError } from '../errors';
import { bool, str } from '../args';
import { runtimeDir } from '../../paths';
import { madeSince, projectGuards } from '../../projectGuard';
import type { WrapRequest } from '../../sandboxHelper';
import { UNIX_SOCKETS_ALLOWED } from '../../sandboxSockets';
import { pidAlive, procStat, procStats } from '../../procTable';
import { importEsm } from '../../esmImport';
import { which } from '../../which';
import { answerRuntimeLookups } from '../../runtimeLookups';

/** Shell-quotes one word for the `bash -c` string the runtime runs inside the sandbox. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The runtime puts bubblewrap's child in a new session (against TIOCSTI on a
 * terminal shared with the caller). Here the terminal is the agent's own pane, so
 * nothing outside reads what it could push back; in the same session the program
 * keeps the pane as its controlling terminal, so resizes (SIGWINCH) and job control
 * reach it. See docs/decisions/012-agent-sandbox.md.
 */
export function keepTerminal(wrapped: string): string {
  return wrapped.replace(/^(\S*bwrap) --new-session /, '$1 ');
}

/**
 * Where bubblewrap's own `--` stands in a wrapped command line (outside quotes: what
 * follows it is the program bubblewrap runs), or -1 where there is none.
 */
function bwrapProgramAt(wrapped: string): number {
  let quote: string | null = null;
  for (let i = 0; i < wrapped.length; i++) {
    const ch = wrapped[i]!;
    if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (wrapped.startsWith(' -- ', i)) return i;
  }
  return -1;
}

/**
 * Makes the tmpfs bubblewrap puts over each hidden directory in `sealed` read-only
 * (`--remount-ro`, after every mount: what was bound back in below it keeps its
 * own flags). Without it a write into the person's hidden home "succeeds" into a
 * tmpfs that vanishes with the sandbox; with it the program is told, as for any
 * read-only place. The option goes before bwrap's own `--` (outside quotes).
 */
export function sealHidden(wrapped: string, sealed: readonly string[]): string {
  if (sealed.length === 0) return wrapped;
  const i = bwrapProgramAt(wrapped);
  if (i < 0) return wrapped;
  const opts = sealed.filter((d) => wrapped.slice(0, i).includes(`--tmpfs ${q(d)}`) || wrapped.slice(0, i).includes(`--tmpfs ${d} `)).map((d) => ` --remount-ro ${q(d)}`);
  return wrapped.slice(0, i) + opts.join('') + wrapped.slice(i);
}

/** The runtime's bind of the whole machine as the sandbox's root, which rootFromPlaces replaces. */
const WHOLE_ROOT = ' --ro-bind / / ';

/**
 * Makes the sandbox's root of the places in `root` alone (server/agents/sandbox.ts
 * rootPlaces: the system's), where the runtime binds the whole of / and hides what it
 * was told to: each directory bound read-only in place of that one bind, each link
 * made again as a link (merged /usr's /bin → usr/bin), and the root, a tmpfs of
 * bubblewrap's, sealed read-only after every mount. What is not named is not there:
 * a directory made at the top of the machine after the launch included. With no
 * `root` (not Linux) the wrap is as the runtime made it; a bubblewrap wrap without
 * that one bind is refused, not run with walls other than pane's.
 */
export function rootFromPlaces(wrapped: string, root: readonly string[]): string {
  if (root.length === 0) return wrapped;
  const end = bwrapProgramAt(wrapped);
  const at = wrapped.indexOf(WHOLE_ROOT);
  const again = wrapped.indexOf(WHOLE_ROOT, at + 1);
  if (end < 0 || at < 0 || at > end || (again !== -1 && again < end)) {
    throw new Error(`the sandbox runtime's bubblewrap line does not bind / once (${WHOLE_ROOT.trim()}), so pane cannot make its root of the system's places alone; refusing to run with other walls`);
  }
  const mounts: string[] = [];
  for (const p of root) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) mounts.push(`--symlink ${q(fs.readlinkSync(p))} ${q(p)}`);
    else if (st.isDirectory()) mounts.push(`--ro-bind ${q(p)} ${q(p)}`);
  }
  const head = `${wrapped.slice(0, at)} ${mounts.join(' ')} ${wrapped.slice(at + WHOLE_ROOT.length, end)}`;
  return `${head} --remount-ro /${wrapped.slice(end)}`;
}

/**
 * How long the program may be held back for the listeners below before it starts
 * anyway, in hundredths of a second (as /proc/uptime counts): socat listens within a
 * few ms on a quiet machine, and took over a second once beside a whole test run on
 * two cores; the wait ends at the last listen, so this bound only costs a launch
 * whose relay never comes up. Past it the program starts: its first hook
 * (SessionStart) or request through a bridge that is still starting is what is lost.
 */
export const RELAY_WAIT_CS = 300;

/**
 * Looks at /proc/net/tcp{,6} the wait below takes at most, however the clock reads:
 * each is a read of a few lines, no process (a `sleep` between looks cost a process
 * start and 10 ms each, one or two per launch), so the wait ends within a look of the
 * last listen; this bound only keeps the loop finite where /proc/uptime cannot be read.
 */
export const RELAY_WAIT_LOOKS = 100_000;

/** A socket path socat takes as it is in an address (no `:`, `,`, quotes or spaces). */
const PLAIN_PATH = /^[A-Za-z0-9._/+@~-]+$/;

/**
 * The variable the line before the runtime's script (startRelayFirst) hands the
 * program's line: the ports, in /proc/net/tcp's hex, of the listeners the runtime's
 * script starts (its proxy bridges), which the wait below waits for too.
 */
export const LISTENERS_VAR = 'PANE_SANDBOX_LISTENERS';

/** A TCP port as /proc/net/tcp{,6} writes it: four upper-case hex digits. */
const procPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');

/** Relays one launch may ask for: its hooks' and its pane socket's. */
export const MAX_RELAYS = 4;

/**
 * The agent's relays inside its sandbox, one per `PORT:SOCKET` in `relay` (space-separated,
 * $PANE_HOOK_RELAY or a wrap request's `relay`, set by the server): socat listening on
 * 127.0.0.1:PORT (the sandbox's own loopback, in its own network namespace), each connection
 * forwarded to SOCKET outside, as sandbox-runtime does for its proxies. They are how the
 * sandboxed programs reach the agent's hook door and its pane socket: the runtime's seccomp
 * filter lets nothing inside make a unix socket, and these start before it applies. `start`
 * is the lines that start them, each under `setsid` in a session of its own, so the pane's
 * Ctrl-C, Ctrl-Z and resizes reach only the program; they die with the sandbox (bubblewrap's
 * PID namespace ends when the program does). `wait` is the lines before the program that hold
 * it back, a bounded time (RELAY_WAIT_CS), until every relay listens, and with them every
 * listener named in $PANE_SANDBOX_LISTENERS: the runtime waits for its bridges by counting the
 * TCP sockets in the sandbox's namespace, a count the relays, started before them, make too
 * high (startRelayFirst). Null for anything but 1..MAX_RELAYS plain PORT:SOCKET words. Neither
 * line holds a quote (each socket is a PLAIN_PATH), so either may stand inside a single-quoted word.
 */
export function sandboxRelays(relay: string | undefined): { ports: number[]; start: string; wait: string } | null {
  const words = (relay ?? '').split(' ').filter((w) => w !== '');
  if (words.length === 0 || words.length > MAX_RELAYS) return null;
  const pairs: { port: number; socket: string }[] = [];
  for (const w of words) {
    const m = /^([0-9]{1,5}):(\/.+)$/.exec(w);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 65535 || !PLAIN_PATH.test(m[2]!)) return null;
    if (pairs.some((p) => p.port === Number(m[1]))) return null;
    pairs.push({ port: Number(m[1]), socket: m[2]! });
  }
  const ports = pairs.map((p) => p.port);
  // One look: every port named is listening (state 0A) in /proc/net/tcp or tcp6. Without a pause between looks (the
  // runtime waits for its own bridges so); the clock is /proc/uptime's, led by a 1 so a reading such as 0.08 is no octal
  // number to the shell's arithmetic.
  const look = `_pane_up=1; for _pane_p in ${ports.map(procPort).join(' ')} $${LISTENERS_VAR}; do _pane_f=; for _pane_t in /proc/net/tcp /proc/net/tcp6; do [ -r "$_pane_t" ] || continue; while read -r _pane_sl _pane_l _pane_r _pane_st _pane_x; do case "$_pane_l:$_pane_st" in *:$_pane_p:0A) _pane_f=1; break ;; esac; done < "$_pane_t"; [ -n "$_pane_f" ] && break; done; [ -n "$_pane_f" ] || { _pane_up=; break; }; done`;
  return {
    ports,
    start: pairs.map((p) => `setsid socat TCP4-LISTEN:${p.port},bind=127.0.0.1,fork,reuseaddr,backlog=64 UNIX-CONNECT:${p.socket} </dev/null >/dev/null 2>&1 &\n`).join(''),
    wait: `_pane_i=0; _pane_t0=; while [ "$_pane_i" -lt ${RELAY_WAIT_LOOKS} ]; do ${look}; [ -n "$_pane_up" ] && break; read -r _pane_now _pane_x < /proc/uptime || break; _pane_now=1\${_pane_now%.*}\${_pane_now#*.}; [ "$((_pane_now - \${_pane_t0:=$_pane_now}))" -lt ${RELAY_WAIT_CS} ] || break; _pane_i=$((_pane_i + 1)); done; unset _pane_i _pane_t0 _pane_now _pane_up _pane_p _pane_f _pane_t _pane_sl _pane_l _pane_r _pane_st _pane_x ${LISTENERS_VAR}\n`,
  };
}

/** Where the program's line begins in a wrapped command: its wait's first words (sandboxRelays). */
const WAIT_MARK = '_pane_i=0; _pane_t0=;';

/**
 * Starts the relays (`start`, sandboxRelays) first thing inside the sandbox, before
 * the runtime's own script: bubblewrap's program `X…` becomes `/bin/sh -c 'START
 * export PANE_SANDBOX_LISTENERS=…; exec "$@"' sh X…`, so socat loads (~10 ms of
 * libraries) while the runtime starts its two proxy bridges and waits for them, not
 * after. The runtime's wait, counting TCP sockets, may then end one bridge early; the
 * program's line waits for the relay and for each bridge by its port (the
 * `-LISTEN:PORT`s of the runtime's script, before the program's line), so the program
 * still starts with all of them listening. Launch to prompt ~10 ms less here. Nothing
 * of the runtime's own script is touched. Throws where the command has no bubblewrap
 * `--` to start from: the relay would never start, and the agent's hooks would go
 * nowhere without a word.
 */
export function startRelayFirst(wrapped: string, start: string): string {
  const i = bwrapProgramAt(wrapped);
  if (i < 0) throw new OpError('cannot start the relays: the sandbox command has no bubblewrap `--` before its program');
  const mark = wrapped.indexOf(WAIT_MARK, i);
  const runtime = wrapped.slice(i, mark < 0 ? wrapped.length : mark);
  const ports = [...new Set([...runtime.matchAll(/-LISTEN:([0-9]{1,5})\b/g)].map((m) => Number(m[1])).filter((p) => p >= 1 && p <= 65535))];
  const listeners = ports.length > 0 ? `export ${LISTENERS_VAR}="${ports.map(procPort).join(' ')}"\n` : '';
  return `${wrapped.slice(0, i)} -- /bin/sh -c ${q(`${start}${listeners}exec "$@"`)} sh ${wrapped.slice(i + 4)}`;
}

/**
 * The program's line for the runtime to run inside the sandbox (its relay's wait
 * first, then its TMPDIR), and a function that puts the relay's start into the
 * wrapped command (startRelayFirst; unchanged without a relay).
 */
export function programLine(argv: readonly [string, ...string[]], tmp: string | undefined, relay: string | undefined): { command: string; withRelay: (wrapped: string) => string } {
  const r = process.platform === 'linux' ? sandboxRelays(relay) : null;
  const command = `${r?.wait ?? ''}${tmp ? `TMPDIR=${q(tmp)} ` : ''}exec ${argv.map(q).join(' ')}`;
  return { command, withRelay: (wrapped) => (r ? startRelayFirst(wrapped, r.start) : wrapped) };
}

/**
 * The runtime's own settings for the programs it runs, found on `pathVar` once: where
 * a setting is missing the runtime asks `which` (a process, ~6 ms from a Node process
 * this size) at every wrap. `ripgrep` is what lists the dangerous names below the
 * working directory a wrap is made from, a process per wrap (~15 ms); pane wraps from
 * an empty directory of its own (emptyWrapDir) and guards the project itself
 * (guardProject), so that list is known to be empty: `false` says so (exit 1, as
 * ripgrep says "nothing found") without a search. Decision 049.
 */
export function runtimePrograms(pathVar: string | undefined): { bwrapPath?: string; socatPath?: string; ripgrep?: { command: string } } {
  if (process.platform !== 'linux') return {};
  const bwrap = which('bwrap', pathVar);
  const socat = which('socat', pathVar);
  const nothing = which('false', pathVar) ?? which('/bin/false', undefined);
  return { ...(bwrap ? { bwrapPath: bwrap } : {}), ...(socat ? { socatPath: socat } : {}), ...(nothing ? { ripgrep: { command: nothing } } : {}) };
}

/**
 * The runtime's program settings for this process (runtimePrograms on its PATH), with
 * its `which` and its ripgrep scan answered in the process from now on, not each by a
 * process per wrap (runtimeLookups.ts).
 */
function runtimeSettings(): ReturnType<typeof runtimePrograms> {
  const programs = runtimePrograms(process.env.PATH);
  answerRuntimeLookups(programs.ripgrep?.command);
  return programs;
}

/**
 * Adds to the settings' denyWrite the guards of `project` that exist, if the
 * settings let the program write there (a guard bound over a hidden place would
 * show it). Returns what was found, the absent ones to look at after.
 */
async function guardProject(config: unknown, project: string): Promise<{ absent: string[] }> {
  const fsConf = (config as { filesystem?: { allowWrite?: unknown; denyWrite?: unknown } } | null)?.filesystem;
  const writes = Array.isArray(fsConf?.allowWrite) ? (fsConf.allowWrite as unknown[]).filter((w): w is string => typeof w === 'string') : [];
  if (!fsConf || !writes.some((w) => project === w || project.startsWith(w.endsWith('/') ? w : w + '/'))) return { absent: [] };
  const { DANGEROUS_FILES, getDangerousDirectories } = await importEsm<typeof import('@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js')>('@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js');
  const guards = projectGuards(project, { files: DANGEROUS_FILES, dirs: getDangerousDirectories() });
  if (guards.truncated) process.stderr.write(`pane: ${project} is too wide to look through whole before a launch; what lies past the first directories is not guarded\n`);
  fsConf.denyWrite = [...(Array.isArray(fsConf.denyWrite) ? fsConf.denyWrite : []), ...guards.existing];
  return { absent: guards.absent };
}

/** An empty directory of pane's own, outside everything a sandbox may write. */
function emptyWrapDir(): string {
  const dir = path.join(runtimeDir(), 'sandbox-wrap');
  fs.mkdirSync(dir, { recursive: true, mode: 0o500 });
  return dir;
}

/** Runs `f` with the process in `dir`, then back where it was. */
async function inDirectory<T>(dir: string, f: () => Promise<T>): Promise<T> {
  const was = process.cwd();
  process.chdir(dir);
  try {
    return await f();
  } finally {
    process.chdir(was);
  }
}

export const sandboxCommands: CommandSpec[] = [
  {
    command: 'sandbox',
    summary: 'run PROGRAM inside an agent’s OS sandbox (pane runs this for agent panes; see `pane access NAME`)',
    flags: [{ name: 'settings', type: 'string', value: 'JSON', doc: 'the sandbox-runtime settings (pane builds them from the agent’s .access)' }],
    positionals: [],
    program: true,
    notes: ['Exits with the program’s status. The settings are JSON as @anthropic-ai/sandbox-runtime takes them: {"network": {...}, "filesystem": {...}}.'],
    async run(_ctx, a) {
      const text = str(a, 'settings');
      if (text === undefined) throw new UsageError('--settings JSON is required', 'sandbox');
      if (!a.program) throw new UsageError('give the program after --', 'sandbox');
      let config: unknown;
      try {
        config = JSON.parse(text);
      } catch (e) {
        throw new UsageError(`--settings is not JSON: ${(e as Error).message}`, 'sandbox');
      }
      // pane's own part of the settings (not the runtime's): the hidden directories to seal read-only.
      const own = (config as { pane?: { sealed?: unknown; root?: unknown } }).pane;
      const absolute = (xs: unknown) => ((xs ?? []) as unknown[]).filter((d): d is string => typeof d === 'string' && d.startsWith('/'));
      const sealed = absolute(own?.sealed);
      const root = absolute(own?.root);
      if (typeof config === 'object' && config !== null) delete (config as { pane?: unknown }).pane;
      const { SandboxManager } = await importEsm<typeof import('@anthropic-ai/sandbox-runtime')>('@anthropic-ai/sandbox-runtime');
      // The project: where the program starts. Its guards are pane's (see projectGuard.ts), not the
      // runtime's, which puts a placeholder in the project for each one missing there.
      const project = process.cwd();
      const guards = await guardProject(config, project);
      try {
        await SandboxManager.initialize({ ...runtimeSettings(), ...(config as object) } as Parameters<typeof SandboxManager.initialize>[0]);
      } catch (e) {
        throw new OpError(`cannot start the sandbox: ${(e as Error).message}`);
      }
      // TMPDIR: the runtime sets its own shared one; the agent's is in its home (set by pane). The agent's hooks reach pane
      // through its own socket, by a relay on the sandbox's loopback (Linux: its own network namespace).
      const line = programLine(a.program as [string, ...string[]], process.env.PANE_AGENT_TMPDIR, process.env.PANE_HOOK_RELAY);
      delete process.env.PANE_HOOK_RELAY;
      // Wrapped from an empty directory the sandbox may not write, so the runtime's guards of the
      // working directory land on nothing; the program still starts in the project.
      const wrapped = await inDirectory(emptyWrapDir(), async () =>
        line.withRelay(sealHidden(rootFromPlaces(keepTerminal(await SandboxManager.wrapWithSandbox(line.command)), root), sealed)),
      );
      const child = spawn(wrapped, { shell: true, stdio: 'inherit', cwd: project });
      // Ctrl-C and Ctrl-Z are for the program (the pane's foreground); this process only carries it.
      for (const sig of ['SIGINT', 'SIGQUIT', 'SIGTSTP'] as const) process.on(sig, () => undefined);
      for (const sig of ['SIGTERM', 'SIGHUP'] as const) process.on(sig, () => child.kill(sig));
      const code = await new Promise<number>((resolve) => {
        child.once('exit', (c, signal) => resolve(c ?? (signal ? 128 + (({ SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }) as Record<string, number>)[signal]! || 1 : 1)));
        child.once('error', () => resolve(127));
      });
      SandboxManager.cleanupAfterCommand?.();
      await SandboxManager.reset().catch(() => undefined);
      const made = madeSince(guards.absent);
      if (made.length > 0) {
        process.stderr.write(
          `pane: while this agent ran, ${made.map((p) => path.relative(project, p)).join(', ')} appeared in ${project}: tools run or obey these when the folder is opened (editor tasks, MCP servers, shell settings). Read them before you trust them.\n`,
        );
      }
      return code;
    },
  },
  {
    command: 'sandboxd',
    summary: 'the daemon’s sandbox helper: wraps agent panes’ programs in their sandboxes over SOCKET (pane starts it)',
    flags: [
      { name: 'listen', type: 'string', value: 'SOCKET', doc: 'the unix socket to serve (in pane’s runtime dir, which every sandbox hides)' },
      { name: 'unix-sockets', type: 'bool', doc: 'its wraps let programs make unix sockets (agents whose .access says sandbox.unixSockets "allow"); it refuses any other request' },
    ],
    positionals: [],
    notes: ['Ends when its standard input closes (the daemon that started it is gone) or on SIGTERM. See docs/decisions/049-sandbox-helper.md.'],
    async run(_ctx, a) {
      const socket = str(a, 'listen');
      if (socket === undefined || !path.isAbsolute(socket)) throw new UsageError('--listen SOCKET (an absolute path) is required', 'sandboxd');
      await serveHelper(socket, UNIX_SOCKETS_ALLOWED || bool(a, 'unix-sockets'));
      return 0;
    },
  },
];

/** How often the helper looks whether a launch's shell is still there, to end a registration whose pane was killed before it could say so. */
export const SWEEP_MS = 10_000;

/** A wrap's network list, registered under an unguessable id until its launcher ends. */
interface Registration {
  id: string;
  pid: number;
  /** `pid` is a launcher leading its pane's session (leadsLauncherSession): its session is ended with it. */
  leads: boolean;
}

/**
 * The runtime's settings, the helper's own: no network (each launch's list is registered under its
 * id), no filesystem rule (each wrap brings its own), and, unless `sockets`, no unix socket made
 * inside (the runtime's seccomp filter: the person's session bus, ssh agent, X server, tmux and
 * docker sockets are files a sandbox may see; pane reaches the agent's own sockets by relays on its
 * loopback instead). The runtime reads that rule from these settings for every wrap, not from a
 * wrap's own: so a helper holds one, and refuses a request that asks for the other.
 */
function baseConfig(sockets: boolean) {
  return {
    network: { allowedDomains: [] as string[], deniedDomains: [] as string[], allowAllUnixSockets: sockets },
    filesystem: { denyRead: [] as string[], allowRead: [] as string[], allowWrite: [] as string[], denyWrite: [] as string[] },
  };
}

/** The shell lines after the program: its status kept, the registration ended, the project's new guards named. */
function afterLines(id: string, project: string, absent: readonly string[]): string {
  const lines = ['_pane_s=$?', `printf 'done %s\\n' ${q(id)} | socat -t 2 - "UNIX-CONNECT:$s" >/dev/null 2>&1`];
  if (absent.length > 0) {
    lines.push(
      `_pane_m=; for _pane_f in ${absent.map(q).join(' ')}; do if [ -e "$_pane_f" ] || [ -L "$_pane_f" ]; then _pane_m="$_pane_m\${_pane_m:+, }\${_pane_f#${q(project + '/')}}"; fi; done`,
      `[ -n "$_pane_m" ] && printf 'pane: while this agent ran, %s appeared in %s: tools run or obey these when the folder is opened (editor tasks, MCP servers, shell settings). Read them before you trust them.\\n' "$_pane_m" ${q(project)} >&2`,
    );
  }
  lines.push('exit $_pane_s');
  return lines.join('\n');
}

/** Serves wraps on `socket` until stdin closes or SIGTERM; `sockets`: whether its walls let programs make unix sockets. */
async function serveHelper(socket: string, sockets: boolean): Promise<void> {
  // Told to end at any moment, starting now: the runtime's own SIGTERM handler (made in its initialize) only resets,
  // so a SIGTERM before this helper listened would leave it running without proxies, with its daemon gone.
  let stopping = false;
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      stopping = true;
      resolve();
    };
    process.stdin.on('end', stop);
    process.stdin.on('close', stop);
    process.stdin.on('error', stop);
    process.stdin.resume();
    for (const sig of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.on(sig, stop);
  });
  // The daemon's PTY masters (node-pty opens them without close-on-exec) came with this process: held here, a pane's
  // program would get no hang-up when its daemon died, and would keep its proxy connections open, so this helper,
  // waiting for them, would never end. None of them is this helper's.
  closeInheritedTerminals();
  // Loaded here, not with the command table: its schema brings zod, which no other command of this group loads (main.test.ts).
  const { LAUNCHER_NAME, MAX_REQUEST_BYTES, SCRIPT_MARK, WrapRequestSchema } = await import('../../sandboxHelper');
  // Wrapped from an empty directory the sandbox may not write, so the runtime's guards of the working directory land on nothing.
  process.chdir(emptyWrapDir());
  const { SandboxManager } = await importEsm<typeof import('@anthropic-ai/sandbox-runtime')>('@anthropic-ai/sandbox-runtime');
  const live = new Map<string, Registration>();
  // Launchers that said their program ended: once each is gone, whatever it left in its session goes (endSessions).
  const ending = new Set<number>();
  const finish = async (): Promise<never> => {
    // The daemon that started this helper is gone or stopping, and its panes with it: their sandboxes end now.
    endSessions([...[...live.values()].filter((r) => r.leads).map((r) => r.pid), ...[...ending].filter((pid) => !pidAlive(pid))]);
    // The runtime's reset ends its bridges at once but waits for the proxies' open connections: bounded, then the helper goes.
    await Promise.race([SandboxManager.reset().catch(() => undefined), new Promise((r) => setTimeout(r, RESET_WAIT_MS))]);
    // Whatever the runtime started and left (a bridge, a bridge's child for one connection) ends with the helper.
    endDescendants();
    process.exit(0);
  };
  try {
    await Promise.race([SandboxManager.initialize({ ...runtimeSettings(), ...baseConfig(sockets) } as Parameters<typeof SandboxManager.initialize>[0]), stopped]);
  } catch (e) {
    endDescendants();
    throw new OpError(`cannot start the sandbox's proxies: ${(e as Error).message}`);
  }
  if (stopping) return finish();
  const end = (id: string) => {
    if (!live.delete(id)) return;
    SandboxManager.unregisterCommandNetworkLists(id);
    SandboxManager.cleanupAfterCommand?.();
  };
  const sweep = setInterval(() => {
    const gone: number[] = [];
    for (const pid of [...ending]) {
      if (pidAlive(pid)) continue;
      ending.delete(pid);
      gone.push(pid);
    }
    for (const r of [...live.values()]) {
      if (pidAlive(r.pid)) continue;
      // Its launcher was killed outright: what it started in its pane's session goes too.
      if (r.leads) gone.push(r.pid);
      end(r.id);
    }
    endSessions(gone);
  }, SWEEP_MS);
  sweep.unref();

  /** A wrap made: its registration's id (network list, mount points) and the launcher's script. */
  interface Made {
    id: string;
    script: string;
  }
  // A made wrap no launcher took: its network list and the runtime's count of it given back.
  const release = (id: string) => {
    SandboxManager.unregisterCommandNetworkLists(id);
    SandboxManager.cleanupAfterCommand?.();
  };
  const make = async (req: WrapRequest): Promise<Made> => {
    const { pane, ...config } = structuredClone(req.settings);
    const sealed = pane.sealed.filter((d) => d.startsWith('/'));
    const guards = await guardProject(config, req.cwd);
    const id = crypto.randomBytes(16).toString('base64url');
    SandboxManager.registerCommandNetworkLists(id, { allowedDomains: config.network.allowedDomains });
    const line = programLine(req.argv as [string, ...string[]], req.tmp, req.relay);
    try {
      const custom = { filesystem: config.filesystem, network: { ...config.network, allowedDomains: [] } } as Parameters<typeof SandboxManager.wrapWithSandbox>[2];
      const wrapped = line.withRelay(sealHidden(rootFromPlaces(keepTerminal(await SandboxManager.wrapWithSandbox(line.command, undefined, custom, undefined, { commandId: id })), pane.root), sealed));
      return { id, script: `${SCRIPT_MARK} ${id}\n${wrapped}\n${afterLines(id, req.cwd, guards.absent)}\n` };
    } catch (e) {
      release(id);
      throw e;
    }
  };
  // Wraps made ahead (`prewrap`), by token, until their launcher asks or PREWRAP_TTL_MS passes.
  const ahead = new Map<string, { key: string; made: Promise<Made>; timer: NodeJS.Timeout }>();
  const requestKey = (req: WrapRequest) => JSON.stringify({ ...req, prewrap: undefined });
  const prewrap = (token: string, req: WrapRequest) => {
    if (ahead.has(token) || ahead.size >= MAX_AHEAD) return;
    const made = make(req);
    made.catch(() => undefined); // said to the launcher that asks for it, or to none
    const timer = setTimeout(() => {
      ahead.delete(token);
      made.then((m) => release(m.id), () => undefined);
    }, PREWRAP_TTL_MS);
    timer.unref();
    ahead.set(token, { key: requestKey(req), made, timer });
  };
  const wrap = async (pid: number, req: WrapRequest): Promise<string> => {
    const a = req.prewrap === undefined ? undefined : ahead.get(req.prewrap);
    let made: Made | undefined;
    if (a !== undefined) {
      ahead.delete(req.prewrap!);
      clearTimeout(a.timer);
      const m = await a.made.catch(() => undefined); // failed ahead: made again below, its error the launcher's
      if (m !== undefined && a.key !== requestKey(req)) release(m.id); // not this request's: made anew
      else made = m;
    }
    made ??= await make(req);
    live.set(made.id, { id: made.id, pid, leads: leadsLauncherSession(pid, LAUNCHER_NAME) });
    return made.script;
  };

  // Half-open: the launcher's socat ends its side once the request is sent, and waits for the answer.
  const server = net.createServer({ allowHalfOpen: true }, (conn) => {
    let buf = '';
    const answer = (text: string) => {
      conn.end(text);
    };
    conn.setEncoding('utf8');
    conn.on('error', () => undefined);
    conn.on('data', (chunk: string) => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl < 0) {
        if (buf.length > MAX_REQUEST_BYTES) answer(`${SCRIPT_MARK}-error the request is over ${MAX_REQUEST_BYTES} bytes (MAX_REQUEST_BYTES)\n`);
        return;
      }
      const line = buf.slice(0, nl);
      buf = '';
      conn.removeAllListeners('data');
      const done = /^done ([A-Za-z0-9_-]{22})$/.exec(line);
      if (done) {
        const r = live.get(done[1]!);
        if (r?.leads && ending.size < MAX_ENDING) ending.add(r.pid);
        end(done[1]!);
        answer('');
        return;
      }
      // `wrap PID REQUEST` from a launcher; `prewrap TOKEN REQUEST` from the daemon as it starts a pane, answered with
      // nothing but the end when it is taken (its launcher gets the script, or the error).
      const m = /^(wrap ([0-9]{1,10})|prewrap ([A-Za-z0-9_-]{22})) (\{.*\})$/s.exec(line);
      if (!m) return answer(`${SCRIPT_MARK}-error not a request: ${JSON.stringify(line.slice(0, 80))}\n`);
      let req: WrapRequest;
      try {
        const parsed = WrapRequestSchema.safeParse(JSON.parse(m[4]!));
        if (!parsed.success) {
          const i = parsed.error.issues[0]!;
          return answer(`${SCRIPT_MARK}-error the request's ${i.path.join('.') || '(whole)'}: ${i.message}\n`);
        }
        req = parsed.data;
      } catch (e) {
        return answer(`${SCRIPT_MARK}-error the request is not JSON: ${(e as Error).message}\n`);
      }
      // Its walls would not be the ones asked for: unix sockets are this helper's rule, not a wrap's.
      if (req.settings.network.allowAllUnixSockets !== sockets) {
        return answer(`${SCRIPT_MARK}-error the request's settings.network.allowAllUnixSockets is ${String(!sockets)}; this helper's walls ${sockets ? 'allow' : 'refuse'} unix sockets (${sockets ? 'the helper without --unix-sockets' : 'the helper started with --unix-sockets'} wraps it)\n`);
      }
      if (m[3] !== undefined) {
        if (req.prewrap !== m[3]) return answer(`${SCRIPT_MARK}-error the request's prewrap is not the token it is sent with\n`);
        prewrap(m[3], req);
        return answer('');
      }
      wrap(Number(m[2]), req).then(answer, (e: unknown) => answer(`${SCRIPT_MARK}-error ${(e as Error).message.split('\n')[0]}\n`));
    });
  });
  try {
    fs.unlinkSync(socket);
  } catch {
    // none left from before
  }
  const old = process.umask(0o177);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  process.umask(old);
  await stopped;
  clearInterval(sweep);
  server.close();
  try {
    fs.unlinkSync(socket);
  } catch {
    // gone already
  }
  return finish();
}

/** Launchers watched after their `done` at most (each leaves within moments of it; a flood of `done`s is no launcher's). */
const MAX_ENDING = 4096;

/**
 * How long a wrap made ahead (`prewrap`) waits for its launcher's ask: the launcher
 * asks within milliseconds of its pane's start, seconds on a loaded machine; past
 * this its pane never started (a launch that failed after its prewrap), and its
 * network list is given back.
 */
export const PREWRAP_TTL_MS = 30_000;

/** Wraps made ahead and not yet asked for, at most: more than the launches a person starts at once; past it a launch is wrapped when its launcher asks, as before. */
export const MAX_AHEAD = 64;

/**
 * Whether `pid` is an agent pane's launcher leading its own session (its pane's
 * terminal): `/bin/sh -c LAUNCHER NAME …` (NAME `launcherName`) with session id = pid. Only such a
 * session is ever ended by the helper, never one a request merely names.
 */
function leadsLauncherSession(pid: number, launcherName: string): boolean {
  try {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return argv[3] === launcherName && procStat(pid)?.session === pid;
  } catch {
    return false;
  }
}

/**
 * Ends (SIGKILL) every process left in the sessions `sids`: launchers', each of which
 * leads its pane's terminal session. bubblewrap's init in the sandbox's PID namespace
 * takes no signal from outside it but SIGKILL, so the hang-up that ends a pane leaves
 * it and the runtime's bridges inside running once its launcher is gone; its end ends
 * the namespace. A session id is not reused while any process of it lives, so what
 * this finds is those launchers'. One reading of /proc for all of them; Linux only.
 */
function endSessions(sids: readonly number[]): void {
  if (sids.length === 0) return;
  const wanted = new Set(sids);
  for (const [pid, stat] of procStats()) {
    if (pid !== process.pid && wanted.has(stat.session)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // ended meanwhile
      }
    }
  }
}

/** Ends (SIGTERM) every process descended from this one, by /proc's parent links; Linux only (elsewhere the runtime's bridges are not processes). */
function endDescendants(): void {
  const stats = procStats();
  const mine = (pid: number): boolean => {
    for (let p = stats.get(pid)?.ppid, hops = 0; p !== undefined && p > 1 && hops < 64; p = stats.get(p)?.ppid, hops++) if (p === process.pid) return true;
    return false;
  };
  for (const pid of stats.keys()) {
    if (pid === process.pid || !mine(pid)) continue;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // ended meanwhile
    }
  }
}

/** How long the helper's end waits for the runtime's reset (its proxies close when their connections do). */
export const RESET_WAIT_MS = 2_000;

/** Closes every terminal master this process inherited (links of /proc/self/fd to /dev/ptmx); Linux only. */
function closeInheritedTerminals(): void {
  let fds: string[];
  try {
    fds = fs.readdirSync('/proc/self/fd');
  } catch {
    return;
  }
  for (const fd of fds) {
    const n = Number(fd);
    if (!Number.isInteger(n) || n < 3) continue;
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) === '/dev/ptmx') fs.closeSync(n);
    } catch {
      // gone meanwhile (the directory's own fd)
    }
  }
}
