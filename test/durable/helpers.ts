// Shared by the durability tests: a temp home with a state dir, servers started on it
// in turn (in-process, real PTYs), and bounded polling.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../server/main';

export interface Home {
  dir: string;
  stateDir: string;
  env: Record<string, string>;
  start(o?: { warn?: (m: string) => void }): Promise<RunningServer>;
  cleanup(): void;
}

export function home(): Home {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-durable-'));
  const stateDir = path.join(dir, 'state', 'pane');
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', PS1: '$ ', BASH_ENV: '' };
  fs.mkdirSync(path.join(dir, 'config'), { recursive: true });
  return {
    dir,
    stateDir,
    env,
    start: (o = {}) =>
      startServer({ socketPath: null, host: 'testhost', shell: '/bin/bash', env, dataDir: path.join(dir, 'data'), configDir: path.join(dir, 'config'), stateDir, ...(o.warn ? { warn: o.warn } : {}) }),
    cleanup: () => {
      // Programs killed a moment ago (shell history, agent logs) may still be writing: retry, then leave it.
      try {
        fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch (e) {
        console.warn(`could not remove ${dir}: ${(e as Error).message}`);
      }
    },
  };
}

/** Polls `f` until it returns a truthy value; fails naming `what`. */
export async function until<T>(what: string, f: () => T | Promise<T>, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await f();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
