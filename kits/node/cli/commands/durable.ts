// The daemon's lifetime and memory from the command line: `pane stop` (says what
// will end, asks on a terminal), `pane restore` (list the kept snapshot generations,
// go back to one) and `pane service install` (a systemd user unit that starts it at login).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import readline from 'node:readline';
import { bool, str } from '../args';
import { JSON_FLAG, type CommandSpec } from '../command';
import type { CommandContext } from '../context';
import { OpError, UsageError } from '../errors';
import { table } from '../format';
import { ADDED_ENV, DAEMON_ENV } from '../../daemonEnv';
import { localTime } from '../../localTime';

/**
 * How long `pane stop` waits for the daemon to finish: its programs get 2 s after SIGHUP
 * and 1 more after SIGKILL, the sandbox helper as long, and the last snapshot is written
 * first; a stop still unfinished past this is said, not waited for without end.
 */
const STOP_WAIT_MS = 30_000;

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

async function ask(ctx: CommandContext, question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: ctx.io.stdin, output: ctx.io.stderr });
  try {
    const answer = await new Promise<string>((resolve) => {
      rl.question(question, resolve);
      rl.once('close', () => resolve(''));
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export const stopCommand: CommandSpec = {
  command: 'stop',
  summary: 'stop the pane daemon: every pane and program ends (asks first on a terminal)',
  flags: [{ name: 'yes', short: 'y', type: 'bool', doc: 'do not ask' }],
  notes: [
    'Closing a window only detaches it; this is how the daemon ends. It says how many panes and running programs will end and, when stdin is a terminal, asks. Its last snapshot is written first, so the next start brings the layout back (see docs/durability.md).',
  ],
  async run(ctx, a) {
    const c = await ctx.connect();
    const { panes } = await c.call('pane/list', {});
    const running = panes.filter((p) => p.state === 'running').length;
    const what = `${plural(panes.length, 'pane')} and ${plural(running, 'running program')}`;
    const tty = (ctx.io.stdin as { isTTY?: boolean }).isTTY === true;
    if (tty && !bool(a, 'yes') && !(await ask(ctx, `Stop the pane daemon? ${what} will end. [y/N] `))) {
      ctx.err('pane: not stopped');
      return 1;
    }
    await c.call('server/stop', {});
    // The daemon closes this connection last, once every program exited and the last snapshot is written.
    const done = await new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), STOP_WAIT_MS);
      c.onClose(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
    if (!done) {
      ctx.err(`pane: the daemon was asked to stop and has not finished after ${STOP_WAIT_MS / 1000} s (its log says what it waits for)`);
      return 1;
    }
    ctx.out(`stopped the pane daemon: ${what} ended`);
    return 0;
  },
};

/**
 * `--at`: a generation number; a local date and time as the list shows it
 * (2026-11-23 18:04:05, or to the minute); a clock time alone (18:04, 18:04:05: the last
 * such moment, today's or, if that is still to come, yesterday's); or any time
 * Date.parse reads (ISO with a zone). A time given to the minute or second means
 * its end, so the generation listed at 18:04:05 is the one `--at '18:04:05'` finds.
 */
export function parseWhen(s: string, now = Date.now()): { gen: number } | { at: number } {
  if (/^\d{1,9}$/.test(s)) return { gen: Number(s) };
  const m = /^(?:(\d{4})-(\d{2})-(\d{2})[ T])?(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s.trim());
  if (m) {
    const [h, min, sec] = [Number(m[4]), Number(m[5]), m[6] === undefined ? undefined : Number(m[6])];
    if (h > 23 || min > 59 || (sec !== undefined && sec > 59)) throw new UsageError(`--at ${s}: not a time of day`, 'restore');
    const d = m[1] === undefined ? new Date(now) : new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    d.setHours(h, min, sec ?? 59, 999);
    if (m[1] === undefined && d.getTime() - (sec === undefined ? 59_999 : 999) > now) d.setDate(d.getDate() - 1);
    return { at: d.getTime() };
  }
  const t = Date.parse(s);
  if (Number.isNaN(t)) throw new UsageError(`--at takes a generation number or a time (2026-11-23 18:04:05 as restore --list shows it, 18:04 today, or ISO 2026-11-23T18:04Z), not ${s}`, 'restore');
  return { at: t };
}

export const restoreCommand: CommandSpec = {
  command: 'restore',
  summary: 'list the kept snapshot generations, or bring one back beside the current sessions',
  flags: [
    { name: 'list', type: 'bool', doc: 'list generations: number, time, sessions, panes, size' },
    { name: 'at', type: 'string', value: 'GEN|TIME', doc: 'the generation to bring back, by number or as the newest saved at or before TIME (as the list shows it, or HH:MM today)' },
    JSON_FLAG,
  ],
  notes: ['The daemon writes a generation every minute while something changes, and at stop; `pane restore --at` recreates that generation’s sessions (renamed if the names are taken) without touching the live ones.'],
  async run(ctx, a) {
    const c = await ctx.connect();
    const at = str(a, 'at');
    if (at === undefined) {
      const { dir, generations } = await c.call('state/generations', {});
      if (bool(a, 'json')) ctx.out(JSON.stringify({ dir, generations }, null, 2));
      else if (dir === null) ctx.out('this server keeps no state (the daemon does; see docs/durability.md)');
      else
        ctx.out(
          table(
            ['GEN', 'SAVED', 'SESSIONS', 'PANES', 'SIZE'],
            generations.map((g) => [String(g.gen), localTime(g.savedAt), String(g.sessions), String(g.panes), `${(g.bytes / 1024).toFixed(1)} KiB`]),
          ),
        );
      return 0;
    }
    if (bool(a, 'list')) throw new UsageError('--list and --at go separately', 'restore');
    const r = await c.call('state/restore', parseWhen(at));
    if (bool(a, 'json')) ctx.out(JSON.stringify(r, null, 2));
    else ctx.out(`brought back generation ${r.gen}: ${r.sessions.map((s) => s.name).join(', ') || 'no sessions'}`);
    return 0;
  },
};

/**
 * One word of a unit file's line as systemd 252 reads it back (systemd.syntax(7),
 * systemd.service(7) "Command lines"; each case checked with `systemd-analyze
 * verify`): double-quoted, `%` doubled everywhere (a specifier otherwise: `%c` in a
 * path became the unit's cgroup). In an argument or an assignment `\` and `"` are
 * escaped and, in an argument, `$` doubled (a variable otherwise). The program's own
 * path takes no escapes and no variables: systemd refuses a `"` or `\` in it
 * ("Executable name contains special characters") and reads `$` as itself. A line
 * break or other control character has no spelling that survives anywhere.
 */
export function systemdWord(word: string, as: 'program' | 'argument' | 'assignment'): string {
  const refuse = (what: string) => new OpError(`cannot write ${JSON.stringify(word)} into a systemd unit: it holds ${what}; install pane (or node) at a path without one`);
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(word)) throw refuse('a control character (a line break?)');
  if (as === 'program' && /["\\]/.test(word)) throw refuse('a quote or a backslash, which systemd refuses in the program it runs');
  let w = as === 'program' ? word : word.replace(/[\\"]/g, (c) => `\\${c}`);
  w = w.replace(/%/g, '%%');
  if (as === 'argument') w = w.replace(/\$/g, '$$$$');
  return `"${w}"`;
}

/**
 * The systemd user unit that runs the daemon (dist/start.mjs --daemon) at login,
 * with the environment a daemon started from a window or the CLI gets (daemonEnv:
 * glibc's malloc settings), named in ADDED_ENV so the daemon drops them again
 * before it starts anyone's programs.
 */
export function serviceUnit(node: string, startScript: string, socket: string | undefined): string {
  const arg = (w: string) => systemdWord(w, 'argument');
  const exec = [systemdWord(node, 'program'), arg(startScript), '--daemon', ...(socket ? ['--socket', arg(socket)] : [])].join(' ');
  const env = Object.entries(DAEMON_ENV).map(([k, v]) => `${k}=${v}`);
  return [
    '[Unit]',
    'Description=pane daemon (owns your panes; windows attach to it)',
    // A URL (spaces as %20), its % doubled as every % in a unit file.
    `Documentation=${pathToFileURL(path.join(path.dirname(path.dirname(startScript)), 'docs', 'durability.md')).href.replace(/%/g, '%%')}`,
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${exec}`,
    // What daemonEnv gives a daemon started any other way (a drop-in's own Environment= line, later, wins).
    `Environment=${[...env, `${ADDED_ENV}=${Object.keys(DAEMON_ENV).join(',')}`].map((a) => systemdWord(a, 'assignment')).join(' ')}`,
    // pane stop ends it on purpose: only a crash is restarted.
    'Restart=on-failure',
    'RestartSec=2',
    // Panes are the daemon's children: stopping the unit ends them; the last snapshot is written first.
    'KillMode=mixed',
    'TimeoutStopSec=15',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

export const serviceCommand: CommandSpec = {
  command: 'service install',
  summary: 'write a systemd user unit that starts the pane daemon at login',
  flags: [{ name: 'print', type: 'bool', doc: 'print the unit instead of writing it' }],
  notes: ['Writes ~/.config/systemd/user/pane.service ($XDG_CONFIG_HOME respected) and says what it wrote; enable it with `systemctl --user enable --now pane`.'],
  async run(ctx, a) {
    const entry = process.argv[1] ? fs.realpathSync(process.argv[1]) : '';
    const script = path.join(path.dirname(entry), 'start.mjs');
    if (!fs.existsSync(script)) throw new OpError(`cannot find start.mjs beside ${entry || 'this pane'}; run npm run build first`);
    const unit = serviceUnit(process.execPath, script, ctx.socketFromFlag ? ctx.socketPath : undefined);
    if (bool(a, 'print')) {
      ctx.out(unit);
      return 0;
    }
    const dir = path.join(ctx.io.env.XDG_CONFIG_HOME ?? path.join(ctx.io.env.HOME ?? os.homedir(), '.config'), 'systemd', 'user');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'pane.service');
    fs.writeFileSync(file, unit);
    ctx.out(`wrote ${file}:\n\n${unit}\nenable it with: systemctl --user daemon-reload && systemctl --user enable --now pane`);
    return 0;
  },
};

export const durableCommands: CommandSpec[] = [restoreCommand, serviceCommand];
