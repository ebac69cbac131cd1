// A follower is flow-controlled (it acks what its stdout took, so a slow one gets
// every byte), but one whose stdout stops — `pane output --follow | less`, left
// paused — must not hold the pane: the server waits for it at most ACK_STALL_MS,
// the program runs to its end, another reader sees all of it, and when the stopped
// reader's stdout moves again it is told, in bytes and offsets, what it lost.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../kits/client/connection';
import { connectUnix } from '../../kits/node/socketTransport';
import { ACK_STALL_MS } from '../../server/pty/fanout';
import { BIN, buildOnce, cleanEnv, serve, type Served } from './harness';

/** Far past the 2 MiB ring, and past what the server (8 MiB) and the follower (8 MiB) may queue for a reader that reads nothing. */
const FLOOD_BYTES = 40_000_000;

let s: Served;
beforeAll(async () => {
  buildOnce();
  s = await serve();
  expect(s.pane(['new', '--session', 'stop', '--', '/bin/sleep', '600']).status).toBe(0);
}, 60_000);
afterAll(async () => {
  await s?.stop();
});

describe('a follower whose stdout stops', () => {
  it('holds the pane no longer than ACK_STALL_MS, and is told what it lost once it reads again', async () => {
    const made = s.pane(['new', '--session', 'stop', '--', '/bin/sh', '-c', `stty -echo; printf R; read go; head -c ${FLOOD_BYTES} /dev/zero | tr '\\0' x; printf E; sleep 600`]);
    expect(made.status).toBe(0);
    const pane = Number(made.stdout.trim());
    const child = spawn(BIN, ['--socket', s.socket, 'output', '-t', String(pane), '--from', '0', '--follow'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    let got = 0;
    let tail = '';
    const first = new Promise<void>((r) => child.stdout!.once('data', () => r()));
    child.stdout!.on('data', (d: Buffer) => {
      got += d.byteLength;
      tail = (tail + d.toString('latin1')).slice(-16);
    });
    await first;
    // Now the reader stops reading: its pipe fills, then the follower's queue, then the server's.
    child.stdout!.pause();
    const c = new Connection(await connectUnix(s.socket));
    await c.hello({ client: { name: 'watcher', kind: 'cli' }, capabilities: ['read', 'write'] });
    const t0 = Date.now();
    await c.call('pane/input', { pane, data: 'go\r' });
    // The program runs to its end without the stopped reader: ACK_STALL_MS of hold, then the flood's own pace.
    let end = 0;
    while (Date.now() - t0 < ACK_STALL_MS + 25_000) {
      end = (await c.call('pty/read', { pane, maxBytes: 1 })).streamEnd;
      if (end >= FLOOD_BYTES + 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(end).toBeGreaterThanOrEqual(FLOOD_BYTES + 2);
    // The stopped reader still has nowhere near all of it.
    expect(got).toBeLessThan(FLOOD_BYTES / 2);
    child.stdout!.resume();
    // Reading again, it catches up to the end and says what the ring dropped meanwhile.
    const deadline = Date.now() + 30_000;
    while (!tail.endsWith('E') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(tail.endsWith('xE')).toBe(true);
    expect(err).toMatch(new RegExp(`^pane: note: pane ${pane} output from \\d+ to \\d+ was dropped from its ring; continuing from \\d+\\n`));
    child.kill('SIGINT');
    c.close();
  }, 90_000);
});
