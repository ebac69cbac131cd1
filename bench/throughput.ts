// Output throughput: a pane streaming a large file to a subscribed client
// through the server, vs tmux pushing the same file through a detached pane, vs
// node-pty read directly in one process. Reported in MB/s.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pty from '@lydell/node-pty';
import { ACK_CHUNK } from '../kits/protocol/flow';
import { client, sleep, startServerProc, tmux, type ServerProc } from './procs';
import { summarize, type Summary } from './stats';

/** A file of `mb` MiB of base64 lines (76 columns, as `base64` writes them): a build log's shape. */
export function base64File(dir: string, mb: number): string {
  const b64 = path.join(dir, 'base64.txt');
  execFileSync('sh', ['-c', `head -c ${Math.round((mb * 1024 * 1024 * 3) / 4)} /dev/urandom | base64 -w 76 > ${b64}`]);
  return b64;
}

/** Builds the two kinds of output: base64 lines, and `ls -lR --color=always` listings. */
export function makeFiles(dir: string, mb: number): { name: string; file: string; bytes: number }[] {
  const b64 = base64File(dir, mb);
  const ls = path.join(dir, 'ls.txt');
  const chunk = execFileSync('ls', ['-lR', '--color=always', '/usr/share', '/usr/lib'], { maxBuffer: 1 << 30 });
  const fd = fs.openSync(ls, 'w');
  let written = 0;
  while (written < mb * 1024 * 1024) {
    fs.writeSync(fd, chunk);
    written += chunk.byteLength;
  }
  fs.closeSync(fd);
  return [
    { name: 'base64 lines', file: b64, bytes: fs.statSync(b64).size },
    { name: 'ls -lR --color', file: ls, bytes: fs.statSync(ls).size },
  ];
}

/** pane: launch `cat FILE` held behind `read`, attach with flow control, time until every byte arrived. */
export async function paneRun(srv: ServerProc, file: string): Promise<number> {
  const c = await client(srv.socket);
  const { pane } = await c.call('pane/launch', { launch: { program: '/bin/sh', args: ['-c', `stty -echo; read x; exec cat ${file}`] } });
  let last = 0;
  let ackPending = 0;
  let exited = false;
  c.events.on('pane/exited', (d) => {
    if (d.pane === pane) exited = true;
  });
  await c.call('events/subscribe', { families: ['pane'] });
  c.onOutput((p, off, data) => {
    if (p !== pane) return;
    last = off + data.byteLength;
    ackPending += data.byteLength;
    if (ackPending >= ACK_CHUNK) {
      c.notify('pty/ack', { pane, bytes: ackPending });
      ackPending = 0;
    }
  });
  await c.call('pty/attach', { pane, mode: 'from', from: 0, flowControl: true });
  await sleep(100);
  const t0 = performance.now();
  c.sendInput(pane, new TextEncoder().encode('\n'));
  while (!exited) await sleep(1);
  const end = (await c.call('pty/read', { pane, maxBytes: 1 })).streamEnd;
  while (last < end) await sleep(1);
  const ms = performance.now() - t0;
  await c.call('pane/close', { pane });
  c.close();
  return ms;
}

export async function tmuxRun(file: string): Promise<number> {
  const sock = `panebench${process.pid}`;
  const t0 = performance.now();
  tmux(sock, 'new-session', '-d', '-x', '200', '-y', '50', `cat ${file}; tmux -L ${sock} wait-for -S done`);
  tmux(sock, 'wait-for', 'done');
  const ms = performance.now() - t0;
  spawnSync('tmux', ['-L', sock, 'kill-server']);
  return ms;
}

export function nodePtyRun(file: string): Promise<number> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const p = pty.spawn('cat', [file], { cols: 200, rows: 50, encoding: null as unknown as string });
    let n = 0;
    p.onData((d) => (n += d.length));
    p.onExit(() => setTimeout(() => resolve(performance.now() - t0), 0));
  });
}

export interface ThroughputResult {
  name: string;
  mb: number;
  pane: Summary;
  tmux: Summary | null;
  nodePty: Summary;
}

export async function throughput(dir: string, mb: number, runs: number, withTmux: boolean): Promise<ThroughputResult[]> {
  const files = makeFiles(dir, mb);
  const srv = await startServerProc(dir);
  const out: ThroughputResult[] = [];
  const setup = await client(srv.socket);
  await setup.call('session/new', { name: 'bench', launch: { program: '/bin/cat', args: [] } });
  setup.close();
  try {
    for (const f of files) {
      const size = f.bytes / (1024 * 1024);
      const paneT: number[] = [];
      const tmuxT: number[] = [];
      const npT: number[] = [];
      for (let i = 0; i < runs; i++) {
        paneT.push(size / ((await paneRun(srv, f.file)) / 1000));
        if (withTmux) tmuxT.push(size / ((await tmuxRun(f.file)) / 1000));
        npT.push(size / ((await nodePtyRun(f.file)) / 1000));
      }
      out.push({ name: f.name, mb: size, pane: summarize(paneT), tmux: withTmux ? summarize(tmuxT) : null, nodePty: summarize(npT) });
    }
  } finally {
    await srv.stop();
    for (const f of files) fs.rmSync(f.file, { force: true });
  }
  return out;
}
