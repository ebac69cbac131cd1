import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { byteRelay, cPtyRelay, ptyRelay, type StandIn } from '../../bench/nodeFloor';

// The bench's floor stand-ins (bench/nodeFloor.ts) are anchors of the hosts rows: each
// must be what its row says, a separate Node process passing bytes, or the row's ratio lies.

let dir: string;
const started: StandIn[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-floor-'));
});

afterEach(() => {
  for (const s of started.splice(0)) s.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Resolves with what `sock` sends until it holds `want`, bounded. */
function until(sock: net.Socket, want: string, ms = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const t = setTimeout(() => reject(new Error(`never got ${JSON.stringify(want)}; got ${JSON.stringify(got)}`)), ms);
    sock.on('data', (d: Buffer) => {
      got += d.toString('latin1');
      if (got.includes(want)) {
        clearTimeout(t);
        resolve(got);
      }
    });
  });
}

describe('the Node floor stand-ins of the hosts bench', () => {
  it('the byte relay is its own process and passes bytes both ways, unread', async () => {
    const back = path.join(dir, 'back.sock');
    const server = net.createServer((c) => c.on('data', (d: Buffer) => c.write(Buffer.concat([Buffer.from('echo:'), d]))));
    await new Promise<void>((r) => server.listen(back, r));
    try {
      const relay = await byteRelay(path.join(dir, 'front.sock'), back);
      started.push(relay);
      expect(relay.proc.pid).toBeGreaterThan(0);
      expect(relay.proc.pid).not.toBe(process.pid);
      const c = net.connect(path.join(dir, 'front.sock'));
      const heard = until(c, 'echo:{"t":"req"}\n');
      c.write('{"t":"req"}\n');
      expect(await heard).toBe('echo:{"t":"req"}\n');
      c.destroy();
    } finally {
      server.close();
    }
  });

  /** The C relay, built for the test as the bench builds it; the machine's cc is part of what the suite installs. */
  async function inC(socket: string, script: string) {
    const r = await cPtyRelay(dir, socket, script);
    if (typeof r === 'string') throw new Error(r);
    return r;
  }

  it.each([
    ['Node', ptyRelay],
    ['C', inC],
  ] as const)('the PTY relay in %s runs its program in a real terminal and relays keys to it and its echo back, byte for byte', async (_lang, ptyRelay) => {
    const relay = await ptyRelay(path.join(dir, 'pty.sock'), 'tty; stty raw -echo; exec cat');
    started.push(relay);
    // The program's first words may come before the client was taken: the key's echo is what the bench times.
    let echoed = '';
    for (let i = 0; i < 50 && !echoed.includes('q'); i++) {
      const heard = until(relay.client, 'q', 200).catch(() => '');
      relay.client.write('q');
      echoed = await heard;
    }
    expect(echoed).toContain('q');
    // A byte above 0x7F comes back as itself (é in UTF-8: C3 A9), not re-encoded on its way into the PTY. (The
    // program's `tty` line may come after it, when the first key's echo was the terminal's own, before `stty raw`.)
    const wide = until(relay.client, '\u00c3\u00a9');
    relay.client.write(Buffer.of(0xc3, 0xa9));
    expect(await wide).toContain('\u00c3\u00a9');
    // A pane's program sees a terminal: ask the same script's tty again through a second relay whose client connects first.
    const tty = await ptyRelay(path.join(dir, 'tty.sock'), 'sleep 0.3; tty; exec cat');
    started.push(tty);
    expect(await until(tty.client, '\n')).toMatch(/^\/dev\/pts\/\d+\r?\n/);
  });

  it('a stand-in that cannot listen is said, not waited on', async () => {
    await expect(byteRelay(path.join(dir, 'no-such-dir', 'front.sock'), path.join(dir, 'back.sock'))).rejects.toThrow(/stand-in \(node\) ended \(1\): .*listen (EACCES|ENOENT)/s);
  });
});
