// Scale (issue 35): a server with 20, 100 and 200 panes (each a real PTY running
// `cat`, ten to a session, as a long day's desktop; a quarter of them agents, each in
// its sandbox where bubblewrap runs) plus 4 joined `command` hosts of 50 panes each,
// measured at each size: `pane ls --json` one-shot (listing the hosts' 200 too), a
// structural change (a split and its close, round trip), an awareness tick (one
// agent's prompt and the convergence pass over every agent it sets off; agents work
// in groups of four), the window's
// first screen (a fresh Chromium opening a one-time URL, until every pane of the shown
// session is drawn), and the daemon's RSS against a tmux server holding the same
// number of `cat` windows. Each row's growth from 20 to 200 says whether cost is
// linear (10×) or better.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Connection } from '../kits/client/connection';
import { sandboxUnavailable } from '../server/agents/sandbox';
import { openBrowser } from './page';
import { client, paneBin, rssOf, sleep, startServerProc, timeCommand, tmux, type ServerProc } from './procs';
import { summarize, type Summary } from './stats';

/** The sizes measured; the growth is from the first to the last. */
export const SCALE_SIZES = [20, 100, 200] as const;
/** Panes per session: a session of hundreds would be tiles too small to read, which is not how people work. */
const PER_SESSION = 10;
/** After the panes are made, the daemon settles (screens idle, rings trimmed) before its RSS is read. */
const SETTLE_MS = 2_000;
/** Joined hosts beside every size, and the panes each holds (issue 35: 4 of 50). */
export const SCALE_HOSTS = 4;
export const SCALE_HOST_PANES = 50;
/** Every AGENT_EVERY-th pane is an agent's (a quarter; a session's first pane never is). */
const AGENT_EVERY = 4;
/**
 * Agents work in fours: a group's prompts share its area's words (so the pass finds
 * real convergence to score and keep), each agent adds words of its own. The shape of
 * the work stays the same as the desktop grows, so the row's growth is the daemon's;
 * where every agent crowds onto five areas, the pairs themselves grow as n² (the
 * awareness section's crowded row measures that).
 */
const GROUP = 4;
/** Prompts each agent has made before the tick is timed: their trajectories have a history to compare. */
const PROMPTS_BEFORE = 3;
/** How long a window may take to draw its first screen before the row is called failed (200 panes on a loaded 2-core machine). */
const SCREEN_TIMEOUT_MS = 60_000;

export interface ScaleRow {
  panes: number;
  /** Of them, agents' panes (0 where no sandbox runs here: an agent is never launched unsandboxed by a bench). */
  agents: number;
  /** The joined hosts' panes `pane ls` listed beside them. */
  remote: number;
  ls: Summary;
  change: Summary;
  /** One agent's prompt (agent/hook UserPromptSubmit) through the daemon: its convergence pass over every agent, answered. */
  tick: Summary;
  /** Agents the tick's pass went over. */
  tickAgents: number;
  /** A fresh window's navigation → every pane of its session drawn (null where Chromium is not installed). */
  screen: Summary | null;
  /** Panes that first screen drew. */
  screenPanes: number;
  rss: number;
  tmuxRss: number | null;
}

/** `n` `cat` panes on `c`, ten to a session; with `agents`, every AGENT_EVERY-th launched as a new agent's (agN). */
async function fill(c: Connection, n: number, agents: boolean): Promise<number> {
  let agentCount = 0;
  for (let s = 0; s * PER_SESSION < n; s++) {
    const m = await c.call('session/new', { name: `s${s}`, launch: { program: '/bin/cat', args: [] } });
    const panes = [(await c.call('session/get', { session: m.name })).focused!];
    // Each pane split at most twice, breadth first: tiles stay readable (no 5-column slivers).
    for (let k = 1; k < PER_SESSION && s * PER_SESSION + k < n; k++) {
      const from = panes[Math.floor((k - 1) / 2)]!;
      const direction = k % 2 ? 'vertical' : 'horizontal';
      if (agents && (s * PER_SESSION + k) % AGENT_EVERY === AGENT_EVERY - 1) {
        const name = `ag${agentCount++}`;
        await c.call('agent/add', { name });
        panes.push((await c.call('agent/launch', { name, pane: from, direction, program: ['/bin/cat'] })).pane);
      } else {
        panes.push((await c.call('pane/split', { pane: from, direction, launch: { program: '/bin/cat', args: [] } })).pane);
      }
    }
  }
  return agentCount;
}

/** The joined hosts: each a `pane serve` of its own with SCALE_HOST_PANES `cat` panes, reached by `pane serve --stdio` as a command. */
async function startHosts(dir: string): Promise<ServerProc[]> {
  const hosts: ServerProc[] = [];
  for (let i = 0; i < SCALE_HOSTS; i++) {
    const h = await startServerProc(fs.mkdtempSync(path.join(dir, `scale-host${i}-`)));
    hosts.push(h);
    const c = await client(h.socket);
    await fill(c, SCALE_HOST_PANES, false);
    c.close();
  }
  return hosts;
}

export async function scale(dir: string, runs: number, withTmux: boolean): Promise<ScaleRow[]> {
  const out: ScaleRow[] = [];
  const agents = sandboxUnavailable(process.env.PATH) === null;
  const hosts = await startHosts(dir);
  try {
    for (const n of SCALE_SIZES) {
      const d = fs.mkdtempSync(path.join(dir, `scale-${n}-`));
      // The hosts as the person adds them: a file each in this daemon's config dir.
      const hostDir = path.join(d, '.config', 'pane', 'hosts');
      fs.mkdirSync(hostDir, { recursive: true });
      hosts.forEach((h, i) => fs.writeFileSync(path.join(hostDir, `h${i}.json`), JSON.stringify({ how: { via: 'command', argv: [process.execPath, paneBin, 'serve', '--stdio', '--socket', h.socket] } })));
      const srv = await startServerProc(d, [], { XDG_CONFIG_HOME: path.join(d, '.config') });
      try {
        const c = await client(srv.socket);
        const agentCount = await fill(c, n, agents);
        for (let i = 0; i < hosts.length; i++) {
          const j = await c.call('host/connect', { name: `h${i}` });
          if (j.state !== 'connected') throw new Error(`scale host h${i} did not join: ${j.error}`);
        }
        const first = (await c.call('session/get', { session: 's0' })).focused!;
        const tickAgents = await promptAll(c, d, Math.max(agentCount, Math.floor(n / AGENT_EVERY)), agentCount);
        await sleep(SETTLE_MS);
        const rss = rssOf(srv.proc.pid!);
        const env = { ...process.env, PANE_SOCKET: srv.socket };
        const listed = JSON.parse(spawnSync(process.execPath, [paneBin, 'ls', '--json'], { env, encoding: 'utf8', maxBuffer: 64 << 20 }).stdout) as unknown[];
        const ls: number[] = [];
        const change: number[] = [];
        for (let i = 0; i < Math.max(5, runs * 2); i++) {
          ls.push(timeCommand(process.execPath, [paneBin, 'ls', '--json'], env));
          const t0 = performance.now();
          const { pane } = await c.call('pane/split', { pane: first, direction: 'vertical', launch: { program: '/bin/cat', args: [] } });
          await c.call('pane/close', { pane });
          change.push(performance.now() - t0);
        }
        const tick: number[] = [];
        for (let i = 0; i < Math.max(10, runs * 5); i++) {
          const t0 = performance.now();
          await c.call('agent/hook', { agent: `ag${i % tickAgents}`, input: hookInput(d, i % tickAgents, PROMPTS_BEFORE + i) });
          tick.push(performance.now() - t0);
        }
        const shot = withChromium() ? await firstScreen(c, d, Math.max(3, runs)) : null;
        c.close();
        out.push({
          panes: n,
          agents: agentCount,
          remote: listed.length - n,
          ls: summarize(ls),
          change: summarize(change),
          tick: summarize(tick),
          tickAgents,
          screen: shot ? summarize(shot.ms) : null,
          screenPanes: shot?.panes ?? 0,
          rss,
          tmuxRss: withTmux ? tmuxRss(n) : null,
        });
      } finally {
        await srv.stop();
      }
    }
  } finally {
    for (const h of hosts) await h.stop();
  }
  return out;
}

/** A UserPromptSubmit from agent agK, as `pane hook` sends it: its group's area, its own words, one that moves with the step. */
const hookInput = (dir: string, k: number, step: number) => {
  const g = Math.floor(k / GROUP);
  return { session_id: `s-ag${k}`, cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: `please look at g${g}core g${g}api g${g}store own${k}a own${k}b${step % 3} again` };
};

/**
 * Every agent makes PROMPTS_BEFORE prompts, so the timed tick's pass compares real
 * trajectories. Where no sandbox runs here (no agents launched), the same number are
 * added without a pane: the pass is over agents either way. Returns how many.
 */
async function promptAll(c: Connection, dir: string, count: number, launched: number): Promise<number> {
  for (let k = launched; k < count; k++) await c.call('agent/add', { name: `ag${k}` });
  for (let step = 0; step < PROMPTS_BEFORE; step++) for (let k = 0; k < count; k++) await c.call('agent/hook', { agent: `ag${k}`, input: hookInput(dir, k, step) });
  return count;
}

const withChromium = () => fs.existsSync(process.env.PANE_CHROMIUM ?? '/usr/bin/chromium');

/**
 * A window opened on the daemon as a person opens one (`pane url`: a one-time URL, a
 * fresh Chromium profile each time): ms from navigation to the first screen, when every
 * pane frame of the session it shows has its terminal attached and its screen drawn,
 * and one frame more. Chromium's own start is not counted (the start row has it).
 */
async function firstScreen(c: Connection, dir: string, runs: number): Promise<{ ms: number[]; panes: number }> {
  const ms: number[] = [];
  let panes = 0;
  for (let i = 0; i < runs; i++) {
    const { url } = await c.call('server/launch-url', {});
    const { browser, page } = await openBrowser(fs.mkdtempSync(path.join(dir, 'screen-profile-')));
    try {
      const t0 = performance.now();
      await page.goto(url);
      panes = await page.waitForFunction(
        () => {
          const p = (window as any).pane;
          const st = p?.store.getState();
          const s = st?.conn.state === 'open' ? st.sessions[st.sessionId] : undefined;
          if (!s || s.focused == null) return null;
          const frames = [...document.querySelectorAll('section.pane[data-pane]')].map((e) => Number((e as HTMLElement).dataset.pane));
          if (!frames.includes(s.focused)) return null;
          const drawn = frames.every((n) => p.term(n)?.element != null && p.screen(n) !== null);
          return drawn ? new Promise<number>((res) => requestAnimationFrame(() => res(frames.length))) : null;
        },
        undefined,
        { timeout: SCREEN_TIMEOUT_MS, polling: 'raf' },
      );
      ms.push(performance.now() - t0);
    } finally {
      await browser.close().catch(() => undefined);
    }
  }
  return { ms, panes };
}

/** RSS of a tmux server holding `n` windows of `cat`. */
function tmuxRss(n: number): number {
  const sock = `panebenchscale${process.pid}-${n}`;
  try {
    tmux(sock, 'new-session', '-d', '-x', '100', '-y', '40', 'cat');
    for (let i = 1; i < n; i++) tmux(sock, 'new-window', '-d', 'cat');
    spawnSync('sleep', [String(SETTLE_MS / 1000)]);
    return rssOf(Number(tmux(sock, 'display-message', '-p', '#{pid}').trim()));
  } finally {
    spawnSync('tmux', ['-L', sock, 'kill-server']);
  }
}
