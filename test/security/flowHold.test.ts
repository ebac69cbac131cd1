// Attack class: holding a pane paused. Flow control lets a client pause a pane's
// program until it has parsed what it was sent; a client that never acks must lose
// that hold within ACK_STALL_MS, may not buy a fresh one by attaching again, and a
// client that may not write to the pane never holds it at all (pausing a program is
// acting on it). Against a real `pane serve`, with clients over its unix socket: a
// watcher without flow control sees the pane's output stop while it is paused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../kits/client/connection';
import { connectUnix } from '../../kits/node/socketTransport';
import type { Capability } from '../../kits/protocol/method';
import { ACK_STALL_MS } from '../../server/pty/fanout';
import { buildOnce, serve, type Served } from '../cli/harness';

/** The bound docs/security.md promises for ACK_STALL_MS (15 s at f0f52cf). */
const PROMISED_MS = 2_000;
/** Scheduling slack on a loaded 2-core machine: how late a pause's end may be seen, beyond its bound. */
const SLACK_MS = 1_500;
/** A gap this long in a `yes` flood is a pause, not scheduling (floods are seen in ~5 ms batches). */
const PAUSE_MS = 1_000;

let s: Served;
let human: Connection;
beforeAll(async () => {
  buildOnce();
  s = await serve();
  human = await client(['read', 'write', 'attach', 'admin'], 'human');
}, 120_000);
afterAll(async () => {
  human?.close();
  await s?.stop();
});

async function client(capabilities: Capability[], name: string): Promise<Connection> {
  const c = new Connection(await connectUnix(s.socket));
  await c.hello({ client: { name, kind: 'test' }, capabilities });
  return c;
}

/** A pane printing as fast as it can, and a watcher (no flow control) recording the longest silence in its output from now on. */
async function flood() {
  const { pane } = await human.call('pane/launch', { launch: { program: '/usr/bin/yes', args: ['held-or-not'] } });
  const watcher = await client(['read', 'attach'], 'watcher');
  let last = 0;
  let longest = 0;
  let bytes = 0;
  watcher.onOutput((p, _o, d) => {
    if (p !== pane) return;
    const t = performance.now();
    if (last > 0) longest = Math.max(longest, t - last);
    last = t;
    bytes += d.byteLength;
  });
  await watcher.call('pty/attach', { pane, mode: 'from', flowControl: false });
  const deadline = Date.now() + 10_000;
  while (bytes === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(bytes).toBeGreaterThan(0);
  return {
    pane,
    /** Resets the record, then returns the longest silence over the next `ms`. */
    async longestSilence(ms: number): Promise<number> {
      last = performance.now();
      longest = 0;
      await new Promise((r) => setTimeout(r, ms));
      return Math.max(longest, performance.now() - last);
    },
    async close() {
      watcher.close();
      await human.call('pane/close', { pane });
    },
  };
}

describe('holding a pane paused', () => {
  it(`takes the hold from a client that attaches with flow control and never acks within ACK_STALL_MS (${ACK_STALL_MS} ms), says so in /pane/log, and gives no fresh hold on attaching again`, async () => {
    const f = await flood();
    const silent = await client(['read', 'write', 'attach'], 'never-acks');
    await silent.call('pty/attach', { pane: f.pane, mode: 'from', flowControl: true });
    const held = await f.longestSilence(ACK_STALL_MS + SLACK_MS + 1_000);
    // It did hold the pane (flow control works), but only for the bound.
    expect(held).toBeGreaterThan(PAUSE_MS);
    expect(ACK_STALL_MS).toBeLessThanOrEqual(PROMISED_MS);
    expect(held).toBeLessThan(PROMISED_MS + SLACK_MS);
    const log = (await human.call('ns/read', { path: '/log', count: 1 << 20 })).data;
    expect(log).toMatch(new RegExp(`^- refused pane ${f.pane}'s output: client never-acks .* held the pane paused ${ACK_STALL_MS} ms without acknowledging`, 'm'));
    // Detaching and attaching again does not buy another hold.
    await silent.call('pty/detach', { pane: f.pane });
    await silent.call('pty/attach', { pane: f.pane, mode: 'from', flowControl: true });
    expect(await f.longestSilence(ACK_STALL_MS + 1_000)).toBeLessThan(PAUSE_MS);
    silent.close();
    await f.close();
  }, 60_000);

  it('never lets a client that may not write to the pane pause it, whatever flow control it asks for', async () => {
    const f = await flood();
    const viewer = await client(['read', 'attach'], 'viewer');
    await viewer.call('pty/attach', { pane: f.pane, mode: 'from', flowControl: true });
    expect(await f.longestSilence(ACK_STALL_MS + 1_000)).toBeLessThan(PAUSE_MS);
    // The person revoking a client's write permission takes its pacing too.
    const revoked = await client(['read', 'write', 'attach'], 'revoked');
    const id = (await human.call('client/list', {})).clients.find((x) => x.name === 'revoked')!.id;
    await human.call('client/permission', { client: id, canWrite: false });
    await revoked.call('pty/attach', { pane: f.pane, mode: 'from', flowControl: true });
    expect(await f.longestSilence(ACK_STALL_MS + 1_000)).toBeLessThan(PAUSE_MS);
    viewer.close();
    revoked.close();
    await f.close();
  }, 60_000);
});
