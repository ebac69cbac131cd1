// A joined host's pane tiled in a local session (issue 26 items 3 and 4): two real
// daemons, the remote joined as a `command` host (its `pane serve --stdio` on the
// local daemon's stdio link). `pane host show box:N` puts a stand-in beside a local
// pane; a protocol client reads and types it as the window does (pty/attach by the
// stand-in's number, binary INPUT frames), sees the echo under that number, resizes
// it through the layout, and follows it through a paused link (the stale badge) and
// a killed one (disconnected, then back) with every byte once, in order. Closing the
// stand-in leaves the remote pane running; closing the remote pane marks it gone.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../kits/client/index';
import { connectUnix } from '../../kits/node/socketTransport';
import { leaves } from '../../kits/layout/tree';
import type { Pane } from '../../kits/protocol/model';
import { PROXY_PANE_BASE } from '../../server/hosts/remoteStream';
import { BIN, buildOnce } from '../cli/harness';
import { binDirFor, eventually, startDaemon, type Daemon } from './remote';

let remote: Daemon;
let local: Daemon;
/** The local window-like client and a client of the remote daemon itself (to read the truth there). */
let c: Connection;
let far: Connection;
/** The remote pane (a numbered sequence, then cat), the local shell beside it, and the stand-in. */
let rn = 0;
let ln = 0;
let standIn = 0;
const LINES = 240;
/** The local daemon started again by the last test (the Daemon's own proc is the first one). */
let again: ChildProcess | undefined;

beforeAll(async () => {
  buildOnce();
  remote = await startDaemon('tile-remote');
  local = await startDaemon('tile-local');
  const bin = binDirFor(remote);
  const add = local.pane(['host', 'add', 'box', '--', path.join(bin, 'pane'), 'serve', '--stdio']);
  expect(add.status, add.stderr).toBe(0);
  const j = local.pane(['host', 'connect', 'box']);
  expect(j.status, j.stderr).toBe(0);
  c = new Connection(await connectUnix(local.socket));
  await c.hello({ client: { name: 'tile test window', kind: 'renderer' }, capabilities: ['read', 'write', 'attach'] });
  far = new Connection(await connectUnix(remote.socket));
  await far.hello({ client: { name: 'tile test truth', kind: 'other' }, capabilities: ['read'] });
}, 120_000);

afterAll(async () => {
  c?.close();
  far?.close();
  local?.pane(['host', 'disconnect', 'box']);
  if (again && again.exitCode === null) {
    const gone = new Promise((r) => again!.once('exit', r));
    again.kill('SIGTERM');
    await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
  }
  await local?.stop();
  await remote?.stop();
});

/** The local daemon's link processes (the command host's `pane serve --stdio`), by PID. */
function linkPids(): number[] {
  const out = spawnSync('pgrep', ['-P', String(local.proc.pid), '-f', 'serve --stdio'], { encoding: 'utf8' }).stdout.trim();
  return out.split('\n').filter(Boolean).map(Number);
}

const get = (n: number): Promise<Pane> => c.call('pane/get', { pane: n });

/** Polls an async check until it holds (bounded). */
async function until(what: string, ok: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const linkIs = async (states: string[]) => states.includes((await get(standIn)).attrs['remote.link'] ?? '');

/** Every byte of the remote pane's stream from `from`, as its own daemon holds it. */
async function truth(n: number, from: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let at = from, i = 0; i < 64; i++) {
    const r = await far.call('pty/read', { pane: n, from: at, maxBytes: 1 << 20, encoding: 'base64' });
    parts.push(Buffer.from(r.data, 'base64'));
    if (r.to >= r.streamEnd) break;
    at = r.to;
  }
  return Buffer.concat(parts);
}

describe('a remote pane tiled beside a local one', () => {
  it('places a stand-in in the local layout whose stream and keys are the remote pane\'s, under its own number', async () => {
    const script = `i=0; while [ $i -lt ${LINES} ]; do i=$((i+1)); echo L$i; sleep 0.06; done; echo SEQ-DONE; exec cat`;
    const r = remote.pane(['new', '--', 'sh', '-c', script]);
    expect(r.status, r.stderr).toBe(0);
    rn = Number(r.stdout.trim());
    const l = local.pane(['new']);
    expect(l.status, l.stderr).toBe(0);
    ln = Number(l.stdout.trim());
    const show = local.pane(['host', 'show', `box:${rn}`, '-t', String(ln)]);
    expect(show.status, show.stderr).toBe(0);
    standIn = Number(show.stdout.trim());
    expect(standIn).toBeGreaterThan(0);
    expect(standIn).toBeLessThan(PROXY_PANE_BASE);

    const p = await get(standIn);
    expect(p.kind).toBe('remote');
    expect(p.attrs['remote.host']).toBe('box');
    expect(p.attrs['remote.n']).toBe(String(rn));
    const s = await c.call('session/get', { session: p.session });
    expect(leaves(s.layout)).toEqual(expect.arrayContaining([ln, standIn]));
    // Showing it again focuses the one stand-in rather than making a second.
    expect(Number(local.pane(['host', 'show', `box:${rn}`]).stdout.trim())).toBe(standIn);

    // Read as the window reads: snapshot attach by the stand-in's number, output frames under it.
    const frames: { pane: number; offset: number; data: Buffer }[] = [];
    c.onOutput((pane, offset, data) => {
      frames.push({ pane, offset, data: Buffer.from(data) });
      void c.call('pty/ack', { pane, bytes: data.byteLength }).catch(() => undefined);
    });
    const a = await c.call('pty/attach', { pane: standIn, mode: 'from', from: 0, flowControl: true });
    expect(a.pane).toBe(standIn);
    const mine = () => Buffer.concat(frames.filter((f) => f.pane === standIn).map((f) => f.data)).toString();
    await eventually('the sequence to start arriving under the stand-in', () => /\bL5\b/.test(mine()), 20_000);
    expect(frames.every((f) => f.pane === standIn)).toBe(true);
    // The CLI reads it by its local number too: pane screen and pane output are the remote pane's.
    expect(local.pane(['screen', '-t', String(standIn)]).stdout).toMatch(/^L1$/m);
    expect(local.pane(['output', '-t', String(standIn), '--from', '0']).stdout).toMatch(/^L1\r?$/m);

    // Its size follows the local layout: the remote pane takes the stand-in's cells.
    const sized = async () => {
      const here = await get(standIn);
      const there = await far.call('pane/get', { pane: rn });
      return here.cols === there.cols && here.rows === there.rows ? here.cols : undefined;
    };
    let before = 0;
    await until('the remote pane at the stand-in\'s size', async () => (before = (await sized()) ?? 0) > 0, 10_000);
    await c.call('pane/resize', { pane: standIn, direction: 'left', cells: 12 });
    expect((await get(standIn)).cols).toBe(before + 12);
    await until('the remote pane resized with its tile', async () => (await sized()) === before + 12, 10_000);

    // A paused host (its daemon stopped; the link's `pane serve --stdio` handed its pipes to that daemon and only waits):
    // the stand-in's tag goes stale, and comes back.
    expect(linkPids().length).toBe(1);
    const host = remote.proc.pid!;
    process.kill(host, 'SIGSTOP');
    try {
      await until('the stale badge', () => linkIs(['stale']), 15_000);
    } finally {
      process.kill(host, 'SIGCONT');
    }
    await until('the link connected again', () => linkIs(['connected']), 15_000);

    // A killed link: disconnected, keys typed meanwhile wait in order, and it is dialled again.
    // A link that was up is redialled at once, so the badge may last less than a poll: its changes are watched as events.
    const badges: string[] = [];
    await c.call('events/subscribe', { families: ['pane'] });
    c.onEvent((event, _rev, data) => {
      const d = data as { pane?: number; attrs?: Record<string, string> };
      if (event === 'pane/attrs-changed' && d.pane === standIn && d.attrs?.['remote.link'] !== undefined) badges.push(d.attrs['remote.link']);
    });
    expect(mine()).not.toContain('SEQ-DONE'); // the outages below fall mid-stream
    process.kill(linkPids()[0]!, 'SIGKILL');
    await until('the disconnected badge', async () => badges.some((b) => b === 'disconnected' || b === 'connecting') || (await linkIs(['disconnected', 'connecting'])), 15_000);
    c.sendInput(standIn, new TextEncoder().encode('TYPED-WHILE-DOWN\n'));
    await eventually('the sequence to end at the stand-in', () => mine().includes('SEQ-DONE'), 60_000);
    c.sendInput(standIn, new TextEncoder().encode('TILE-ECHO\n'));
    await eventually('the keys echoed back under the stand-in', () => /TYPED-WHILE-DOWN[\s\S]*TILE-ECHO/.test(mine()), 30_000);
    expect((await get(standIn)).attrs['remote.link']).toBe('connected');

    // Every byte once, in order: the frames are contiguous and equal the remote's own stream.
    const ours = frames.filter((f) => f.pane === standIn);
    for (let i = 1; i < ours.length; i++) expect(ours[i]!.offset).toBe(ours[i - 1]!.offset + ours[i - 1]!.data.byteLength);
    const got = Buffer.concat(ours.map((f) => f.data));
    const want = await truth(rn, ours[0]!.offset);
    expect(got.toString()).toBe(want.subarray(0, got.byteLength).toString());
    const nums = got.toString().split(/\r?\n/).map((x) => /^L(\d+)$/.exec(x.trim())?.[1]).filter((x): x is string => x !== undefined).map(Number);
    expect(nums).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
  }, 180_000);

  it('closes the stand-in without closing the remote pane; a remote pane closed there marks its stand-in gone', async () => {
    expect(standIn).toBeGreaterThan(0);
    await c.call('pane/close', { pane: standIn });
    await expect(get(standIn)).rejects.toThrow(/not found/);
    expect((await far.call('pane/get', { pane: rn })).state).toBe('running');
    const attachedThere = () => {
      const clients = JSON.parse(remote.pane(['clients', '--json']).stdout) as { name: string; attached: number[] }[];
      return clients.some((x) => x.name.startsWith('host link') && x.attached.includes(rn));
    };
    await eventually('the link to stop streaming the remote pane', () => !attachedThere(), 10_000);

    // Shown again, then closed on the remote: the stand-in says it is gone, and stays until closed.
    const again = Number(local.pane(['host', 'show', `box:${rn}`, '-t', String(ln), '--float']).stdout.trim());
    expect(again).toBeGreaterThan(0);
    expect(remote.pane(['close', '-t', String(rn)]).status).toBe(0);
    let p: Pane | undefined;
    await until('the stand-in marked gone', async () => ((p = await get(again)), p.state === 'exited' && p.attrs['remote.gone'] !== undefined), 15_000);
    expect(p?.attrs['remote.gone']).toMatch(new RegExp(`box:${rn} is no longer on box`));
    // Its screen is asked of the stand-in: the answer names it and the fix, not the remote's bare "pane N not found".
    expect(local.pane(['screen', '-t', String(again)]).stderr).toMatch(new RegExp(`^pane: pty/screen on pane ${again}: box:${rn} is no longer on box: closed there; close this stand-in \\(pane close -t ${again}\\)$`, 'm'));
  }, 60_000);

  it('brings a stand-in back after a daemon restarts on its state, bound again once its host joins', async () => {
    const r = remote.pane(['new', '--', 'sh', '-c', 'echo BEFORE-RESTART; exec cat']);
    expect(r.status, r.stderr).toBe(0);
    const rn2 = Number(r.stdout.trim());
    // A daemon that keeps its state (`pane serve --state`), with the same host files as the local one.
    const state = path.join(local.home, 'durable-state');
    const sock = path.join(local.home, 'run', 'durable.sock');
    const serve = async (): Promise<ChildProcess> => {
      const p = spawn(BIN, ['serve', '--socket', sock, '--state', state], { env: local.env, cwd: local.home, stdio: ['ignore', 'ignore', 'pipe'] });
      let log = '';
      p.stderr?.on('data', (b: Buffer) => (log += b.toString()));
      await eventually(`the durable daemon to listen (${log})`, () => fs.existsSync(sock) || p.exitCode !== null, 30_000);
      expect(p.exitCode, log).toBe(null);
      return p;
    };
    const on = (args: string[]) => local.pane(['--socket', sock, ...args]);
    again = await serve();
    expect(on(['host', 'connect', 'box']).status).toBe(0);
    const mine = Number(on(['new']).stdout.trim());
    const shown = on(['host', 'show', `box:${rn2}`, '-t', String(mine)]);
    expect(shown.status, shown.stderr).toBe(0);
    // Stopped, then started again on the same state, as after a reboot.
    const exited = new Promise((res) => again!.once('exit', res));
    again.kill('SIGTERM');
    await exited;
    fs.rmSync(sock, { force: true });
    again = await serve();
    const d = new Connection(await connectUnix(sock));
    try {
      await d.hello({ client: { name: 'tile test window', kind: 'renderer' }, capabilities: ['read', 'write', 'attach'] });
      const panes = (await d.call('pane/list', {})).panes;
      const back = panes.find((p) => p.kind === 'remote' && p.attrs['remote.n'] === String(rn2));
      expect(back, JSON.stringify(panes.map((p) => [p.n, p.kind, p.attrs]))).toBeDefined();
      expect(back!.attrs['remote.host']).toBe('box');
      // Its host is not joined yet (no autoConnect): the tag says so, and an attach names the fix.
      expect(back!.attrs['remote.link']).toBe('disconnected');
      await expect(d.call('pty/attach', { pane: back!.n, mode: 'snapshot' })).rejects.toThrow(/host box is disconnected.*pane host connect box/);
      expect(on(['host', 'connect', 'box']).status).toBe(0);
      await until('the stand-in bound again', async () => (await d.call('pane/get', { pane: back!.n })).attrs['remote.link'] === 'connected', 15_000);
      const a = await d.call('pty/attach', { pane: back!.n, mode: 'snapshot', flowControl: true });
      expect(a.pane).toBe(back!.n);
      expect(a.snapshot?.serialized).toContain('BEFORE-RESTART');
      let out = '';
      d.onOutput((p, _o, data) => void (p === back!.n && (out += Buffer.from(data).toString())));
      d.sendInput(back!.n, new TextEncoder().encode('AFTER-RESTART\n'));
      await eventually('the echo after the restart', () => out.includes('AFTER-RESTART'), 15_000);
    } finally {
      d.close();
      on(['host', 'disconnect', 'box']);
    }
  }, 90_000);
});
