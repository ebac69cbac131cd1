// Attack class: a reply or event larger than a frame. At f0f52cf the server sent it
// and every client dropped it unread (kits/client/connection.ts), so the call hung
// forever: a few large app files made `apps/list` (the launcher) never answer. Now
// the server refuses it with `too-large` naming the method, the size, the limit and
// what to do, logs it, and goes on serving. Against a real server over its unix socket.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../kits/client/connection';
import { checkResults } from '../../kits/client/checkResults';
import { connectUnix } from '../../kits/node/socketTransport';
import { MAX_JSON_FRAME } from '../../kits/protocol/binary';
import type { PaneFault } from '../../kits/protocol/fault';
import { MAX_ARG_LENGTH } from '../../kits/protocol/limits';
import { attachConfig } from '../../server/config/configService';
import { encodePiece } from '../../server/namespace/service';
import { NS_MAX_COUNT } from '../../kits/protocol/namespace';
import { harness, type Harness } from '../server/harness';

let h: Harness;
let c: Connection;
let appsDir: string;
beforeAll(async () => {
  h = await harness({ shell: '/bin/cat' });
  const cfg = path.join(h.dir, 'config');
  appsDir = path.join(cfg, 'apps');
  fs.mkdirSync(appsDir, { recursive: true });
  attachConfig(h.running.services, { configDir: cfg, appsDir: null });
  c = new Connection(await connectUnix(h.socketPath), { checkResult: checkResults });
  await c.hello({ client: { name: 'too-large test', kind: 'test' }, capabilities: ['read', 'write', 'admin'] });
});
afterAll(async () => {
  c?.close();
  await h?.close();
});

/** An app file within every bound of its own, of about `bytes`: an argv of long arguments. */
function bigApp(i: number, bytes: number): string {
  const args = Array.from({ length: Math.ceil(bytes / MAX_ARG_LENGTH) }, () => 'x'.repeat(MAX_ARG_LENGTH - 1));
  return JSON.stringify({ name: `Big ${i}`, signature: `org.example.big${i}`, launch: { program: '/bin/true', args } });
}

const refusal = (p: Promise<unknown>) => p.then(() => null, (e: PaneFault) => e);

describe('replies that do not fit a frame', () => {
  it('refuses an app list larger than a frame with too-large naming the method, size, limit and fix, and keeps serving', async () => {
    const each = 900 << 10;
    const files = Math.ceil(MAX_JSON_FRAME / each) + 1;
    for (let i = 0; i < files; i++) fs.writeFileSync(path.join(appsDir, `big${i}.json`), bigApp(i, each));
    await expect.poll(() => h.running.services.config.apps.apps.length, { timeout: 10_000 }).toBe(files);
    expect(h.running.services.config.apps.errors).toEqual([]);
    const t0 = Date.now();
    const e = await refusal(c.call('apps/list', {}));
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(e?.code).toBe('too-large');
    expect(e?.message).toMatch(new RegExp(`^the reply to apps/list is \\d+ bytes \\(\\d+\\.\\d MiB\\), over the ${MAX_JSON_FRAME}-byte \\(4\\.0 MiB\\) frame limit, so it was not sent; shrink or remove app files`));
    // The same connection and the server go on serving, and /pane/log says what was refused.
    expect((await c.call('session/list', {})).sessions.length).toBeGreaterThan(0);
    const log = (await c.call('ns/read', { path: '/log', count: 1 << 20 })).data;
    expect(log).toMatch(/- refused unix client too-large test: the reply to apps\/list is \d+ bytes/);
  }, 30_000);

  it('sends a subscriber an error naming an event too large to send, instead of nothing', async () => {
    const errors: PaneFault[] = [];
    c.onError((f) => errors.push(f));
    await c.call('events/subscribe', { families: ['config'] });
    fs.writeFileSync(path.join(appsDir, 'one-more.json'), bigApp(99, 100 << 10));
    await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(errors[0]!.code).toBe('too-large');
    expect(errors[0]!.message).toMatch(/^the event apps\/changed is \d+ bytes .* frame limit, so it was not sent; shrink or remove app files/);
    for (const f of fs.readdirSync(appsDir)) fs.rmSync(path.join(appsDir, f));
    await expect.poll(async () => (await c.call('apps/list', {})).apps.length, { timeout: 10_000 }).toBe(0);
  }, 30_000);

  it('pages a pty/read whose bytes as JSON would not fit a frame (control bytes are six characters each), and the reader gets every byte', async () => {
    const size = 1 << 20;
    const r = await c.call('pane/split', { launch: { program: '/bin/sh', args: ['-c', `head -c ${size} /dev/zero | tr '\\000' '\\001'; exec sleep 600`] } });
    await expect.poll(async () => (await c.call('pty/read', { pane: r.pane, maxBytes: 1 })).streamEnd, { timeout: 20_000 }).toBeGreaterThanOrEqual(size);
    const first = await c.call('pty/read', { pane: r.pane, from: 0, maxBytes: size });
    expect(first.to - first.from).toBeGreaterThan(0);
    expect(first.to - first.from).toBeLessThan(size); // paged: 1 MiB of \u0001 is 6 MiB of JSON
    let got = 0;
    for (let at = 0, i = 0; at < size && i < 64; i++) {
      const b = await c.call('pty/read', { pane: r.pane, from: at, maxBytes: size });
      got += [...b.data].filter((ch) => ch === '\u0001').length;
      at = b.to;
    }
    expect(got).toBe(size);
    await c.call('pane/close', { pane: r.pane });
  }, 60_000);

  it('sends a namespace piece of control bytes that would not fit a frame as text as base64', () => {
    const controls = encodePiece(Buffer.alloc(NS_MAX_COUNT, 1));
    expect(controls.encoding).toBe('base64');
    expect(Buffer.from(controls.data, 'base64')).toEqual(Buffer.alloc(NS_MAX_COUNT, 1));
    expect(encodePiece(Buffer.from('plain text\n'.repeat(NS_MAX_COUNT / 11))).encoding).toBe('utf8');
  });
});
