// Test harness: a real server (real PTYs, real screen worker) on a temp socket,
// with helpers to connect clients and wait for output or events.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Connection } from '../../kits/client/connection';
import type { Capability } from '../../kits/protocol/method';
import { startServer, type RunningServer, type StartOptions } from '../../server/main';

export interface Harness {
  running: RunningServer;
  dir: string;
  socketPath: string;
  connect(caps?: Capability[], name?: string): Promise<Connection>;
  close(): Promise<void>;
}

export async function harness(o: Partial<StartOptions> = {}): Promise<Harness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-test-'));
  const socketPath = path.join(dir, 's.sock');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    LANG: 'C.UTF-8',
    // A plain, predictable prompt so tests can wait for it.
    PS1: '$ ',
    // bash reads no rc files with these set (see harness shell args below).
    BASH_ENV: '',
  };
  const running = await startServer({ socketPath, host: 'testhost', shell: '/bin/bash', env, dataDir: path.join(dir, 'data'), ...o });
  const conns: Connection[] = [];
  return {
    running,
    dir,
    socketPath,
    async connect(caps, name) {
      const c = await running.connect(caps, name);
      conns.push(c);
      return c;
    },
    async close() {
      for (const c of conns) c.close();
      await running.stop();
      // Shells being killed (history) and background state writers may still be
      // writing into the temp home for a moment after stop: retry, then leave it.
      for (let i = 0; ; i++) {
        try {
          fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
          break;
        } catch (e) {
          if (i >= 5) {
            console.warn(`harness: could not remove ${dir}: ${(e as Error).message}`);
            break;
          }
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    },
  };
}

/** Polls `pty/read` until the pane's output contains `needle` (or times out naming it). */
export async function waitForOutput(c: Connection, pane: number, needle: string | RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    const r = await c.call('pty/read', { pane, from: 0, maxBytes: 16 << 20 });
    text = r.data;
    if (typeof needle === 'string' ? text.includes(needle) : needle.test(text)) return text;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`pane ${pane} never printed ${String(needle)}; it printed: ${JSON.stringify(text.slice(-500))}`);
}

export async function until<T>(what: string, f: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}
