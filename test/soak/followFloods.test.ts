// Soak: `pane output --follow` readers under CPU contention never stall and lose
// nothing. ROUNDS rounds against one real `pane serve`, with two busy loops of ours
// taking the machine's cores: each round a fresh connection follows a fresh pane
// (the CLI's own follow(), over the real unix socket) from offset 0, the pane then
// floods FLOOD_BYTES and exits, and the reader must have every byte, in order,
// within ROUND_MS. (A reader once stalled at 27 of 50 MB for two minutes: issue 23.)
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../kits/client/connection';
import { follow } from '../../kits/node/cli/commands/follow';
import { CommandContext } from '../../kits/node/cli/context';
import { connectUnix } from '../../kits/node/socketTransport';
import { BIN, buildOnce, cleanEnv, serve, type Served } from '../cli/harness';

const ROUNDS = 100;
/** Rounds through the built `pane output --follow` itself (a process each, so fewer). */
const CLI_ROUNDS = 5;
/** A few MB a round: below the 8 MiB a connection may have queued, so a reader that keeps up loses nothing. */
const FLOOD_BYTES = 2_000_000;
/** The bound on one round (a flood takes well under a second when nothing stalls). */
const ROUND_MS = 15_000;
const BUSY_LOOPS = 2;
/** The whole soak's bound (65 s measured here, with other work on the machine). */
const SOAK_MS = 170_000;

const LINE = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\n';
/** What the pane prints once told to go: FLOOD_BYTES of `yes`, then E; the terminal turns each \n into \r\n. */
const EXPECTED = (() => {
  const flood = LINE.repeat(Math.ceil(FLOOD_BYTES / LINE.length)).slice(0, FLOOD_BYTES);
  return Buffer.from(`R${flood.replaceAll('\n', '\r\n')}E`);
})();
const SCRIPT = `stty -echo; printf R; read go; yes ${LINE.trim()} | head -c ${FLOOD_BYTES}; printf E`;

let s: Served;
let human: Connection;
const busy: ChildProcess[] = [];

beforeAll(async () => {
  buildOnce();
  s = await serve();
  human = await connect('soak');
  await human.call('session/new', { name: 'soak', launch: { program: '/bin/sleep', args: ['600'] } });
  // Each loop ends by itself after the test's own bound, should this process die before afterAll kills it.
  for (let i = 0; i < BUSY_LOOPS; i++) busy.push(spawn(process.execPath, ['-e', `const end = Date.now() + ${SOAK_MS}; while (Date.now() < end);`], { stdio: 'ignore' }));
}, 120_000);
afterAll(async () => {
  for (const b of busy) if (b.pid !== undefined && b.exitCode === null) process.kill(b.pid, 'SIGKILL');
  human?.close();
  await s?.stop();
});

async function connect(name: string): Promise<Connection> {
  const c = new Connection(await connectUnix(s.socket));
  await c.hello({ client: { name, kind: 'cli' }, capabilities: ['read', 'write', 'attach'] });
  return c;
}

/** A stdout that pushes back: a small buffer, and now and then a few ms per write. */
function stdout(onData: (d: Buffer) => void): Writable {
  let n = 0;
  return new Writable({
    highWaterMark: 64 << 10,
    write(chunk: Buffer, _enc, cb) {
      onData(chunk);
      if (++n % 16 === 0) setTimeout(cb, 2);
      else cb();
    },
  });
}

/** One round: follow a fresh pane from 0 while it floods; returns what the reader got and its notes. */
async function round(i: number): Promise<{ bytes: number; sha: string; err: string; ms: number; code: number | 'timeout' }> {
  const t0 = Date.now();
  const { pane } = await human.call('pane/launch', { session: 'soak', launch: { program: '/bin/sh', args: ['-c', SCRIPT] } });
  const c = await connect(`follow-${i}`);
  const hash = crypto.createHash('sha1');
  let bytes = 0;
  let started = false;
  let err = '';
  const out = stdout((d) => {
    hash.update(d);
    bytes += d.byteLength;
    // The reader is attached once the pane's first byte reached it: now the flood may start.
    if (!started) {
      started = true;
      void human.call('pane/input', { pane, data: 'go\r' });
    }
  });
  const stderr = new Writable({
    write(chunk: Buffer, _enc, cb) {
      err += chunk.toString();
      cb();
    },
  });
  const ctx = new CommandContext({ stdout: out, stderr, stdin: process.stdin, env: {} }, s.socket, 'output', false);
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([follow(ctx, c, pane, 0), new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ROUND_MS)))]);
  clearTimeout(timer);
  await new Promise<void>((r) => out.end(r));
  c.close();
  await human.call('pane/close', { pane }).catch(() => undefined);
  return { bytes, sha: hash.digest('hex'), err, ms: Date.now() - t0, code };
}

describe('pane output --follow under CPU contention', () => {
  it(`gets every byte of ${ROUNDS} floods of ${FLOOD_BYTES} bytes, each within ${ROUND_MS} ms, with ${BUSY_LOOPS} busy loops running`, async () => {
    const want = crypto.createHash('sha1').update(EXPECTED).digest('hex');
    const bad: string[] = [];
    let slowest = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const r = await round(i);
      slowest = Math.max(slowest, r.ms);
      if (r.code !== 0 || r.bytes !== EXPECTED.byteLength || r.sha !== want) bad.push(`round ${i}: ${r.code}, ${r.bytes} of ${EXPECTED.byteLength} bytes in ${r.ms} ms${r.err ? `; ${r.err.trim()}` : ''}`);
    }
    expect(bad).toEqual([]);
    expect(slowest).toBeLessThan(ROUND_MS);
  }, SOAK_MS);

  it(`gets every byte through the built \`pane output --follow\` too (${CLI_ROUNDS} rounds, its stdout a pipe)`, async () => {
    const want = crypto.createHash('sha1').update(EXPECTED).digest('hex');
    for (let i = 0; i < CLI_ROUNDS; i++) {
      const { pane } = await human.call('pane/launch', { session: 'soak', launch: { program: '/bin/sh', args: ['-c', SCRIPT] } });
      const child = spawn(BIN, ['--socket', s.socket, 'output', '-t', String(pane), '--follow', '--from', '0'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      const hash = crypto.createHash('sha1');
      let bytes = 0;
      let err = '';
      child.stdout!.on('data', (d: Buffer) => {
        if (bytes === 0) void human.call('pane/input', { pane, data: 'go\r' });
        bytes += d.byteLength;
        hash.update(d);
      });
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      // 'close': the exit and every byte of its stdout.
      const code = await new Promise<number | null | 'timeout'>((resolve) => {
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          resolve('timeout');
        }, ROUND_MS);
        child.once('close', (c) => {
          clearTimeout(t);
          resolve(c);
        });
      });
      // Nothing on stderr but how the program ended (sh exited 0): no gap, no stall.
      expect({ round: i, code, bytes, err }).toEqual({ round: i, code: 0, bytes: EXPECTED.byteLength, err: expect.stringMatching(/^pane: \[sh exited 0 at [0-9:]+\]\n$/) });
      expect(hash.digest('hex')).toBe(want);
      await human.call('pane/close', { pane }).catch(() => undefined);
    }
  }, CLI_ROUNDS * ROUND_MS + 10_000);
});
