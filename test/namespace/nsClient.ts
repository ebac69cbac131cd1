// Test helpers for the namespace over the protocol: read a whole file through a
// handle piece by piece, write text, and expect typed errors.
import fs from 'node:fs';
import { expect } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { PaneFault } from '../../kits/protocol/error';
import type { Harness } from '../server/harness';

export function bytes(r: { data: string; encoding: 'utf8' | 'base64' }): Buffer {
  return Buffer.from(r.data, r.encoding === 'base64' ? 'base64' : 'utf8');
}

/** The whole file, read by offset through one handle; also returns the largest piece seen. */
export async function readAll(c: Connection, path: string, count = 64 << 10): Promise<{ text: string; pieces: number; largest: number }> {
  const { fid } = await c.call('ns/open', { path, mode: 'r' });
  const parts: Buffer[] = [];
  let offset = 0;
  let largest = 0;
  try {
    for (;;) {
      const r = await c.call('ns/read', { path, fid, offset, count });
      parts.push(bytes(r));
      largest = Math.max(largest, r.count);
      offset = r.offset + r.count;
      if (r.eof || r.count === 0) break;
    }
  } finally {
    await c.call('ns/close', { fid });
  }
  return { text: Buffer.concat(parts).toString('utf8'), pieces: parts.length, largest };
}

/** One path read (no handle): what `pane cat` of a small file shows. */
export async function cat(c: Connection, path: string): Promise<string> {
  return bytes(await c.call('ns/read', { path, count: 1 << 20 })).toString('utf8');
}

export async function put(c: Connection, path: string, text: string) {
  return c.call('ns/write', { path, data: text });
}

/** Awaits a typed failure and returns it (fails the test on success). */
export async function fault(p: Promise<unknown>): Promise<PaneFault> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PaneFault) return e;
    throw e;
  }
  expect.fail('expected a typed error, got success');
}

/**
 * Stops the harness server. A shell killed at stop may still write its history
 * into the temp HOME while the harness removes it (ENOTEMPTY): retry the removal.
 */
export async function closeHarness(h: Harness): Promise<void> {
  try {
    await h.close();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw e;
    fs.rmSync(h.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}
