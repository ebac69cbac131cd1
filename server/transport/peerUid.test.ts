// peerUid against the kernel's real socket table: loopback connections of this
// process found by their ports among many (more lines than one read hands out),
// and a table read only as far as the peer's line.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { peerUid } from './peerUid';

/** Connections held open at once: ~150 bytes a line, so several reads of the table. */
const HELD = 120;

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

/** A loopback listener and `n` connections to it; the accepted (server) ends, in order. */
async function loopback(n: number): Promise<net.Socket[]> {
  const accepted: net.Socket[] = [];
  const srv = net.createServer((s) => accepted.push(s));
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  const clients: net.Socket[] = [];
  for (let i = 0; i < n; i++) {
    const c = net.connect(port, '127.0.0.1');
    await new Promise((r) => c.once('connect', r));
    clients.push(c);
  }
  for (let i = 0; i < 200 && accepted.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  cleanup.push(() => {
    for (const s of [...clients, ...accepted]) s.destroy();
    srv.close();
  });
  return accepted;
}

describe('peerUid', () => {
  it('finds the uid of a loopback peer among many connections, the first and the last made', async () => {
    const ends = await loopback(HELD);
    expect(ends).toHaveLength(HELD);
    const me = process.getuid!();
    for (const s of [ends[0]!, ends[HELD >> 1]!, ends[HELD - 1]!]) expect(await peerUid(s)).toBe(me);
  });

  it('says undefined for a socket the table does not hold, and null where no table can be read', async () => {
    const [s] = await loopback(1);
    const gone = { remotePort: 1, localPort: 1, destroyed: false } as unknown as net.Socket;
    expect(await peerUid(gone)).toBeUndefined();
    expect(await peerUid(s!, ['/nonexistent/tcp'])).toBeNull();
  });

  it('stops reading a table once the peer is found', async () => {
    // A table that never ends: a FIFO whose writer sends a header and the peer's line, then holds it open.
    // Read to its end, the lookup would wait for ever; read as far as the line, it answers.
    const [s] = await loopback(1);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-peeruid-'));
    const fifo = path.join(dir, 'tcp');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
    const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
    const line = `   0: 0100007F:${hex(s!.remotePort!)} 0100007F:${hex(s!.localPort!)} 01 00000000:00000000 00:00000000 00000000  4242        0 12345 1 0000000000000000 20 4 30 10 -1\n`;
    const writer: ChildProcess = spawn('sh', ['-c', `exec 3>"$F"; printf '%s%s' "$H" "$L" >&3; exec sleep 30`], { env: { ...process.env, H: header, L: line, F: fifo }, stdio: 'ignore' });
    cleanup.push(() => {
      writer.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const found = await Promise.race([peerUid(s!, [fifo]), new Promise((r) => setTimeout(() => r('still reading'), 5_000))]);
    expect(found).toBe(4242);
  });
});
