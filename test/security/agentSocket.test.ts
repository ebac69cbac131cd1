// Attack class: an agent's own socket (pane.sock in its home, the only door its
// sandbox leaves it) held open, left silent or fed garbage before hello. At f0f52cf
// it had no cap, no hello deadline and no byte limit before hello; now it admits as
// the person's socket does (server/transport/admission.ts), per socket and in total.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder } from '../../kits/node/framing';
import { ensureEndpoint } from '../../server/transport/agentSocket';
import { MAX_AGENT_CONNECTIONS, MAX_AGENT_SOCKET_CONNECTIONS, MAX_BYTES_BEFORE_HELLO } from '../../server/transport/admission';
import { agentHarness, type AgentHarness } from '../agents/helpers';

const HELLO_MS = 400;

let h: AgentHarness;
beforeAll(async () => {
  h = await agentHarness({ shell: '/bin/cat', helloTimeoutMs: HELLO_MS });
});
afterAll(() => h?.close());

const hello = encodeFrame(JSON.stringify({ t: 'req', id: 1, method: 'hello', params: { protocol: 1, client: { name: 'held', kind: 'test' }, capabilities: ['read'] } }));

/** A raw connection to `file`; resolves how it ended (or 'open' after `ms`) and the frames it got. */
function raw(file: string, send?: Buffer, ms = 5000): Promise<{ ended: string; frames: { ok?: boolean; error?: { code: string; message: string }; result?: { user?: string } }[]; afterMs: number }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const s = net.createConnection({ path: file });
    const dec = new FrameDecoder();
    const frames: never[] = [];
    const timer = setTimeout(() => {
      s.destroy();
      resolve({ ended: 'open', frames, afterMs: Date.now() - t0 });
    }, ms);
    s.on('data', (b) => frames.push(...(dec.push(b).map((f) => (typeof f === 'string' ? JSON.parse(f) : f)) as never[])));
    s.on('close', () => {
      clearTimeout(timer);
      resolve({ ended: 'closed', frames, afterMs: Date.now() - t0 });
    });
    s.on('error', () => undefined);
    if (send) s.on('connect', () => s.write(send));
  });
}

/** Opens `n` connections to `file` that each say hello and stay; resolves once all are welcomed. */
async function hold(file: string, n: number): Promise<net.Socket[]> {
  return Promise.all(
    Array.from({ length: n }, () => {
      return new Promise<net.Socket>((resolve, reject) => {
        const s = net.createConnection({ path: file });
        const dec = new FrameDecoder();
        s.on('error', reject);
        s.on('data', (b) => {
          for (const f of dec.push(b)) if (typeof f === 'string' && (JSON.parse(f) as { id?: number }).id === 1) resolve(s);
        });
        s.on('connect', () => s.write(hello));
      });
    }),
  );
}

async function agent(name: string): Promise<string> {
  const human = await h.connect();
  if (!h.svc.store.exists(name)) await human.call('agent/add', { name });
  return ensureEndpoint(h.running.services, h.svc, name);
}

const refusedLines = () => h.events.filter((e) => e.event === 'client/refused').map((e) => `${e.data.door as string}: ${e.data.reason as string}`);

describe("an agent's own socket admits as the person's does", () => {
  it('closes a connection that does not say hello within the deadline, and logs it', async () => {
    const file = await agent('ada');
    const r = await raw(file, undefined, HELLO_MS + 5000);
    expect(r.ended).toBe('closed');
    expect(refusedLines().some((l) => /^agent ada's socket: closed a connection before hello: no hello within 400 ms/.test(l))).toBe(true);
    // The socket still speaks as ada afterwards.
    const ok = await raw(file, hello, 1000);
    expect(ok.frames[0]).toMatchObject({ ok: true, result: { user: 'ada' } });
  });

  it('closes a connection that sends more than MAX_BYTES_BEFORE_HELLO before hello', async () => {
    const file = await agent('ada');
    // A length prefix announcing 8 MiB, then more than the bound of it: the server must not wait for the rest.
    const head = Buffer.alloc(5);
    head.writeUInt32BE(8 << 20, 0);
    const r = await raw(file, Buffer.concat([head, Buffer.alloc(MAX_BYTES_BEFORE_HELLO + 1024)]), HELLO_MS - 100);
    expect(r.ended).toBe('closed');
    expect(refusedLines().some((l) => l.includes(`before hello (limit ${MAX_BYTES_BEFORE_HELLO})`))).toBe(true);
  });

  it(`refuses the connection past MAX_AGENT_SOCKET_CONNECTIONS (${MAX_AGENT_SOCKET_CONNECTIONS}) on one agent's socket with busy, and leaves the others' open`, async () => {
    const ada = await agent('ada');
    const bob = await agent('bob');
    const held = await hold(ada, MAX_AGENT_SOCKET_CONNECTIONS);
    const r = await raw(ada, hello, 5000);
    expect(r.ended).toBe('closed');
    expect(r.frames[0]).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(r.frames[0]!.error!.message).toMatch(/^agent ada's socket: 32 connections at once is the limit; close some pane clients and retry$/);
    expect((await raw(bob, hello, 1000)).frames[0]).toMatchObject({ ok: true, result: { user: 'bob' } });
    for (const s of held) s.destroy();
    await expect.poll(async () => (await raw(ada, hello, 500)).frames[0]?.ok, { timeout: 10_000 }).toBe(true);
  });

  it(`refuses past MAX_AGENT_CONNECTIONS (${MAX_AGENT_CONNECTIONS}) on all agents' sockets together`, async () => {
    const per = MAX_AGENT_SOCKET_CONNECTIONS;
    const names = Array.from({ length: Math.ceil(MAX_AGENT_CONNECTIONS / per) + 1 }, (_, i) => `a${i}`);
    const files = [];
    for (const n of names) files.push(await agent(n));
    const held: net.Socket[] = [];
    for (let i = 0; i < MAX_AGENT_CONNECTIONS / per; i++) held.push(...(await hold(files[i]!, per)));
    const last = files[files.length - 1]!;
    const r = await raw(last, hello, 5000);
    expect(r.frames[0]).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(r.frames[0]!.error!.message).toMatch(/^all agents' sockets together: 256 connections at once is the limit/);
    // The person's socket is another door, with its own count.
    expect((await raw(h.socketPath, hello, 1000)).frames[0]).toMatchObject({ ok: true });
    for (const s of held) s.destroy();
    await expect.poll(async () => (await raw(last, hello, 500)).frames[0]?.ok, { timeout: 10_000 }).toBe(true);
  }, 60_000);
});
