import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, buildOnce, cleanEnv } from '../../../test/cli/harness';
import { encodeFrame, FrameDecoder } from '../framing';

let dir: string;
beforeAll(() => {
  buildOnce();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-hook-'));
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs `pane hook` with the event on stdin; resolves to its exit, output and wall time. */
function hook(socket: string): Promise<{ code: number | null; out: string; ms: number }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [BIN, '--socket', socket, 'hook'], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) => resolve({ code, out, ms: Date.now() - t0 }));
    child.stdin.end(JSON.stringify({ hook_event_name: 'Stop', session_id: 's' }));
  });
}

describe('pane hook under a hung server', () => {
  for (const answersHello of [false, true]) {
    it(`exits 0 printing nothing within its budget when the server ${answersHello ? 'answers hello, then never the hook' : 'accepts but never answers'}`, async () => {
      const socket = path.join(dir, `silent-${answersHello}.sock`);
      const conns: net.Socket[] = [];
      const srv = net.createServer((s) => {
        conns.push(s);
        const dec = new FrameDecoder();
        s.on('data', (chunk: Buffer) => {
          for (const f of dec.push(chunk)) {
            const m = JSON.parse(String(f)) as { id: number; method: string };
            if (answersHello && m.method === 'hello') {
              const result = { protocol: 1, server: { host: 'x', version: '0', pid: 1 }, client: 'c', capabilities: ['read', 'write'], user: 'u' };
              s.write(encodeFrame(JSON.stringify({ t: 'res', id: m.id, ok: true, result })));
            }
          }
        });
      });
      await new Promise<void>((r) => srv.listen(socket, r));
      try {
        const r = await hook(socket);
        expect([r.code, r.out]).toEqual([0, '']);
        // 1.5 s budget plus process start and the 200 ms socket teardown, with room for a loaded machine.
        expect(r.ms).toBeLessThan(6000);
      } finally {
        for (const c of conns) c.destroy();
        srv.close();
      }
    });
  }
});
