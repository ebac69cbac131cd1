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

export interface SandboxedHookRow {
  /** Round trips from inside a bubblewrap-sandboxed agent pane: relay → the agent's hook.sock. */
  sandboxed: Summary;
  /** The same request from outside, to the TCP hook door, in the same run. */
  outside: Summary;
  /** Why the sandboxed figure was not measured (no bubblewrap), if so. */
  note?: string;
}

/**
 * HTTP hook round trip from inside a sandboxed agent pane: a Node script in the pane
 * posts Claude Code's request (fresh connection each time) to $PANE_HOOK_URL, which
 * inside the sandbox is the relay to the agent's own hook socket; it writes its
 * timings to its temp dir, which the bench reads from outside.
 */
export async function sandboxedHooks(dir: string, runs: number): Promise<SandboxedHookRow> {
  fs.mkdirSync(dir, { recursive: true });
  const srv = await startServerProc(dir);
  const n = Math.max(20, runs * 10);
  const paneCli = (args: string[]) => spawnSync(process.execPath, [paneBin, '--socket', srv.socket, ...args], { encoding: 'utf8', env: { ...process.env, HOME: dir } });
  try {
    const c = await client(srv.socket);
    await c.call('agent/add', { name: 'box' });
    c.close();
    const token = fs.readFileSync(path.join(dir, '.local', 'share', 'pane', 'agents', 'box', '.token'), 'utf8').trim();
    const port = await hookPortOf(srv.socket, dir);
    const outside: number[] = [];
    for (let i = 0; i < 3; i++) await postOnce(port, token, event(i));
    for (let i = 0; i < n; i++) outside.push(await postOnce(port, token, event(i)));
    const { sandboxUnavailable } = await import('../server/agents/sandbox');
    const why = sandboxUnavailable(process.env.PATH);
    if (why) return { sandboxed: summarize([]), outside: summarize(outside), note: why };
    const out = path.join(dir, '.local', 'share', 'pane', 'agents', 'box', 'tmp', 'bench.json');
    fs.rmSync(out, { force: true });
    // The request as Claude Code makes it (POST, JSON, the pane hook's headers), a fresh connection each time.
    // No backslash in the script: the sandbox's shell quoting does not keep them.
    const script = `const http=require('http'),fs=require('fs'),path=require('path');const u=new URL(process.env.PANE_HOOK_URL);const ev=JSON.stringify(${event(1)});
const once=()=>new Promise((ok,no)=>{const t0=performance.now();const r=http.request({host:u.hostname,port:u.port,path:u.pathname,method:'POST',agent:false,headers:{'content-type':'application/json',authorization:'Bearer '+process.env.PANE_TOKEN,'x-pane-hook':process.env.PANE_HOOK_TOKEN||'','x-pane-id':process.env.PANE_ID||'','x-pane-agent':process.env.PANE_AGENT||''}},(res)=>{res.resume();res.on('end',()=>res.statusCode===200?ok(performance.now()-t0):no(new Error('status '+res.statusCode)))});r.on('error',no);r.end(ev)});
(async()=>{const xs=[];for(let i=0;i<3;i++)await once();for(let i=0;i<${n};i++)xs.push(await once());fs.writeFileSync(path.join(process.env.TMPDIR,'bench.json'),JSON.stringify(xs));})().catch((e)=>{fs.writeFileSync(path.join(process.env.TMPDIR,'bench.json'),JSON.stringify({error:e.message}))});`;
    const r = paneCli(['agent', 'run', 'box', '--', process.execPath, '-e', script]);
    if (r.status !== 0) throw new Error(`could not start the sandboxed agent pane: ${r.stderr}`);
    for (let i = 0; i < 600 && !fs.existsSync(out); i++) await sleep(50);
    if (!fs.existsSync(out)) throw new Error('the sandboxed agent pane wrote no timings within 30 s');
    const got = JSON.parse(fs.readFileSync(out, 'utf8')) as number[] | { error: string };
    if (!Array.isArray(got)) throw new Error(`the sandboxed hook failed: ${got.error}`);
    return { sandboxed: summarize(got), outside: summarize(outside) };
  } finally {
    await srv.stop();
  }
}
