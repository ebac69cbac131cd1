// Awareness: one convergence pass over 100 agents with full 10-snapshot windows
// (every pair, all four signals, prediction bookkeeping), against the same pass
// over 25 agents to show the n² cost; a crowded desktop (five groups of 20 on the
// same work, thousands of live predictions); one prompt end to end; and `pane
// hook` round trips while other agents fire 10 hooks a second at the same server.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { ManualClock } from '../server/awareness/clock';
import { Awareness } from '../server/awareness/engine';
import { client, paneBin, sleep, startServerProc } from './procs';
import { summarize, type Summary } from './stats';

export interface AwarenessResult {
  pass100: Summary;
  pass25: Summary;
  crowded100: Summary;
  crowdedPredictions: number;
  typicalPredictions: number;
  prompt100: Summary;
}

/** Work areas; agents in one area share words, so the pass finds (and updates) real predictions. */
const AREAS = ['auth jwt login session token', 'cache redis eviction ttl shard', 'css layout theme button modal', 'sql migration schema index query', 'build vite bundle deploy docker'];

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/**
 * n agents with full windows. Typical: groups of four share an area (the other
 * agents' areas are their own); crowded: all agents fall into the five areas.
 */
function populated(n: number, crowded: boolean): { aw: Awareness; prompt: (i: number) => string } {
  const rand = seeded(n);
  const aw = new Awareness({ clock: new ManualClock() });
  const areaOf = (i: number) => {
    if (crowded) return (AREAS[i % AREAS.length] as string).split(' ');
    const g = Math.floor(i / 4);
    return [`g${g}core`, `g${g}api`, `g${g}store`, `g${g}view`, `g${g}sync`];
  };
  const prompt = (i: number) => {
    const words = [...areaOf(i).filter(() => rand() < 0.6), `own${i}a`, `own${i}b`, `word${Math.floor(rand() * 40)}`];
    return `please look at ${words.join(' ')} again`;
  };
  for (let k = 0; k < 10; k++) for (let i = 0; i < n; i++) aw.prompt(`agent${i}`, prompt(i));
  return { aw, prompt };
}

function time(fn: () => void, runs: number): Summary {
  for (let i = 0; i < 5; i++) fn(); // warm the JIT
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  return summarize(xs);
}

export function awareness(runs = 200): AwarenessResult {
  const big = populated(100, false);
  const small = populated(25, false);
  const crowd = populated(100, true);
  let i = 0;
  return {
    pass100: time(() => big.aw.pass(), runs),
    pass25: time(() => small.aw.pass(), runs),
    crowded100: time(() => crowd.aw.pass(), Math.ceil(runs / 4)),
    crowdedPredictions: crowd.aw.predictions().length,
    typicalPredictions: big.aw.predictions().length,
    prompt100: time(() => big.aw.prompt(`agent${i % 100}`, big.prompt(i++ % 100)), runs),
  };
}

/** Milliseconds from spawning `pane hook` to its exit, without blocking the event loop (the load keeps firing meanwhile). */
function hookOnce(env: NodeJS.ProcessEnv, input: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, [paneBin, 'hook'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
    p.once('error', reject);
    p.once('exit', () => resolve(performance.now() - t0));
    p.stdin.end(input);
  });
}

export interface HookLoadResult {
  idle: Summary;
  loaded: Summary;
  /** Hooks the background actually completed per second. */
  rate: number;
  /** Server CPU per hook under load (ms): the server's share, apart from each hook's Node start-up. */
  serverCpuPerHook: number;
}

/** CPU time (user + system) a process has used, in ms; NaN off Linux. */
function cpuMs(pid: number | undefined): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * (1000 / 100);
  } catch {
    return Number.NaN;
  }
}

/**
 * `pane hook` (a UserPromptSubmit that runs a convergence pass and answers with
 * context) from process start to exit: on a quiet server, then while 20 other
 * agents send 10 hooks a second.
 */
export async function hookUnderLoad(dir: string, runs: number): Promise<HookLoadResult> {
  const srv = await startServerProc(dir);
  const base: NodeJS.ProcessEnv = { ...process.env, HOME: dir, PANE_SOCKET: srv.socket };
  delete base.PANE_TOKEN;
  delete base.PANE_ID;
  const ev = (agent: string, prompt: string) => [{ ...base, PANE_AGENT: agent }, JSON.stringify({ session_id: `s-${agent}`, cwd: dir, hook_event_name: 'UserPromptSubmit', prompt })] as const;
  try {
    const c = await client(srv.socket);
    for (let i = 0; i < 20; i++) for (let k = 0; k < 5; k++) await c.call('agent/hook', { agent: `load${i}`, input: { session_id: `s-load${i}`, cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: AREAS[i % AREAS.length]! } });
    c.close();
    const n = Math.max(10, runs * 5);
    for (let i = 0; i < 3; i++) await hookOnce(...ev('probe', 'warm the page cache')); // warm the page cache
    const idle: number[] = [];
    for (let i = 0; i < n; i++) idle.push(await hookOnce(...ev('probe', `jwt auth login step ${i}`)));
    let done = 0;
    let stop = false;
    const background = (async () => {
      const inflight: Promise<unknown>[] = [];
      for (let i = 0; !stop; i++) {
        inflight.push(hookOnce(...ev(`load${i % 20}`, `${AREAS[i % AREAS.length]} step ${i}`)).then(() => done++));
        await sleep(100);
      }
      await Promise.all(inflight);
    })();
    const t0 = performance.now();
    const cpu0 = cpuMs(srv.proc.pid);
    const loaded: number[] = [];
    for (let i = 0; i < n; i++) loaded.push(await hookOnce(...ev('probe', `jwt auth login again ${i}`)));
    stop = true;
    const secs = (performance.now() - t0) / 1000;
    await background;
    const cpu = cpuMs(srv.proc.pid) - cpu0;
    return { idle: summarize(idle), loaded: summarize(loaded), rate: done / secs, serverCpuPerHook: cpu / (done + n) };
  } finally {
    await srv.stop();
  }
}
