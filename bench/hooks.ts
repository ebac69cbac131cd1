// Hooks with and without a process per call: Claude Code's HTTP hook (a POST to
// the server's /hook, a fresh connection each time as Claude Code makes it) against
// `pane hook` (a Node process per event), quiet and while other agents post 1 and 10 hooks/s.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { client, paneBin, startServerProc } from './procs';
import { summarize, type Summary } from './stats';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface HookRow {
  rate: number;
  http: Summary;
  command: Summary;
}

const event = (i: number) => JSON.stringify({ session_id: `bench-${i % 7}`, cwd: '/tmp', hook_event_name: i % 2 ? 'PreToolUse' : 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: `/tmp/x${i}` } });

/** One HTTP hook, fresh connection (no keep-alive), as Claude Code posts it; ms to the whole answer. */
function postOnce(port: number, token: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request({ host: '127.0.0.1', port, path: '/hook', method: 'POST', agent: false, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.once('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`hook answered ${res.statusCode}`))));
    });
    req.once('error', reject);
    req.end(body);
  });
}

/** One `pane hook` process, spawn to exit. */
function commandOnce(env: NodeJS.ProcessEnv, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, [paneBin, 'hook'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
    p.once('error', reject);
    p.once('exit', () => resolve(performance.now() - t0));
    p.stdin.end(body);
  });
}

/** The server's hook port, as its panes learn it ($PANE_HOOK_URL): the kernel chose it at start. */
async function hookPortOf(socket: string, dir: string): Promise<number> {
  const file = path.join(dir, 'hook-url');
  fs.rmSync(file, { force: true });
  const r = spawnSync(process.execPath, [paneBin, '--socket', socket, 'new', '--', 'sh', '-c', `printf %s "$PANE_HOOK_URL" > ${file}; exec sleep 3600`], { encoding: 'utf8', env: { ...process.env, HOME: dir } });
  if (r.status !== 0) throw new Error(`could not start a pane to learn the hook URL: ${r.stderr}`);
  for (let i = 0; i < 200; i++) {
    const url = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const m = /:([0-9]+)\/hook$/.exec(url);
    if (m) return Number(m[1]);
    await sleep(50);
  }
  throw new Error('no pane told the hook URL within 10 s');
}

export async function hooks(dir: string, runs: number): Promise<HookRow[]> {
  fs.mkdirSync(dir, { recursive: true });
  const srv = await startServerProc(dir);
  try {
    const c = await client(srv.socket);
    for (const n of ['probe', 'load']) await c.call('agent/add', { name: n });
    c.close();
    const token = (n: string) => fs.readFileSync(path.join(dir, '.local', 'share', 'pane', 'agents', n, '.token'), 'utf8').trim();
    const port = await hookPortOf(srv.socket, dir);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, PANE_SOCKET: srv.socket, PANE_AGENT: 'probe', PANE_TOKEN: token('probe') };
    delete env.PANE_ID;
    for (let i = 0; i < 3; i++) await commandOnce(env, event(i)); // warm the page cache
    for (let i = 0; i < 3; i++) await postOnce(port, token('probe'), event(i));
    const n = Math.max(10, runs * 5);
    const rows: HookRow[] = [];
    for (const rate of [0, 1, 10]) {
      let stop = false;
      const background = (async () => {
        const inflight: Promise<unknown>[] = [];
        for (let i = 0; !stop && rate > 0; i++) {
          inflight.push(postOnce(port, token('load'), event(i)).catch(() => undefined));
          await sleep(1000 / rate);
        }
        await Promise.all(inflight);
      })();
      const h: number[] = [];
      const cmd: number[] = [];
      for (let i = 0; i < n; i++) {
        h.push(await postOnce(port, token('probe'), event(i)));
        cmd.push(await commandOnce(env, event(i)));
      }
      stop = true;
      await background;
      rows.push({ rate, http: summarize(h), command: summarize(cmd) });
    }
    return rows;
  } finally {
    await srv.stop();
  }
}
