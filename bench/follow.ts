// `pane output --follow` of a build log under CPU contention (issue 35): the built
// CLI following a pane from offset 0 into a file while the pane `cat`s a ~50 MB
// file of base64 lines, two busy loops taking the cores. Counts rounds that
// stalled (the file not growing for FOLLOW_STALL_MS before it held every byte) and
// times the rest, against tmux printing the same file in a detached pane under the
// same load.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { client, paneBin, sleep, startServerProc } from './procs';
import { summarize, type Summary } from './stats';
import { base64File, tmuxRun } from './throughput';

/** The file: 37 MB of random bytes as base64, ~50 MB. */
const FILE_MB = 35.3;
/** No byte this long before the whole file arrived: a stall (the issue waited 10 s). */
const FOLLOW_STALL_MS = 10_000;
const BUSY_LOOPS = 2;

export interface FollowResult {
  rounds: number;
  stalls: number;
  /** MB/s of the rounds that finished. */
  pane: Summary;
  tmux: Summary | null;
  mb: number;
}

export async function followBench(dir: string, rounds: number, withTmux: boolean): Promise<FollowResult> {
  fs.mkdirSync(dir, { recursive: true });
  const file = base64File(dir, FILE_MB);
  const text = fs.readFileSync(file);
  let lines = 0;
  for (const b of text) if (b === 10) lines++;
  const want = text.byteLength + lines;
  const mb = text.byteLength / (1024 * 1024);
  const srv = await startServerProc(dir);
  const c = await client(srv.socket);
  const busy: ChildProcess[] = [];
  const paneMBs: number[] = [];
  const tmuxMBs: number[] = [];
  let stalls = 0;
  try {
    await c.call('session/new', { name: 'follow', launch: { program: '/bin/sleep', args: ['3600'] } });
    for (let i = 0; i < BUSY_LOOPS; i++) busy.push(spawn('/bin/sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
    for (let i = 0; i < rounds; i++) {
      const { pane } = await c.call('pane/launch', { session: 'follow', launch: { program: '/bin/sh', args: ['-c', `stty -echo; read go; exec cat ${file}`] } });
      const out = path.join(dir, 'follow.out');
      const fd = fs.openSync(out, 'w');
      const child = spawn(process.execPath, [paneBin, '--socket', srv.socket, 'output', '-t', String(pane), '--from', '0', '--follow'], { stdio: ['ignore', fd, 'ignore'] });
      fs.closeSync(fd);
      // Attached once a client in the server's list has this pane attached: then the log may start.
      for (let k = 0; k < 500; k++) {
        const { clients } = await c.call('client/list', {});
        if (clients.some((x) => x.attached.includes(pane))) break;
        await sleep(10);
      }
      const t0 = performance.now();
      c.sendInput(pane, new TextEncoder().encode('go\n'));
      let size = 0;
      let grew = performance.now();
      while (size < want) {
        await sleep(20);
        const now = fs.statSync(out).size;
        if (now !== size) grew = performance.now();
        size = now;
        if (performance.now() - grew > FOLLOW_STALL_MS) break;
      }
      if (size < want) stalls++;
      else paneMBs.push(mb / ((performance.now() - t0) / 1000));
      if (child.exitCode === null) child.kill('SIGKILL');
      await c.call('pane/close', { pane }).catch(() => undefined);
      fs.rmSync(out, { force: true });
      if (withTmux) tmuxMBs.push(mb / ((await tmuxRun(file)) / 1000));
    }
  } finally {
    for (const b of busy) if (b.exitCode === null) b.kill('SIGKILL');
    c.close();
    await srv.stop();
    fs.rmSync(file, { force: true });
  }
  return { rounds, stalls, pane: summarize(paneMBs), tmux: withTmux ? summarize(tmuxMBs) : null, mb };
}
