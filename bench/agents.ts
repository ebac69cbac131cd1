// Agent costs: `pane hook` from process start to answer (what Claude Code waits
// for on every event), next to `node -e 0` so Node's own start-up is visible; and
// finger with 50 agents, as a one-shot CLI and as one agent/list round trip.
import { spawnSync } from 'node:child_process';
import { client, paneBin, startServerProc } from './procs';
import { summarize, type Summary } from './stats';

export interface AgentsResult {
  hook: Summary;
  hookNoServer: Summary;
  nodeStdin: Summary;
  finger50: Summary;
  list50: Summary;
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
    for (let i = 0; i < 3; i++) timeWithInput(process.execPath, [paneBin, 'hook'], EVENT, env); // warm the page cache
    for (let i = 0; i < n; i++) {
      hook.push(timeWithInput(process.execPath, [paneBin, 'hook'], EVENT, env));
      none.push(timeWithInput(process.execPath, [paneBin, 'hook'], EVENT, noServer));
      // Node start-up that also drains stdin: the floor any hook written for Node pays.
      nodeStdin.push(timeWithInput(process.execPath, ['-e', 'process.stdin.resume()'], EVENT, env));
      finger.push(timeWithInput(process.execPath, [paneBin, 'finger'], '', env));
      const t0 = performance.now();
      await c.call('agent/list', {});
      list.push(performance.now() - t0);
    }
    c.close();
    return { hook: summarize(hook), hookNoServer: summarize(none), nodeStdin: summarize(nodeStdin), finger50: summarize(finger), list50: summarize(list) };
  } finally {
    await srv.stop();
  }
}
