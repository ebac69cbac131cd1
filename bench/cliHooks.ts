// Issue 25's hook benchmarks: each CLI dialect's hook round trip from inside a
// bubblewrap-sandboxed agent pane, in every form pane installs — a command hook run
// through `sh -c` as the CLIs run them, as `pane hook --app APP` (a Node process) and
// as bin/pane-hook (bash and /dev/tcp, no Node), and an HTTP POST made in-process to
// $PANE_HOOK_URL (the relay to the agent's hook.sock) — beside anchors measured in the
// same pane and run: `node -e 0`, and the same bash /dev/tcp POST and in-process POST
// to a trivial listener. Then state change → status: a hook event posted to the
// agent's state event reaching a subscribed client (the event the status line draws).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { hookRunner, paneHookCommand } from '../kits/node/hookFiles';
import { client, paneBin, root, sleep, startServerProc } from './procs';
import { summarize, type Summary } from './stats';

const recordedDir = path.join(root, 'test', 'agents', 'recorded');
const first = (file: string, event: string) => (JSON.parse(fs.readFileSync(path.join(recordedDir, file), 'utf8')) as { events: Record<string, unknown>[] }).events.find((e) => e.hook_event_name === event)!;
const claudePrompt = () => fs.readFileSync(path.join(recordedDir, 'claude-session.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.hook_event_name === 'UserPromptSubmit')!;

/** Each dialect's prompt event, as its CLI sends it (recorded from the real CLIs). */
const DIALECTS: { app: string; event: () => Record<string, unknown> }[] = [
  { app: 'claude', event: claudePrompt },
  { app: 'gemini', event: () => first('gemini-0.61.0.json', 'BeforeAgent') },
  { app: 'codex', event: () => first('codex-0.169.0.json', 'UserPromptSubmit') },
];

export interface CliHookRow {
  app: string;
  /** `sh -c "pane hook --app APP"`: a Node process per event. */
  node: Summary;
  /** `sh -c "bash bin/pane-hook … --app APP"`. */
  fast: Summary;
  /** An in-process POST to $PANE_HOOK_URL?app=APP (Claude Code's HTTP hook; the others' door cost). */
  http: Summary;
}

export interface CliHookBench {
  rows: CliHookRow[];
  /** `sh -c "node -e 0"` in the same pane: the floor of any Node hook. */
  nodeStart: Summary;
  /** `sh -c "bash anchor.sh"`: the same /dev/tcp POST to a trivial listener in the pane. */
  bashPost: Summary;
  /** An in-process POST to that trivial listener. */
  httpAnchor: Summary;
  /** Hook POST → agent/state-changed at a subscribed client, ms. */
  stateToStatus: Summary;
  note?: string;
}

/** The anchor: bin/pane-hook's socket work, to a listener that answers at once. */
const ANCHOR_SH = `exec 3<>/dev/tcp/127.0.0.1/$1 || exit 0
body=$(cat)
printf 'POST /hook HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nConnection: close\\r\\nContent-Length: %d\\r\\n\\r\\n%s' "\${#body}" "$body" >&3
IFS= read -r -d '' -t 2 answer <&3
exit 0
`;

/** In the pane: a trivial listener (the anchor), then the in-process POSTs, written to $TMPDIR/http.json. */
const HTTP_JS = `const http=require('http'),fs=require('fs'),path=require('path');
const [n,apps]=[Number(process.argv[2]),process.argv[3].split(',')];const u=new URL(process.env.PANE_HOOK_URL);
const evs=Object.fromEntries(apps.map((a)=>[a,fs.readFileSync(path.join(process.env.TMPDIR,'ev-'+a+'.json'),'utf8')]));
const once=(port,p,body)=>new Promise((ok,no)=>{const t0=performance.now();const r=http.request({host:'127.0.0.1',port,path:p,method:'POST',agent:false,headers:{'content-type':'application/json','x-pane-id':process.env.PANE_ID||'','x-pane-agent':process.env.PANE_AGENT||''}},(res)=>{res.resume();res.on('end',()=>res.statusCode===200?ok(performance.now()-t0):no(new Error('status '+res.statusCode)))});r.on('error',no);r.end(body)});
const srv=http.createServer((q,s)=>{q.resume();q.on('end',()=>s.end())});
srv.listen(0,'127.0.0.1',async()=>{const ap=srv.address().port;fs.writeFileSync(path.join(process.env.TMPDIR,'anchor-port'),String(ap));
if(n===0)return;const out={anchor:[]};for(const a of apps)out[a]=[];
for(let i=0;i<n+3;i++){for(const a of apps){const t=await once(Number(u.port),'/hook'+(a==='claude'?'':'?app='+a),evs[a]);if(i>=3)out[a].push(t);}const t=await once(ap,'/hook','{}');if(i>=3)out.anchor.push(t);}
fs.writeFileSync(path.join(process.env.TMPDIR,'http.json'),JSON.stringify(out));srv.close();});`;

/** In the pane: every command form, round-robin (so load drifts alike), timed with bash's clock; $TMPDIR/cmd.json. */
function commandsSh(n: number, forms: { label: string; cmd: string; ev: string }[]): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return `set -u
cd "$TMPDIR"
labels=(${forms.map((f) => q(f.label)).join(' ')})
cmds=(${forms.map((f) => q(f.cmd)).join(' ')})
evs=(${forms.map((f) => q(f.ev)).join(' ')})
declare -A xs
for ((i = 0; i < ${n} + 3; i++)); do
  for ((k = 0; k < \${#cmds[@]}; k++)); do
    t0=$EPOCHREALTIME
    sh -c "\${cmds[k]}" < "\${evs[k]}" > /dev/null 2>&1
    t1=$EPOCHREALTIME
    ((i >= 3)) && xs[\${labels[k]}]+="$(( \${t1/./} - \${t0/./} )),"
  done
done
{ printf '{'; sep=; for l in "\${labels[@]}"; do v=\${xs[$l]}; printf '%s"%s":[%s]' "$sep" "$l" "\${v%,}"; sep=,; done; printf '}'; } > cmd.part && mv cmd.part cmd.json
`;
}

/** Hook POST (outside, the TCP door, as agent `probe`) → agent/state-changed at a subscribed client. */
async function stateToStatus(socket: string, port: number, token: string, n: number): Promise<Summary> {
  const c = await client(socket, 'status-bench');
  await c.call('events/subscribe', { families: ['agent'] });
  const post = (body: string) =>
    new Promise<void>((ok, no) => {
      const r = http.request({ host: '127.0.0.1', port, path: '/hook', method: 'POST', agent: false, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? ok() : no(new Error(`hook answered ${res.statusCode}`))));
      });
      r.on('error', no);
      r.end(body);
    });
  const xs: number[] = [];
  try {
    for (let i = 0; i < n + 4; i++) {
      const working = i % 2 === 0;
      const body = JSON.stringify(working ? { hook_event_name: 'UserPromptSubmit', session_id: 'status-bench', cwd: '/tmp', prompt: `step ${i}` } : { hook_event_name: 'Stop', session_id: 'status-bench', cwd: '/tmp' });
      let off = () => undefined as void;
      // A Stop leads wherever the status machine says (done or idle): any state but working counts.
      const seen = new Promise<number>((ok, no) => {
        const timer = setTimeout(() => no(new Error('no agent/state-changed within 5 s')), 5000);
        off = c.onEvent((name, _rev, data) => {
          const d = data as { name?: string; state?: string };
          if (name === 'agent/state-changed' && d.name === 'probe' && (d.state === 'working') === working) {
            clearTimeout(timer);
            ok(performance.now());
          }
        });
      });
      const t0 = performance.now();
      try {
        await post(body);
        const t1 = await seen;
        if (i >= 4) xs.push(t1 - t0);
      } finally {
        off();
      }
    }
  } finally {
    c.close();
  }
  return summarize(xs);
}

async function hookPort(socket: string, dir: string): Promise<number> {
  const file = path.join(dir, 'hook-url');
  fs.rmSync(file, { force: true });
  const r = spawnSync(process.execPath, [paneBin, '--socket', socket, 'new', '--', 'sh', '-c', `printf %s "$PANE_HOOK_URL" > ${file}; exec sleep 3600`], { encoding: 'utf8', env: { ...process.env, HOME: dir } });
  if (r.status !== 0) throw new Error(`could not start a pane to learn the hook URL: ${r.stderr}`);
  for (let i = 0; i < 200; i++) {
    const m = fs.existsSync(file) ? /:([0-9]+)\/hook$/.exec(fs.readFileSync(file, 'utf8')) : null;
    if (m) return Number(m[1]);
    await sleep(50);
  }
  throw new Error('no pane told the hook URL within 10 s');
}

const wait = async (file: string, what: string, ms: number) => {
  for (let i = 0; i < ms / 50 && !fs.existsSync(file); i++) await sleep(50);
  if (!fs.existsSync(file)) throw new Error(`the sandboxed agent pane wrote no ${what} within ${ms / 1000} s`);
};

export async function cliHooks(dir: string, runs: number): Promise<CliHookBench> {
  fs.mkdirSync(dir, { recursive: true });
  const srv = await startServerProc(dir);
  const n = Math.max(20, runs * 10);
  const paneCli = (args: string[]) => spawnSync(process.execPath, [paneBin, '--socket', srv.socket, ...args], { encoding: 'utf8', env: { ...process.env, HOME: dir } });
  const ms = (xs: number[]) => summarize(xs.map((x) => x / 1000));
  try {
    const c = await client(srv.socket);
    for (const a of ['box', 'probe']) await c.call('agent/add', { name: a });
    c.close();
    const token = (a: string) => fs.readFileSync(path.join(dir, '.local', 'share', 'pane', 'agents', a, '.token'), 'utf8').trim();
    const port = await hookPort(srv.socket, dir);
    const status = await stateToStatus(srv.socket, port, token('probe'), Math.max(100, runs * 40));
    const { sandboxUnavailable } = await import('../server/agents/sandbox');
    const why = sandboxUnavailable(process.env.PATH);
    const none = summarize([]);
    if (why) return { rows: [], nodeStart: none, bashPost: none, httpAnchor: none, stateToStatus: status, note: why };
    // Its TMPDIR inside the sandbox: the files the pane reads and the timings it writes.
    const tmp = path.join(dir, '.local', 'share', 'pane', 'agents', 'box', 'tmp');
    fs.mkdirSync(tmp, { recursive: true });
    for (const d of DIALECTS) fs.writeFileSync(path.join(tmp, `ev-${d.app}.json`), JSON.stringify({ ...d.event(), session_id: `bench-${d.app}` }));
    fs.writeFileSync(path.join(tmp, 'anchor.sh'), ANCHOR_SH);
    fs.writeFileSync(path.join(tmp, 'http.js'), HTTP_JS);
    const entry = paneBin;
    const node = `"${process.execPath}" "${entry}"`;
    const fast = hookRunner(entry);
    if (!fast.includes('pane-hook')) throw new Error(`no bash for bin/pane-hook: ${fast}`);
    // The commands pane installs: Claude's --settings file runs `… hook` (its payload is pane's own); the others `… hook --app APP`.
    const command = (runner: string, app: string) => (app === 'claude' ? `${runner} hook` : paneHookCommand(runner, app));
    const forms = [
      { label: 'node-start', cmd: `"${process.execPath}" -e 0`, ev: 'ev-claude.json' },
      { label: 'bash-post', cmd: 'bash anchor.sh "$(cat anchor-port)"', ev: 'ev-claude.json' },
      ...DIALECTS.flatMap((d) => [
        { label: `node-${d.app}`, cmd: command(node, d.app), ev: `ev-${d.app}.json` },
        { label: `fast-${d.app}`, cmd: command(fast, d.app), ev: `ev-${d.app}.json` },
      ]),
    ];
    fs.writeFileSync(path.join(tmp, 'commands.sh'), commandsSh(n, forms));
    // One pane: the trivial listener stays up (n=0) while the commands run, then the in-process POSTs.
    const script = `cd "$TMPDIR" && { "${process.execPath}" http.js 0 x & L=$!; for i in $(seq 100); do [ -s anchor-port ] && break; sleep 0.05; done; bash commands.sh; kill $L; "${process.execPath}" http.js ${n} ${DIALECTS.map((d) => d.app).join(',')}; }`;
    const r = paneCli(['agent', 'run', 'box', '--', 'sh', '-c', script]);
    if (r.status !== 0) throw new Error(`could not start the sandboxed agent pane: ${r.stderr}`);
    await wait(path.join(tmp, 'cmd.json'), 'command timings', 600_000);
    await wait(path.join(tmp, 'http.json'), 'HTTP timings', 120_000);
    const cmd = JSON.parse(fs.readFileSync(path.join(tmp, 'cmd.json'), 'utf8')) as Record<string, number[]>;
    const got = JSON.parse(fs.readFileSync(path.join(tmp, 'http.json'), 'utf8')) as Record<string, number[]>;
    return {
      rows: DIALECTS.map((d) => ({ app: d.app, node: ms(cmd[`node-${d.app}`] ?? []), fast: ms(cmd[`fast-${d.app}`] ?? []), http: summarize(got[d.app] ?? []) })),
      nodeStart: ms(cmd['node-start'] ?? []),
      bashPost: ms(cmd['bash-post'] ?? []),
      httpAnchor: summarize(got.anchor ?? []),
      stateToStatus: status,
    };
  } finally {
    await srv.stop();
  }
}
