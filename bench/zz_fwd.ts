import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { daemonEnv } from '../kits/node/daemonEnv';
import { client, paneBin, startServerProc, sleep } from './procs';
import { byteRelay } from './nodeFloor';

const prof = process.env.ZZ_PROF === '1';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zzfwd-'));
const rdir = path.join(dir, 'remote');
const ldir = path.join(dir, 'local');
fs.mkdirSync(rdir, { recursive: true });
fs.mkdirSync(path.join(ldir, '.config', 'pane', 'hosts'), { recursive: true });
const remote = await startServerProc(rdir);
fs.writeFileSync(path.join(ldir, '.config', 'pane', 'hosts', 'box.json'), JSON.stringify({ how: { via: 'command', argv: [process.execPath, paneBin, 'serve', '--stdio', '--socket', remote.socket] } }));
const lsock = path.join(ldir, 'bench.sock');
const local = spawn(process.execPath, [...(prof ? ['--cpu-prof', '--cpu-prof-dir', '/tmp/zzprof'] : []), paneBin, 'serve', '--socket', lsock, '--empty'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: daemonEnv({ ...process.env, HOME: ldir, XDG_CONFIG_HOME: path.join(ldir, '.config'), PS1: '$ ' }),
});
const r = await client(remote.socket);
await r.call('session/new', { name: 'many', launch: { program: '/bin/cat', args: [] } });
for (let i = 0; i < 99; i++) await r.call('float/create', { session: 'many', kind: 'text', name: `t${i}` });
const n = (await r.call('pane/list', {})).panes[0]!.n;
while (!fs.existsSync(lsock)) await sleep(20);
await sleep(300);
const l = await client(lsock);
const joined = await l.call('host/connect', { name: 'box' });
console.log('joined', joined.state);
const relay = await byteRelay(path.join(dir, 'relay.sock'), remote.socket);
const b = await client(path.join(dir, 'relay.sock'));
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!;
const N = Number(process.env.ZZ_N ?? 3000);
for (let i = 0; i < 3000; i++) { await l.call('pane/get', { pane: `box:${n}` }); await r.call('pane/get', { pane: n }); await b.call('pane/get', { pane: n }); }
const fw: number[] = [], di: number[] = [], re: number[] = [];
for (let i = 0; i < N; i++) {
  let t = process.hrtime.bigint(); await l.call('pane/get', { pane: `box:${n}` }); fw.push(Number(process.hrtime.bigint() - t) / 1000);
  t = process.hrtime.bigint(); await r.call('pane/get', { pane: n }); di.push(Number(process.hrtime.bigint() - t) / 1000);
  t = process.hrtime.bigint(); await b.call('pane/get', { pane: n }); re.push(Number(process.hrtime.bigint() - t) / 1000);
}
const res = await r.call('pane/get', { pane: n });
console.log('answer bytes', JSON.stringify(res).length);
console.log(`forwarded ${med(fw).toFixed(0)} direct ${med(di).toFixed(0)} relay ${med(re).toFixed(0)} ratio ${(med(fw) / med(di)).toFixed(2)} vs relay ${(med(fw) / med(re)).toFixed(2)}`);
b.close(); relay.stop(); l.close(); r.close();
local.kill('SIGINT');
await new Promise((res) => local.once('exit', res));
await remote.stop();
fs.rmSync(dir, { recursive: true, force: true });
