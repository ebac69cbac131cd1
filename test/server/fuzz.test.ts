// Sends 10,000+ random and mutated frames at a real server over its unix
// socket, then checks the server still answers another client.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame } from '../../kits/node/framing';
import { connectUnix } from '../../kits/node/socketTransport';
import { checkResults, Connection } from '../../kits/client/index';
import { BinaryKind, encodeBinary } from '../../kits/protocol/envelope';
import { methodFixtures } from '../fixtures/protocol';
import { harness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  // cat is a cheap program for the panes fuzzed splits start; the terminal limit
  // is low so that creation requests also exercise the limit's typed refusal.
  h = await harness({ shell: '/bin/cat', maxTerminals: 40 });
});
afterAll(async () => {
  await h.close();
});

/** Deterministic PRNG so a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const JUNK: unknown[] = [null, true, -1, 0, 1.5, 1e308, '', 'x'.repeat(300), [], {}, { a: 1 }, [1, 2], 'devbox:', -0, 'main', '../../etc'];

function mutate(v: unknown, r: () => number, depth = 0): unknown {
  if (depth > 4 || r() < 0.2) return JUNK[Math.floor(r() * JUNK.length)];
  if (Array.isArray(v)) return v.map((x) => (r() < 0.3 ? mutate(x, r, depth + 1) : x));
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const roll = r();
      if (roll < 0.1) continue;
      o[roll < 0.15 ? `${k}_` : k] = roll < 0.5 ? mutate(x, r, depth + 1) : x;
    }
    return o;
  }
  return r() < 0.5 ? JUNK[Math.floor(r() * JUNK.length)] : v;
}

function frames(r: () => number, n: number): (string | Uint8Array)[] {
  // PANE_FUZZ_ONLY=ns/,agent/ narrows the fuzz to some families when hunting a crash.
  const only = process.env.PANE_FUZZ_ONLY?.split(',');
  const skip = process.env.PANE_FUZZ_SKIP?.split(',');
  const names = Object.keys(methodFixtures).filter((n) => (!only || only.some((o) => n.startsWith(o))) && !skip?.some((o) => n.startsWith(o)));
  const out: (string | Uint8Array)[] = [JSON.stringify({ t: 'req', id: 0, method: 'hello', params: { protocol: 1, client: { name: 'fuzz', kind: 'test' }, capabilities: ['read', 'write', 'attach'] } })];
  for (let i = 0; i < n; i++) {
    const roll = r();
    const name = names[Math.floor(r() * names.length)]!;
    // Never ask the server to stop or kill everything: the point is to survive input, not obey it.
    if (['server/stop', 'session/kill', 'session/new', 'session/restore'].includes(name)) continue;
    const fx = methodFixtures[name as keyof typeof methodFixtures];
    if (roll < 0.45) out.push(JSON.stringify({ t: 'req', id: i + 1, method: name, params: mutate(fx.params, r) }));
    else if (roll < 0.6) out.push(JSON.stringify(mutate({ t: 'req', id: i + 1, method: name, params: fx.params }, r)));
    else if (roll < 0.7) {
      const s = JSON.stringify({ t: 'req', id: i + 1, method: name, params: fx.params });
      const cut = Math.floor(r() * s.length);
      out.push(s.slice(0, cut) + String.fromCharCode(Math.floor(r() * 128)) + s.slice(cut + 1));
    } else if (roll < 0.8) {
      const b = new Uint8Array(Math.floor(r() * 40));
      for (let j = 0; j < b.length; j++) b[j] = Math.floor(r() * 256);
      out.push(b);
    } else if (roll < 0.88) {
      out.push(encodeBinary({ kind: BinaryKind.INPUT, pane: Math.floor(r() * 5), offset: 0, data: new Uint8Array([0x20]) }));
    } else if (roll < 0.94) out.push(JSON.stringify({ t: 'req', id: i + 1, method: `nope/${i}`, params: {} }));
    else out.push(JSON.stringify(mutate({ t: 'res', id: i, ok: true, result: {} }, r)));
  }
  return out;
}

async function blast(socketPath: string, payload: Buffer): Promise<void> {
  await new Promise<void>((resolve) => {
    const s = net.createConnection({ path: socketPath });
    s.on('error', () => resolve());
    s.on('close', () => resolve());
    s.on('data', () => undefined);
    s.on('connect', () => {
      s.write(payload, () => setTimeout(() => s.end(), 50));
    });
    setTimeout(() => {
      s.destroy();
      resolve();
    }, 5000);
  });
}

describe('fuzzing the wire', () => {
  it('survives 10,000 random and mutated frames and still answers pane/list for another client', async () => {
    const r = rng(20261121);
    let sent = 0;
    // Well-framed junk, in batches, on several connections.
    for (let batch = 0; batch < 12; batch++) {
      const fs = frames(r, 1000);
      sent += fs.length;
      await blast(h.socketPath, Buffer.concat(fs.map((f) => encodeFrame(f))));
    }
    // Broken framing: absurd lengths, zero lengths, unknown kinds, truncation.
    for (let i = 0; i < 200; i++) {
      const b = Buffer.alloc(8 + Math.floor(r() * 32));
      for (let j = 0; j < b.length; j++) b[j] = Math.floor(r() * 256);
      if (i % 3 === 0) b.writeUInt32BE(0, 0);
      await blast(h.socketPath, b);
      sent++;
    }
    expect(sent).toBeGreaterThanOrEqual(10_000);
    const t = await connectUnix(h.socketPath);
    const c = new Connection(t, { checkResult: checkResults });
    await c.hello({ client: { name: 'after', kind: 'test' }, capabilities: ['read'] });
    const { panes } = await c.call('pane/list', {});
    expect(panes.length).toBeGreaterThan(0);
    c.close();
  }, 120_000);

  it('answers typed protocol errors for the classic mistakes', async () => {
    const t = await connectUnix(h.socketPath);
    const got: unknown[] = [];
    t.onFrame((f) => got.push(JSON.parse(f as string)));
    t.send(JSON.stringify({ t: 'req', id: 1, method: 'pane/list', params: {} }));
    t.send('{not json');
    t.send(JSON.stringify({ t: 'req', id: 2, method: 'hello', params: { protocol: 99, client: { name: 'x', kind: 'test' }, capabilities: ['read'] } }));
    t.send(JSON.stringify({ t: 'req', id: 3, method: 'hello', params: { protocol: 1, client: { name: 'x', kind: 'test' }, capabilities: ['read', 'write'] } }));
    t.send(JSON.stringify({ t: 'req', id: 4, method: 'pane/teleport', params: {} }));
    t.send(JSON.stringify({ t: 'req', id: 5, method: 'pane/split', params: { ratio: 'half' } }));
    t.send(JSON.stringify({ t: 'req', id: 6, method: 'client/permission', params: { client: 'x', canWrite: true } }));
    await new Promise((res) => setTimeout(res, 300));
    const codes = got.map((g) => {
      const x = g as { id: number | null; ok: boolean; error?: { code: string; message: string } };
      return [x.id, x.ok ? 'ok' : x.error!.code];
    });
    expect(codes).toEqual([
      [1, 'not-ready'],
      [null, 'bad-request'],
      [2, 'version-mismatch'],
      [3, 'ok'],
      [4, 'unknown-method'],
      [5, 'bad-request'],
      [6, 'denied'],
    ]);
    const five = got[5] as { error: { message: string } };
    expect(five.error.message).toBe('invalid params for pane/split: ratio: Invalid input: expected number, received string');
    t.close();
  });
});
