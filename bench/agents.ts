// Agent costs: `pane hook` from process start to answer (what Claude Code waits
// for on every event), next to `node -e 0` so Node's own start-up is visible; and
// finger with 50 agents, as a one-shot CLI and as one agent/list round trip.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Connection } from '../kits/client/connection';
import { sandboxUnavailable } from '../server/agents/sandbox';
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
    const launches = await launchToPrompt(c, Math.max(3, runs));
    c.close();
    return { hook: summarize(hook), hookNoServer: summarize(none), nodeStdin: summarize(nodeStdin), finger50: summarize(finger), list50: summarize(list), ...launches };
  } finally {
    await srv.stop();
  }
}

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
async function launchToPrompt(c: Connection, n: number): Promise<Pick<AgentsResult, 'launchSandboxed' | 'launchPlain' | 'sandboxNote'>> {
  const note = sandboxUnavailable(process.env.PATH);
  await c.call('agent/add', { name: 'sbx' });
  // A session for the launches to split (its first pane stays as the anchor).
  await c.call('session/new', { name: 'launch-bench', launch: { program: '/bin/cat', args: [] } });
  const sandboxed: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < n; i++) {
    plain.push(await untilPrompt(c, () => c.call('pane/split', { direction: 'vertical', launch: SHELL })));
    if (note === null) sandboxed.push(await untilPrompt(c, () => c.call('agent/launch', { name: 'sbx', program: [SHELL.program, ...SHELL.args] })));
  }
  return { launchSandboxed: summarize(sandboxed.length ? sandboxed : [0]), launchPlain: summarize(plain), sandboxNote: note };
}

/** Where a sandboxed launch's time goes, phase by phase, each in a fresh Node as `pane sandbox` runs. */
export interface SandboxPhases {
  /** Loading @anthropic-ai/sandbox-runtime (ms). */
  load: Summary;
  /** SandboxManager.initialize: its HTTP and SOCKS proxies and their bridges (ms). */
  proxies: Summary;
  /** wrapWithSandbox: building the bubblewrap command line (ms). */
  wrap: Summary;
  /** Running the wrapped `true`: bubblewrap, the seccomp helper and the in-sandbox bridges (ms). */
  run: Summary;
  /** The floor: `bwrap --ro-bind / / true` (ms). */
  bwrap: Summary;
}

/** The phases of `pane sandbox` for `true`, `runs` times in fresh processes; null (with why) where there is no bubblewrap. */
export function sandboxPhases(runs: number): SandboxPhases | string {
  const why = sandboxUnavailable(process.env.PATH);
  if (why !== null) return why;
  const entry = createRequire(path.join(root, 'package.json')).resolve('@anthropic-ai/sandbox-runtime');
  const script = `
    const t0 = performance.now();
    const { SandboxManager } = await import(${JSON.stringify(entry)});
    const t1 = performance.now();
    await SandboxManager.initialize({ network: { allowedDomains: [], deniedDomains: [] }, filesystem: { denyRead: [], allowWrite: ['/tmp'], denyWrite: [] } });
    const t2 = performance.now();
    const w = await SandboxManager.wrapWithSandbox('exec /bin/true');
    const t3 = performance.now();
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(w, { shell: true, stdio: 'ignore' });
    const t4 = performance.now();
    await SandboxManager.reset();
    process.stdout.write(JSON.stringify({ status: r.status, load: t1 - t0, proxies: t2 - t1, wrap: t3 - t2, run: t4 - t3 }));
  `;
  const out: Record<'load' | 'proxies' | 'wrap' | 'run' | 'bwrap', number[]> = { load: [], proxies: [], wrap: [], run: [], bwrap: [] };
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    const m = JSON.parse(r.stdout || '{}') as { status?: number; load: number; proxies: number; wrap: number; run: number };
    if (m.status !== 0) throw new Error(`sandbox phases: the wrapped true failed (${r.stderr.trim().slice(0, 200)})`);
    for (const k of ['load', 'proxies', 'wrap', 'run'] as const) out[k].push(m[k]);
    const t0 = performance.now();
    spawnSync('bwrap', ['--ro-bind', '/', '/', '/bin/true']);
    out.bwrap.push(performance.now() - t0);
  }
  return { load: summarize(out.load), proxies: summarize(out.proxies), wrap: summarize(out.wrap), run: summarize(out.run), bwrap: summarize(out.bwrap) };
}
