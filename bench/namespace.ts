// The /pane namespace: `cat body` of a 10,000-line scrollback through the CLI
// and through FUSE (anchors: tmux capture-pane of the same lines, cat of a plain
// file), listing index and by-sig/* with 1,000 panes, and the latency from a ctl
// write to its line on the event file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Connection } from '../kits/client/connection';
import { loadFuse } from '../kits/node/fuse/mounts';
import { client, paneBin, sleep, startServerProc, timeCommand, tmux } from './procs';
import { summarize, type Summary } from './stats';

export interface NamespaceResult {
  catCli: Summary;
  catFuse: Summary | null;
  tmuxCapture: Summary | null;
  catPlain: Summary;
  indexProtocol: Summary;
  indexFuse: Summary | null;
  bySigFuse: Summary | null;
  ctlToEvent: Summary;
  /** Why the FUSE figures are missing, if they are. */
  fuseWhy: string | null;
  lines: number;
}

async function readWhole(c: Connection, path: string): Promise<number> {
  let offset = 0;
  for (;;) {
    const r = await c.call('ns/read', { path, offset, count: 1 << 20 });
    offset = r.offset + r.count;
    if (r.eof || r.count === 0) return offset;
  }
}

/** Mounts with `pane mount`, returning an unmount function, or why it cannot. */
function mount(socket: string, dir: string): (() => void) | string {
  const Fuse = loadFuse();
  if (typeof Fuse === 'string') return Fuse;
  const r = spawnSync(process.execPath, [paneBin, '--socket', socket, 'mount', dir], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) return `pane mount failed: ${r.stderr.trim()}`;
  return () => void spawnSync(process.execPath, [paneBin, '--socket', socket, 'umount', dir], { timeout: 30_000 });
}

export async function namespace(dir: string, runs: number, withTmux: boolean): Promise<NamespaceResult> {
  const srv = await startServerProc(dir);
  const env = { ...process.env, PANE_SOCKET: srv.socket };
  const mnt = path.join(dir, 'ns-mnt');
  const sock = `panebenchns${process.pid}`;
  let unmount: (() => void) | string = 'not mounted';
  try {
    const c = await client(srv.socket);
    // 10,000 lines of scrollback: seq's output, kept after it exits.
    await c.call('session/new', { name: 'ns', launch: { program: '/usr/bin/seq', args: ['1', '10000'] } });
    const n = (await c.call('session/get', { session: 'ns' })).focused!;
    for (let i = 0; i < 200 && (await c.call('pane/get', { pane: n })).state !== 'exited'; i++) await sleep(25);
    const bodyPath = `/${n}/body`;
    const bytes = await readWhole(c, bodyPath);
    const plain = path.join(dir, 'plain-body.txt');
    fs.writeFileSync(plain, Buffer.alloc(bytes, 'x'));
    if (withTmux) {
      tmux(sock, 'new-session', '-d', '-x', '160', '-y', '48', 'seq 1 10000; sleep 600');
      tmux(sock, 'set-option', '-g', 'history-limit', '10000');
      await sleep(300);
    }
    unmount = mount(srv.socket, mnt);
    const catCli: number[] = [];
    const catFuse: number[] = [];
    const tmuxCapture: number[] = [];
    const catPlain: number[] = [];
    for (let i = 0; i < 2; i++) timeCommand(process.execPath, [paneBin, 'cat', bodyPath], env); // warm the page cache
    for (let i = 0; i < runs; i++) {
      catCli.push(timeCommand(process.execPath, [paneBin, 'cat', bodyPath], env));
      if (typeof unmount === 'function') catFuse.push(timeCommand('cat', [path.join(mnt, String(n), 'body')]));
      if (withTmux) tmuxCapture.push(timeCommand('tmux', ['-L', sock, 'capture-pane', '-p', '-S', '-', '-E', '-']));
      catPlain.push(timeCommand('cat', [plain]));
    }

    // 1,000 panes: text panes cost no process, so this measures the namespace alone.
    await c.call('session/new', { name: 'many', launch: { program: '/bin/cat', args: [] } });
    for (let i = 0; i < 999; i++) await c.call('float/create', { session: 'many', kind: 'text', name: `t${i}` });
    const indexProtocol: number[] = [];
    const indexFuse: number[] = [];
    const bySigFuse: number[] = [];
    for (let i = 0; i < Math.max(5, runs); i++) {
      const t0 = performance.now();
      await readWhole(c, '/index');
      indexProtocol.push(performance.now() - t0);
      if (typeof unmount === 'function') {
        indexFuse.push(timeCommand('cat', [path.join(mnt, 'index')]));
        bySigFuse.push(timeCommand('bash', ['-c', `ls ${mnt}/by-sig/* > /dev/null`]));
      }
    }

    // ctl write → the matching executed line on event, over the socket.
    const evPath = `/${n}/event`;
    const { fid } = await c.call('ns/open', { path: evPath, mode: 'r' });
    const lat: number[] = [];
    for (let i = 0; i < 200; i++) {
      const want = `name bench-${i}`;
      const t0 = performance.now();
      await c.call('ns/write', { path: `/${n}/ctl`, data: want });
      for (;;) {
        const r = await c.call('ns/read', { path: evPath, fid, wait: true, count: 65536 });
        if (Buffer.from(r.data, r.encoding === 'base64' ? 'base64' : 'utf8').toString().includes(` executed ctl `) && r.data.includes(want)) break;
      }
      lat.push((performance.now() - t0) * 1000);
    }
    c.close();
    return {
      catCli: summarize(catCli),
      catFuse: catFuse.length ? summarize(catFuse) : null,
      tmuxCapture: tmuxCapture.length ? summarize(tmuxCapture) : null,
      catPlain: summarize(catPlain),
      indexProtocol: summarize(indexProtocol),
      indexFuse: indexFuse.length ? summarize(indexFuse) : null,
      bySigFuse: bySigFuse.length ? summarize(bySigFuse) : null,
      ctlToEvent: summarize(lat),
      fuseWhy: typeof unmount === 'string' ? unmount : null,
      lines: 10_000,
    };
  } finally {
    if (typeof unmount === 'function') unmount();
    if (withTmux) spawnSync('tmux', ['-L', sock, 'kill-server']);
    await srv.stop();
  }
}
