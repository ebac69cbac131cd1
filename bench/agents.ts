// Agent costs: `pane hook` from process start to answer (what Claude Code waits
// for on every event), next to `node -e 0` so Node's own start-up is visible; and
// finger with 50 agents, as a one-shot CLI and as one agent/list round trip.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Connection } from '../kits/client/connection';
import { rootPlaces, sandboxUnavailable } from '../server/agents/sandbox';
import { client, paneBin, root, startServerProc, sleep } from './procs';
import { summarize, type Summary } from './stats';

export interface AgentsResult {
  hook: Summary;
  hookNoServer: Summary;
  nodeStdin: Summary;
  finger50: Summary;
  list50: Summary;
  /** Launch request to the shell's first prompt: as an agent in its sandbox, and the same shell as a plain pane. */
  launchSandboxed: Summary;
  /** The first sandboxed launch of a daemon whose helper was not started yet (ms). */
  launchSandboxedCold: number;
  launchPlain: Summary;
  /** Why the sandboxed launch could not be measured (no bubblewrap here), else null. */
  sandboxNote: string | null;
}

const EVENT = JSON.stringify({ session_id: 'bench', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: '/tmp/x' } });

/** Milliseconds from spawn to exit of a command fed `input` on stdin. */
function timeWithInput(cmd: string, args: string[], input: string, env: NodeJS.ProcessEnv): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { input, env, stdio: ['pipe', 'ignore', 'pipe'] });
  const t = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${String(r.stderr)}`);
  return t;
}

export async function agents(dir: string, runs: number): Promise<AgentsResult> {
  const srv = await startServerProc(dir);
  try {
    const c = await client(srv.socket);
    // PANE_AGENT without a token: the hook names its agent, as a Claude Code started outside pane would.
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, PANE_SOCKET: srv.socket, PANE_AGENT: 'a00' };
    delete env.PANE_TOKEN;
    for (let i = 0; i < 50; i++) await c.call('agent/add', { name: `a${String(i).padStart(2, '0')}`, plan: `Working on part ${i}.\n` });
    // Give each a hook session so finger has state, prompts and sessions to show.
    for (let i = 0; i < 50; i++) {
      await c.call('agent/hook', { agent: `a${String(i).padStart(2, '0')}`, input: { session_id: `s${i}`, cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: `task ${i}` } });
    }
    const n = Math.max(10, runs * 5);
    const hook: number[] = [];
    const none: number[] = [];
    const nodeStdin: number[] = [];
    const finger: number[] = [];
    const list: number[] = [];
    const noServer = { ...env, PANE_SOCKET: `${dir}/nobody.sock` };
    // finger as the person: an agent's environment without its token is refused (it would act as the human).
    const person = { ...env };
    delete person.PANE_AGENT;
    for (let i = 0; i < 3; i++) timeWithInput(process.execPath, [paneBin, 'hook'], EVENT, env); // warm the page cache
    for (let i = 0; i < n; i++) {
      hook.push(timeWithInput(process.execPath, [paneBin, 'hook'], EVENT, env));
      none.push(timeWithInput(process.execPath, [paneBin, 'hook'], EVENT, noServer));
      // Node start-up that also drains stdin: the floor any hook written for Node pays.
      nodeStdin.push(timeWithInput(process.execPath, ['-e', 'process.stdin.resume()'], EVENT, env));
      finger.push(timeWithInput(process.execPath, [paneBin, 'finger'], '', person));
      const t0 = performance.now();
      await c.call('agent/list', {});
      list.push(performance.now() - t0);
    }
    // Ten at least: a launch swings ±10% here from one to the next, and three made a median of one run's luck.
    const launches = await launchToPrompt(c, Math.max(LAUNCHES, runs * 3));
    c.close();
    return { hook: summarize(hook), hookNoServer: summarize(none), nodeStdin: summarize(nodeStdin), finger50: summarize(finger), list50: summarize(list), ...launches };
  } finally {
    await srv.stop();
  }
}

/** Sandboxed and plain launches timed at least (each ~0.2 s and ~0.03 s): the launch row's median. */
const LAUNCHES = 10;

/** A prompt no shell prints by accident: the launch counts as done when it shows. */
const PROMPT = 'PANE-BENCH-READY> ';
const SHELL = { program: '/usr/bin/env', args: [`PS1=${PROMPT}`, '/bin/bash', '--norc', '--noprofile', '-i'] };

/** Milliseconds from the launch request until the pane shows the shell's prompt (polled every 2 ms). */
async function untilPrompt(c: Connection, launch: () => Promise<{ pane: number }>): Promise<number> {
  const t0 = performance.now();
  const { pane } = await launch();
  const deadline = t0 + 30_000;
  for (;;) {
    const r = await c.call('pty/read', { pane, from: 0, maxBytes: 65536 });
    if (r.data.includes(PROMPT)) {
      const t = performance.now() - t0;
      await c.call('pane/close', { pane });
      return t;
    }
    if (performance.now() > deadline) throw new Error(`pane ${pane} never showed its prompt`);
    await sleep(2);
  }
}

/** Sandboxed agent launch (bubblewrap through sandbox-runtime) vs the same shell as a plain pane. */
async function launchToPrompt(c: Connection, n: number): Promise<Pick<AgentsResult, 'launchSandboxed' | 'launchSandboxedCold' | 'launchPlain' | 'sandboxNote'>> {
  const note = sandboxUnavailable(process.env.PATH);
  await c.call('agent/add', { name: 'sbx' });
  // A session for the launches to split (its first pane stays as the anchor).
  await c.call('session/new', { name: 'launch-bench', launch: { program: '/bin/cat', args: [] } });
  const sandboxed: number[] = [];
  const plain: number[] = [];
  // The first agent launch of this daemon starts its sandbox helper (agents were added after it started): measured apart.
  const cold = note === null ? await untilPrompt(c, () => c.call('agent/launch', { name: 'sbx', program: [SHELL.program, ...SHELL.args] })) : 0;
  for (let i = 0; i < n; i++) {
    plain.push(await untilPrompt(c, () => c.call('pane/split', { direction: 'vertical', launch: SHELL })));
    if (note === null) sandboxed.push(await untilPrompt(c, () => c.call('agent/launch', { name: 'sbx', program: [SHELL.program, ...SHELL.args] })));
  }
  return { launchSandboxed: summarize(sandboxed.length ? sandboxed : [0]), launchSandboxedCold: cold, launchPlain: summarize(plain), sandboxNote: note };
}

/** Where a sandboxed launch's time goes, phase by phase, through a sandbox helper as the daemon runs one (decision 049). */
export interface SandboxPhases {
  /** Starting the helper until it listens: Node, the runtime's load and its proxies (once per daemon, ms). */
  start: Summary;
  /** One wrap: a launcher's request over the helper's socket until its script is back (ms). */
  wrap: Summary;
  /** Running the script for `true`: bubblewrap, the seccomp helper and the in-sandbox bridges (ms). */
  run: Summary;
  /** The floor: `bwrap --ro-bind / / true` (ms). */
  bwrap: Summary;
}

/** A wrap request for `true` in `dir`, with no network and `dir` writable: a default agent's walls (no unix socket made inside, the root of the system's places), which the helper started without --unix-sockets takes. Its root holds this checkout too, as an agent's holds pane's package: the runtime's seccomp helper is in it. */
function trueRequest(dir: string): string {
  return JSON.stringify({ argv: ['true'], settings: { pane: { sealed: [], root: [...rootPlaces(), root] }, network: { allowedDomains: [], deniedDomains: [], allowAllUnixSockets: false }, filesystem: { denyRead: [], allowRead: [], allowWrite: [dir], denyWrite: [] } }, cwd: dir });
}

/** The phases of a sandboxed `true`, `runs` times: helpers started fresh (`starts` of them), wraps and runs through one. */
export async function sandboxPhases(runs: number, dir: string): Promise<SandboxPhases | string> {
  const why = sandboxUnavailable(process.env.PATH);
  if (why !== null) return why;
  const out: Record<'start' | 'wrap' | 'run' | 'bwrap', number[]> = { start: [], wrap: [], run: [], bwrap: [] };
  const { spawn } = await import('node:child_process');
  const fs = await import('node:fs');
  const work = path.join(dir, 'sandbox-phases');
  fs.mkdirSync(work, { recursive: true });
  const starts = Math.min(runs, 5);
  for (let k = 0; k < starts; k++) {
    const socket = path.join(work, `helper-${k}.sock`);
    const t0 = performance.now();
    const helper = spawn(process.execPath, [paneBin, 'sandboxd', '--listen', socket], { stdio: ['pipe', 'ignore', 'inherit'] });
    try {
      while (!fs.existsSync(socket)) {
        if (performance.now() - t0 > 30_000) throw new Error('sandbox phases: the helper did not listen within 30 s');
        await sleep(1);
      }
      out.start.push(performance.now() - t0);
      if (k > 0) continue;
      for (let i = 0; i < runs; i++) {
        const w0 = performance.now();
        const r = spawnSync('socat', ['-t', '30', '-', `UNIX-CONNECT:${socket}`], { input: `wrap ${process.pid} ${trueRequest(work)}\n`, encoding: 'utf8' });
        out.wrap.push(performance.now() - w0);
        if (!r.stdout.startsWith('#pane-sandbox ')) throw new Error(`sandbox phases: the helper answered ${JSON.stringify(r.stdout.slice(0, 200))}`);
        const r0 = performance.now();
        const m = spawnSync('/bin/sh', ['-c', 's=$1; eval "$2"', 'sh', socket, r.stdout], { stdio: 'ignore', cwd: work });
        out.run.push(performance.now() - r0);
        if (m.status !== 0) throw new Error(`sandbox phases: the wrapped true exited ${m.status}`);
        const b0 = performance.now();
        spawnSync('bwrap', ['--ro-bind', '/', '/', '/bin/true']);
        out.bwrap.push(performance.now() - b0);
      }
    } finally {
      helper.stdin?.end();
      helper.kill('SIGTERM');
    }
  }
  return { start: summarize(out.start), wrap: summarize(out.wrap), run: summarize(out.run), bwrap: summarize(out.bwrap) };
}
