// Attack class: growing the server through input a program does not read. Input
// waits for a program up to MAX_INPUT_QUEUE, then the sender is refused with `busy`
// (a reply to pane/input; an error frame for binary input frames, which have no
// reply) and the server's memory stays bounded however much more is sent, through
// either path, by a sender that reads its replies or one that never does. Against a
// real `pane serve` run with the daemon's malloc settings, its RSS read from /proc.
// At f0f52cf 50 MiB of input grew it 37-48 MiB (node's per-read buffers, freed late),
// and 5 MiB of tiny inputs from a sender that never read grew it 74 MiB and rising
// (a reply per refusal); with @lydell/node-pty, 64 KiB into a raw-mode program that
// does not read froze the server outright (its pty writes retried on the main thread).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../kits/client/connection';
import { daemonEnv } from '../../kits/node/daemonEnv';
import { encodeFrame } from '../../kits/node/framing';
import { connectUnix } from '../../kits/node/socketTransport';
import { BinaryKind, encodeBinary } from '../../kits/protocol/binary';
import { MAX_INPUT_QUEUE } from '../../server/pty/terminal';
import { BIN, buildOnce, cleanEnv } from '../cli/harness';

const MiB = 1 << 20;
/** Input sent through each path: fifty times what a pane may hold. */
const SENT = 50 * MiB;
/** What the server may grow by while refusing it (generous: the V8 heap's own growth under a flood of frames is ~15-25 MiB). */
const GROWTH_LIMIT = 30 * MiB;

let dir: string;
let socket: string;
let proc: ChildProcess;
let human: Connection;

beforeAll(async () => {
  buildOnce();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-input-'));
  socket = path.join(dir, 's.sock');
  proc = spawn(BIN, ['serve', '--socket', socket], { env: daemonEnv(cleanEnv({ HOME: dir })), stdio: 'ignore', cwd: dir });
  const deadline = Date.now() + 15_000;
  while (!fs.existsSync(socket) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  human = await client('human');
}, 120_000);
afterAll(async () => {
  human?.close();
  if (proc?.pid !== undefined && proc.exitCode === null) proc.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

async function client(name: string): Promise<Connection> {
  const c = new Connection(await connectUnix(socket));
  await c.hello({ client: { name, kind: 'test' }, capabilities: ['read', 'write', 'attach', 'admin'] });
  return c;
}

/** The longest a flood through one path may take here (a frozen server never finishes it). */
const FLOOD_MS = 60_000;

/** `p`, or a failure naming what did not happen within `ms`. */
function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms (is the server frozen?)`)), ms).unref())]);
}

const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${proc.pid}/status`, 'utf8'))![1]) * 1024;

/** Samples the server's RSS every 20 ms while `work` runs; resolves the peak growth over the RSS before it. */
async function growthDuring(work: () => Promise<void>): Promise<number> {
  const before = rss();
  let peak = before;
  const t = setInterval(() => (peak = Math.max(peak, rss())), 20);
  try {
    await work();
    await new Promise((r) => setTimeout(r, 500));
    peak = Math.max(peak, rss());
  } finally {
    clearInterval(t);
  }
  return peak - before;
}

/** A raw socket that said hello: writes whatever it is given, waiting for the kernel (not for replies). */
async function raw(read: boolean): Promise<{ sock: net.Socket; write: (b: Buffer) => Promise<void>; got: () => string }> {
  const sock = net.createConnection({ path: socket });
  await new Promise((r) => sock.once('connect', r));
  let got = '';
  sock.on('data', (d) => (got += d.toString('latin1')));
  sock.write(encodeFrame(JSON.stringify({ t: 'req', id: 1, method: 'hello', params: { protocol: 1, client: { name: 'sender', kind: 'test' }, capabilities: ['read', 'write'] } })));
  const deadline = Date.now() + 5_000;
  while (!got.includes('"ok":true') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  if (!read) sock.pause();
  const write = (b: Buffer) => (sock.write(b) ? Promise.resolve() : new Promise<void>((r) => sock.once('drain', () => r())));
  return { sock, write, got: () => got };
}

/** A pane whose program does not read its input (raw mode: the terminal keeps what it is sent). */
async function stuck(): Promise<number> {
  const { pane } = await human.call('pane/launch', { launch: { program: '/bin/sh', args: ['-c', 'stty raw -echo; exec sleep 600'] } });
  await new Promise((r) => setTimeout(r, 300));
  return pane;
}

describe('input into a program that does not read', () => {
  it(`refuses pane/input past MAX_INPUT_QUEUE (${MAX_INPUT_QUEUE}) with busy, and ${SENT / MiB} MiB of it grow the server by less than ${GROWTH_LIMIT / MiB} MiB`, async () => {
    const pane = await stuck();
    const s = await raw(true);
    const chunk = 'x'.repeat(64 << 10);
    const growth = await growthDuring(async () => {
      const end = Date.now() + FLOOD_MS;
      for (let sent = 0, id = 2; sent < SENT; sent += chunk.length, id++) await within(end - Date.now(), s.write(encodeFrame(JSON.stringify({ t: 'req', id, method: 'pane/input', params: { pane, data: chunk } }))), 'the server taking pane/input');
    });
    expect(s.got()).toMatch(/"code":"busy","message":"pane \d+ is not reading its input: \d+ bytes wait already, and 65536 more would pass the limit of 1048576 \(MAX_INPUT_QUEUE\); nothing was written/);
    expect(growth).toBeLessThan(GROWTH_LIMIT);
    s.sock.destroy();
    // The server serves on: a new client is answered at once.
    expect((await within(5_000, client('after').then((x) => x.call('server/info', {})), 'a new client answered')).panes).toBeGreaterThan(0);
    await human.call('pane/close', { pane });
  }, 120_000);

  it(`refuses binary input frames with one visible busy error a spell and a /pane/log line, and ${SENT / MiB} MiB of them grow the server by less than ${GROWTH_LIMIT / MiB} MiB`, async () => {
    const pane = await stuck();
    const c = await client('typist');
    const errors: { code: string; message: string }[] = [];
    c.onError((e) => errors.push(e));
    // Through the kit, as the window types: the refusal reaches onError.
    for (let i = 0; i < 40; i++) c.sendInput(pane, new Uint8Array(64 << 10).fill(0x61));
    await within(10_000, c.call('server/info', {}), 'the server answering after the input');
    expect(errors.map((e) => e.code)).toEqual(['busy']);
    expect(errors[0]!.message).toMatch(new RegExp(`pane ${pane} is not reading its input`));
    const log = (await human.call('ns/read', { path: '/log', count: 1 << 20 })).data;
    expect(log).toMatch(new RegExp(`^- refused pane ${pane}'s input: unix client typist: pane ${pane} is not reading its input`, 'm'));
    // Then a raw flood of them.
    const s = await raw(true);
    const frame = encodeFrame(encodeBinary({ kind: BinaryKind.INPUT, pane, offset: 0, data: new Uint8Array(64 << 10).fill(0x62) }));
    const growth = await growthDuring(async () => {
      const end = Date.now() + FLOOD_MS;
      for (let sent = 0; sent < SENT; sent += 64 << 10) await within(end - Date.now(), s.write(frame), 'the server taking input frames');
    });
    expect(growth).toBeLessThan(GROWTH_LIMIT);
    s.sock.destroy();
    c.close();
    await human.call('pane/close', { pane });
  }, 120_000);

  it(`stops reading a sender that never reads its refusals, so tiny inputs grow the server by less than ${GROWTH_LIMIT / MiB} MiB`, async () => {
    const pane = await stuck();
    const s = await raw(false);
    const req = (id: number) => encodeFrame(JSON.stringify({ t: 'req', id, method: 'pane/input', params: { pane, data: 'x' } }));
    const batch = Buffer.concat(Array.from({ length: 1000 }, (_, i) => req(i + 2)));
    const growth = await growthDuring(async () => {
      // For 15 s or 20 MiB of requests: a server that stops reading leaves this writer waiting on the kernel.
      const end = Date.now() + 15_000;
      for (let sent = 0; sent < 20 * MiB && Date.now() < end; sent += batch.byteLength) {
        await Promise.race([s.write(batch), new Promise((r) => setTimeout(r, Math.max(0, end - Date.now())))]);
      }
    });
    expect(growth).toBeLessThan(GROWTH_LIMIT);
    s.sock.destroy();
    expect((await within(5_000, client('after2').then((x) => x.call('server/info', {})), 'a new client answered')).panes).toBeGreaterThan(0);
    await human.call('pane/close', { pane });
  }, 120_000);
});
