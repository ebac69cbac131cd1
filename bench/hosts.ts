// A joined host (issue 26): a second `pane serve` reached as a `command` host
// (`pane serve --stdio --socket R`), with 100 panes. Measured: `pane ls` on the
// local daemon listing those 100 as HOST:N, against `pane ls` asked of the remote
// itself; and a request forwarded to HOST:N (pane/get), against the same request
// asked of the remote directly. Through a real OpenSSH host (bench/sshd.ts: sshd on
// 127.0.0.1 with its own keys, the remote's `pane` on its PATH): keystroke echo of a
// remote pane against `ssh host cat`, throughput against `ssh host cat FILE`, resume
// after the link's ssh is killed, and `pane ls` of the 100 panes (hostsSsh.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { daemonEnv } from '../kits/node/daemonEnv';
import { paneMBs, sshRows, type SshHostResult } from './hostsSsh';
import { byteRelay } from './nodeFloor';
import { client, logTail, paneBin, startServerProc, sleep, timeCommand } from './procs';
import { summarize, type Summary } from './stats';

export interface HostsResult {
  remotePanes: number;
  lsLocal: Summary;
  lsRemoteDirect: Summary;
  forwarded: Summary;
  direct: Summary;
  /** The same request asked of the host through a Node process that only passes bytes (bench/nodeFloor.ts): a hop's floor. */
  relayed: Summary;
  /** MB/s of a remote pane's output streamed through the link (pty/attach of HOST:N). */
  streamMBs: Summary;
  /** MB/s of the same output attached on the remote daemon directly (no link). */
  directMBs: Summary;
  /** MB/s of `cat FILE` through a pipe, as the command host's stdio is. */
  catMBs: number;
  /** The ssh host's figures, or why they were not measured (no sshd or ssh here). */
  ssh: SshHostResult | { skipped: string };
}

/** Bytes a remote pane prints for the throughput figure (base64: no newline for the tty to double). */
const STREAM_BYTES = 16 << 20;

/** Rounds of each stream figure at least (more with PANE_BENCH_RUNS). */
const STREAM_ROUNDS = 3;

/** Calls made for each round-trip figure. */
const CALLS = 300;
/** Calls each way first, untimed: both daemons run for days, and their request paths are JIT-warm then (bench/roundtrip.ts's ROUNDTRIP_WARM_CALLS says by how much). */
export const WARM_CALLS = 3000;

/** The local daemon's log kept (its stderr's last bytes), said when a figure fails. */
const LOG_TAIL_BYTES = 8 << 10;
/** Its lines named in that error. */
const LOG_TAIL_LINES = 12;

export async function hosts(dir: string, runs: number): Promise<HostsResult> {
  const rdir = path.join(dir, 'remote');
  const ldir = path.join(dir, 'local');
  fs.mkdirSync(rdir, { recursive: true });
  fs.mkdirSync(path.join(ldir, '.config', 'pane', 'hosts'), { recursive: true });
  const remote = await startServerProc(rdir);
  // The local daemon's config dir is its own (XDG_CONFIG_HOME), holding the one host file.
  fs.writeFileSync(path.join(ldir, '.config', 'pane', 'hosts', 'box.json'), JSON.stringify({ how: { via: 'command', argv: [process.execPath, paneBin, 'serve', '--stdio', '--socket', remote.socket] } }));
  const lsock = path.join(ldir, 'bench.sock');
  const local = spawn(process.execPath, [paneBin, 'serve', '--socket', lsock, '--empty'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: daemonEnv({ ...process.env, HOME: ldir, XDG_CONFIG_HOME: path.join(ldir, '.config'), PS1: '$ ' }),
  });
  // Read as it comes: a pipe nobody reads fills, and a daemon writing its log to it then
  // blocks (stderr to a pipe is synchronous on Linux). Its end is said with a failure.
  let log = '';
  local.stderr!.on('data', (b: Buffer) => (log = (log + String(b)).slice(-LOG_TAIL_BYTES)));
  const withLog = (e: Error) => new Error(`${e.message} (the local daemon's log ends: ${logTail(log, LOG_TAIL_LINES)})`, { cause: e });
  try {
    const r = await client(remote.socket);
    await r.call('session/new', { name: 'many', launch: { program: '/bin/cat', args: [] } });
    // Text panes cost no process: 99 of them and one cat make the 100.
    for (let i = 0; i < 99; i++) await r.call('float/create', { session: 'many', kind: 'text', name: `t${i}` });
    const n = (await r.call('pane/list', {})).panes[0]!.n;
    const deadline = Date.now() + 10_000;
    while (!fs.existsSync(lsock)) {
      if (Date.now() > deadline) throw new Error('the local pane serve did not start');
      await sleep(20);
    }
    await sleep(200);
    const l = await client(lsock);
    const joined = await l.call('host/connect', { name: 'box' });
    if (joined.state !== 'connected') throw new Error(`bench host did not join: ${joined.error}`);
    const lsLocal: number[] = [];
    const lsRemote: number[] = [];
    for (let i = 0; i < 2; i++) timeCommand(process.execPath, [paneBin, '--socket', lsock, 'ls']);
    for (let i = 0; i < Math.max(5, runs * 3); i++) {
      lsLocal.push(timeCommand(process.execPath, [paneBin, '--socket', lsock, 'ls']));
      lsRemote.push(timeCommand(process.execPath, [paneBin, '--socket', remote.socket, 'ls']));
    }
    const forwarded: number[] = [];
    const direct: number[] = [];
    const relayed: number[] = [];
    const relaySock = path.join(dir, 'relay.sock');
    const relay = await byteRelay(relaySock, remote.socket);
    try {
      const b = await client(relaySock);
      for (let i = 0; i < WARM_CALLS; i++) {
        await l.call('pane/get', { pane: `box:${n}` });
        await r.call('pane/get', { pane: n });
        await b.call('pane/get', { pane: n });
      }
      for (let i = 0; i < CALLS; i++) {
        let t = process.hrtime.bigint();
        await l.call('pane/get', { pane: `box:${n}` });
        forwarded.push(Number(process.hrtime.bigint() - t) / 1000);
        t = process.hrtime.bigint();
        await r.call('pane/get', { pane: n });
        direct.push(Number(process.hrtime.bigint() - t) / 1000);
        t = process.hrtime.bigint();
        await b.call('pane/get', { pane: n });
        relayed.push(Number(process.hrtime.bigint() - t) / 1000);
      }
      b.close();
    } finally {
      relay.stop();
    }
    // Throughput: a remote pane `cat`s a file; the local daemon relays it (one upstream stream) to this client,
    // against the same pane program read from the remote daemon directly (what the link adds). Interleaved, a few
    // rounds each: one sample of either swings ±20% on a loaded 2-core machine.
    const file = path.join(dir, 'through.b64');
    fs.writeFileSync(file, Buffer.alloc((STREAM_BYTES / 4) * 3, 7).toString('base64'));
    const sc = { r, file, bytes: STREAM_BYTES, log: () => log };
    const stream: number[] = [];
    const directStream: number[] = [];
    for (let i = 0; i < Math.max(STREAM_ROUNDS, runs); i++) {
      stream.push(await paneMBs(sc, l, (p) => `box:${p}`));
      directStream.push(await paneMBs(sc, r, (p) => p));
    }
    const t0 = performance.now();
    const cat = spawn('cat', [file], { stdio: ['ignore', 'pipe', 'ignore'] });
    let catGot = 0;
    cat.stdout.on('data', (c: Buffer) => (catGot += c.byteLength));
    await new Promise((res) => cat.once('close', res));
    const catMBs = catGot / 1e6 / ((performance.now() - t0) / 1000);
    // The same remote daemon through a real ssh host; box leaves first so `pane ls` lists its 100 panes once.
    await l.call('host/disconnect', { name: 'box' });
    const ssh = await sshRows({ dir, remote, r, l, lsock, ldir, localPid: local.pid ?? -1, file, bytes: STREAM_BYTES, runs, lsRemote, log: () => log }).catch((e: Error) => Promise.reject(withLog(e)));
    l.close();
    r.close();
    return { remotePanes: 100, lsLocal: summarize(lsLocal), lsRemoteDirect: summarize(lsRemote), forwarded: summarize(forwarded), direct: summarize(direct), relayed: summarize(relayed), streamMBs: summarize(stream), directMBs: summarize(directStream), catMBs, ssh };
  } finally {
    if (local.exitCode === null) {
      const gone = new Promise((res) => local.once('exit', res));
      local.kill('SIGTERM');
      await Promise.race([gone, sleep(3000)]);
      if (local.exitCode === null) local.kill('SIGKILL');
    }
    await remote.stop();
  }
}
