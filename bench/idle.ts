// An idle daemon's wakeups (decision 052): `pane serve` as a person's daemon runs
// (a shell pane, the hook doors, its state kept; no window, host or agent) and
// tmux's server with one shell pane, left alone side by side, each one's main
// thread's voluntary context switches counted over the same spell (each is one
// sleep of its event loop ended: a timer, a poll, a check with nothing to do).
// Counted twice: soon after start, when the heap trimmer still checks every 4 s
// for its passes after the start's work (decision 051), and once those are done.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { daemonEnv } from '../kits/node/daemonEnv';
import { endPid, paneBin, sleep, wakeups } from './procs';

/** How long each spell is counted. */
export const IDLE_SPELL_MS = 10_000;
/** Left alone this long after start before the first count: the shell's prompt drawn and flushed, the first client gone. */
const SETTLE_MS = 3_000;
/** And this long after start before the second: past the heap trimmer's last pass after the start (TRIM_QUIET_MS × 2^3 ≈ 112 s). */
const AFTER_TRIMS_MS = 125_000;

export interface IdleResult {
  /** The daemon's main-thread wakeups in IDLE_SPELL_MS, soon after start and once settled. */
  paneSoon: number;
  paneSettled: number;
  /** tmux's server's in the same spells; null without tmux. */
  tmuxSoon: number | null;
  tmuxSettled: number | null;
}

export async function idleWakeups(dir: string, withTmux: boolean): Promise<IdleResult> {
  fs.mkdirSync(dir, { recursive: true });
  const socket = path.join(dir, 'idle.sock');
  const daemon = spawn(process.execPath, [paneBin, 'serve', '--socket', socket, '--state', path.join(dir, 'state')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: daemonEnv({ ...process.env, HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_DATA_HOME: path.join(dir, 'data'), PS1: '$ ' }),
  });
  let log = '';
  daemon.stderr!.on('data', (b: Buffer) => (log += String(b)));
  const tmuxName = `panebenchidle${process.pid}`;
  let tmuxPid: number | null = null;
  try {
    const started = Date.now();
    for (const deadline = started + 15_000; !/listening/.test(log); await sleep(50)) if (Date.now() > deadline || daemon.exitCode !== null) throw new Error(`pane serve did not start: ${log.slice(-400)}`);
    if (withTmux) {
      spawnSync('tmux', ['-L', tmuxName, '-f', '/dev/null', 'new-session', '-d', 'sh']);
      tmuxPid = Number(spawnSync('tmux', ['-L', tmuxName, 'display', '-p', '#{pid}'], { encoding: 'utf8' }).stdout.trim()) || null;
    }
    const spell = async () => {
      const a = wakeups(daemon.pid!);
      const t = tmuxPid ? wakeups(tmuxPid) : 0;
      await sleep(IDLE_SPELL_MS);
      return { pane: wakeups(daemon.pid!) - a, tmux: tmuxPid ? wakeups(tmuxPid) - t : null };
    };
    await sleep(SETTLE_MS);
    const soon = await spell();
    await sleep(Math.max(0, started + AFTER_TRIMS_MS - Date.now()));
    const settled = await spell();
    return { paneSoon: soon.pane, paneSettled: settled.pane, tmuxSoon: soon.tmux, tmuxSettled: settled.tmux };
  } finally {
    if (withTmux) spawnSync('tmux', ['-L', tmuxName, 'kill-server']);
    await endPid(daemon.pid ?? 0);
  }
}
