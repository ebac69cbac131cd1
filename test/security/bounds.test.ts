// Attack class: growing the server without bound or stalling it for others. Each
// resource a client can make the server hold has a named bound (docs/security.md);
// each test drives a real server past one and checks the refusal or the pruning,
// and that the server goes on serving. At 77a17e2 none of these bounds existed.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Connection } from '../../kits/client/connection';
import { encodeFrame, FrameDecoder } from '../../kits/node/framing';
import { MAX_DELIVERED_LINE_BYTES, MAX_DELIVERY_QUEUE, MAX_DELIVERY_QUEUE_BYTES, MAX_HOOK_SESSIONS_PER_AGENT } from '../../server/agents/limits';
import { MAX_COLS, MAX_ROWS } from '../../server/model/sizeLimits';
import { MAX_HANDLES_PER_CLIENT } from '../../server/namespace/namespace';
import { MAX_INPUT_QUEUE } from '../../server/pty/terminal';
import { MAX_BYTES_BEFORE_HELLO, MAX_UNIX_CONNECTIONS } from '../../server/transport/admission';
import { MAX_WS_CONNECTIONS } from '../../server/transport/httpFront';
import { agentHarness, type AgentHarness } from '../agents/helpers';

const HELLO_MS = 400;
const STALL_MS = 600;
/** The HTTP front's ping interval here (WS_PING_MS in a daemon). */
const PING_MS = 400;

let h: AgentHarness;
let c: Connection;
beforeAll(async () => {
  h = await agentHarness({ shell: '/bin/cat', helloTimeoutMs: HELLO_MS, ackStallMs: STALL_MS, wsPingMs: PING_MS, http: { port: 0 } });
  c = await h.connect();
});
afterAll(() => h?.close());

async function until<T>(what: string, f: () => T | Promise<T>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const refusal = (p: Promise<unknown>) => p.then(() => ({ code: 'none', message: 'it succeeded' }), (e: { code: string; message: string }) => e);

/** A raw unix connection; resolves how it ended (or 'open' after `ms`). */
function rawUnix(send?: Buffer, ms = 5000): Promise<{ ended: string; frames: unknown[] }> {
  return new Promise((resolve) => {
    const s = net.createConnection({ path: h.socketPath });
    const dec = new FrameDecoder();
    const frames: unknown[] = [];
    const timer = setTimeout(() => {
      s.destroy();
      resolve({ ended: 'open', frames });
    }, ms);
    s.on('data', (b) => frames.push(...dec.push(b).map((f) => (typeof f === 'string' ? JSON.parse(f) : f))));
    s.on('close', () => {
      clearTimeout(timer);
      resolve({ ended: 'closed', frames });
    });
    s.on('error', () => undefined);
    if (send) s.on('connect', () => s.write(send));
  });
}

async function stillServes(): Promise<void> {
  expect((await c.call('session/list', {})).sessions.length).toBeGreaterThan(0);
}

describe('bounds before hello', () => {
  it('closes a unix connection that does not say hello in time', async () => {
    expect((await rawUnix(undefined, HELLO_MS + 5000)).ended).toBe('closed');
    await stillServes();
  });

  it('closes a unix connection that sends more than MAX_BYTES_BEFORE_HELLO before hello', async () => {
    // A length prefix announcing 8 MiB, then more than the bound of it: the server must not wait for the rest.
    const head = Buffer.alloc(5);
    head.writeUInt32BE(8 << 20, 0);
    const r = await rawUnix(Buffer.concat([head, Buffer.alloc(MAX_BYTES_BEFORE_HELLO + 1024)]), HELLO_MS - 100);
    expect(r.ended).toBe('closed');
    await stillServes();
  });

  it('closes a WebSocket that does not say hello in time', async () => {
    const port = h.running.http!.port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    ws.on('error', () => undefined);
    const closed = await new Promise<boolean>((resolve) => {
      ws.once('close', () => resolve(true));
      setTimeout(() => resolve(false), HELLO_MS + 5000);
    });
    expect(closed).toBe(true);
  });
});

interface WindowCookie {
  origin: string;
  cookie: string;
}

/** The cookie a browser gets for opening the launch URL. */
async function windowCookie(): Promise<WindowCookie> {
  const url = (await c.call('server/launch-url', {})).url;
  const cookie = (await fetch(url, { redirect: 'manual' })).headers.get('set-cookie')?.split(';')[0];
  expect(cookie).toBeTruthy();
  return { origin: new URL(url).origin, cookie: cookie! };
}

/** A window's WebSocket as a browser opens it: the launch URL's cookie, then hello; `autoPong: false` is a peer gone without closing. */
async function helloedWs(name: string, autoPong: boolean, opened?: WindowCookie): Promise<WebSocket> {
  const { origin, cookie } = opened ?? (await windowCookie());
  const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/ws`, { headers: { cookie, origin }, autoPong });
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const said = new Promise<string>((resolve) => ws.once('message', (m) => resolve(String(m))));
  ws.send(JSON.stringify({ t: 'req', id: 1, method: 'hello', params: { protocol: 1, client: { name, kind: 'renderer' }, capabilities: ['read'] } }));
  expect(JSON.parse(await said)).toMatchObject({ ok: true });
  return ws;
}

describe('a window gone without closing', () => {
  it('is closed once it leaves a ping unanswered; a window that answers stays', async () => {
    const gone = await helloedWs('gone-window', false);
    const here = await helloedWs('live-window', true);
    const closedAt = await new Promise<number>((resolve) => {
      gone.once('close', () => resolve(Date.now()));
      setTimeout(() => resolve(0), PING_MS * 3 + 5000);
    });
    expect(closedAt).toBeGreaterThan(0);
    // The server let it go: its client is no longer listed, and the one that answers still is.
    const names = async () => (await c.call('client/list', {})).clients.map((x) => x.name);
    await until('the silent window to leave the client list', async () => !(await names()).includes('gone-window'));
    await new Promise((r) => setTimeout(r, PING_MS * 3));
    expect(here.readyState).toBe(WebSocket.OPEN);
    expect(await names()).toContain('live-window');
    here.close();
  });
});

describe('connection caps', () => {
  it(`refuses the unix connection past MAX_UNIX_CONNECTIONS (${MAX_UNIX_CONNECTIONS}) with a busy error, and serves again once they close`, async () => {
    const held: net.Socket[] = [];
    const hello = encodeFrame(JSON.stringify({ t: 'req', id: 1, method: 'hello', params: { protocol: 1, client: { name: 'held', kind: 'test' }, capabilities: ['read'] } }));
    for (let i = 0; i < MAX_UNIX_CONNECTIONS; i++) {
      const s = net.createConnection({ path: h.socketPath });
      s.on('error', () => undefined);
      s.write(hello);
      held.push(s);
    }
    await until('every held connection to be a client', () => h.running.services.connections.size >= MAX_UNIX_CONNECTIONS);
    const r = await rawUnix(undefined, 5000);
    expect(r.ended).toBe('closed');
    expect(r.frames[0]).toMatchObject({ ok: false, error: { code: 'busy' } });
    for (const s of held) s.destroy();
    await until('the held connections to go', () => h.running.services.connections.size < 10);
    const again = await rawUnix(hello, 300);
    expect(again.frames[0]).toMatchObject({ ok: true });
  });

  it(`refuses the WebSocket past MAX_WS_CONNECTIONS (${MAX_WS_CONNECTIONS}) with 503`, async () => {
    const port = h.running.http!.port;
    const open = async () => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
      ws.on('error', () => undefined);
      return new Promise<{ ws: WebSocket; status: number }>((resolve) => {
        ws.once('open', () => resolve({ ws, status: 101 }));
        ws.once('unexpected-response', (_q, res) => resolve({ ws, status: res.statusCode ?? 0 }));
      });
    };
    // The held ones are windows that said hello: one that has not is closed after HELLO_MS (400 ms here),
    // which a loaded machine can take to open 64, and the cap would be met with fewer than it names.
    const opened = await windowCookie();
    const held = await Promise.all(Array.from({ length: MAX_WS_CONNECTIONS }, (_, i) => helloedWs(`held-${i}`, true, opened)));
    expect((await open()).status).toBe(503);
    for (const ws of held) ws.terminate();
    await until('a WebSocket to be accepted again', async () => {
      const x = await open();
      x.ws.terminate();
      return x.status === 101;
    });
  });
});

describe('bounds on what clients make panes hold', () => {
  it('stops letting a flow-controlled client that never acks hold the pane paused', async () => {
    const { pane } = await c.call('pane/launch', { launch: { program: '/bin/sh', args: ['-c', 'yes stalled-stalled-stalled'] } });
    const silent = await h.connect(['read', 'write', 'attach'], 'silent'); // only a client that may write to a pane paces it
    let got = 0;
    silent.onOutput((p, _o, d) => {
      if (p === pane) got += d.byteLength;
    });
    await silent.call('pty/attach', { pane, mode: 'from', from: 0, flowControl: true });
    await until('the silent client to receive output', () => got > 0);
    const end = async () => (await c.call('pty/read', { pane, maxBytes: 1 })).streamEnd;
    // Still attached, still silent: after the stall time the pane flows on for everyone else.
    const e0 = await end();
    await until('output to flow on past the silent client', async () => (await end()) > e0 + 4 * (512 << 10));
    expect((await c.call('client/list', {})).clients.find((x) => x.name === 'silent')?.attached).toContain(pane);
    await c.call('pane/close', { pane });
    silent.close();
  });

  it(`clamps viewport, float and PTY sizes to ${MAX_COLS}×${MAX_ROWS}`, async () => {
    const s = await c.call('session/new', { name: 'huge', viewport: { cols: 10000, rows: 10000 }, launch: { program: '/bin/cat', args: [] } });
    expect((await c.call('session/get', { session: s.session })).viewport).toEqual({ cols: MAX_COLS, rows: MAX_ROWS });
    await c.call('session/viewport', { session: s.session, cols: 65535, rows: 65535 });
    expect((await c.call('session/get', { session: s.session })).viewport).toEqual({ cols: MAX_COLS, rows: MAX_ROWS });
    const f = await c.call('float/create', { session: s.session, x: 65535, y: 65535, w: 65535, h: 65535, launch: { program: '/bin/cat', args: [] } });
    expect(f.rect).toMatchObject({ x: MAX_COLS - 1, y: MAX_ROWS - 1, w: MAX_COLS, h: MAX_ROWS });
    const r = await c.call('float/resize', { pane: f.pane, w: 65535, h: 65535 });
    expect(r.rect).toMatchObject({ w: MAX_COLS, h: MAX_ROWS });
    for (const p of (await c.call('pane/list', {})).panes.filter((x) => x.session === s.session)) {
      expect(p.cols).toBeLessThanOrEqual(MAX_COLS);
      expect(p.rows).toBeLessThanOrEqual(MAX_ROWS);
    }
    await c.call('session/kill', { session: s.session });
  });

  it('refuses session/viewport to an agent without write on every pane of the session', async () => {
    await c.call('agent/add', { name: 'vp', access: { panes: { read: ['*'], write: ['self'] } } });
    const vp = await h.as('vp');
    const main = (await c.call('session/list', {})).sessions[0]!;
    const e = await refusal(vp.call('session/viewport', { session: main.id, cols: 80, rows: 24 }));
    expect(e.code).toBe('denied');
    expect(e.message).toMatch(/session\/viewport/);
  });

  it(`refuses input with a typed busy error once MAX_INPUT_QUEUE (${MAX_INPUT_QUEUE}) bytes wait for a program that does not read`, async () => {
    const { pane } = await c.call('pane/launch', { launch: { program: '/bin/sleep', args: ['600'] } });
    const chunk = 'x'.repeat(60_000);
    let e: { code: string; message: string } | null = null;
    for (let i = 0; i < Math.ceil(MAX_INPUT_QUEUE / chunk.length) + 20 && !e; i++) {
      const r = await refusal(c.call('pane/input', { pane, data: chunk }));
      if (r.code !== 'none') e = r;
    }
    expect(e?.code).toBe('busy');
    expect(e?.message).toMatch(new RegExp(`pane ${pane} is not reading its input`));
    await stillServes();
    await c.call('pane/close', { pane });
  });

  it(`refuses a namespace open past MAX_HANDLES_PER_CLIENT (${MAX_HANDLES_PER_CLIENT}) and opens again after a close`, async () => {
    const ns = await h.connect(['read'], 'hoarder');
    const fids: number[] = [];
    let e: { code: string; message: string } | null = null;
    for (let i = 0; i <= MAX_HANDLES_PER_CLIENT && !e; i++) {
      try {
        fids.push((await ns.call('ns/open', { path: '/index', mode: 'r' })).fid);
      } catch (x) {
        e = x as { code: string; message: string };
      }
    }
    expect(fids.length).toBe(MAX_HANDLES_PER_CLIENT);
    expect(e?.code).toBe('busy');
    await ns.call('ns/close', { fid: fids[0]! });
    await ns.call('ns/open', { path: '/index', mode: 'r' });
    ns.close();
  });

  it(`refuses mail --deliver past MAX_DELIVERY_QUEUE (${MAX_DELIVERY_QUEUE}) queued lines`, async () => {
    await c.call('agent/add', { name: 'busyagent' });
    for (let i = 0; i < MAX_DELIVERY_QUEUE; i++) await c.call('agent/mail', { to: 'busyagent', body: `task ${i}`, deliver: true });
    const e = await refusal(c.call('agent/mail', { to: 'busyagent', body: 'one more', deliver: true }));
    expect(e.code).toBe('busy');
    // Without --deliver the mail still goes to the Maildir.
    await c.call('agent/mail', { to: 'busyagent', body: 'kept' });
  });

  it(`holds at most MAX_DELIVERY_QUEUE_BYTES (${MAX_DELIVERY_QUEUE_BYTES}) of mail waiting to be typed, each line at most MAX_DELIVERED_LINE_BYTES`, async () => {
    await c.call('agent/add', { name: 'bigmail' });
    const mib = 'm'.repeat((1 << 20) - 16);
    let taken = 0;
    let e: { code: string; message: string } | undefined;
    for (let i = 0; i < 48 && e === undefined; i++) {
      e = await c.call('agent/mail', { to: 'bigmail', body: `${i} ${mib}`, deliver: true }).then(() => {
        taken++;
        return undefined;
      }, (x: { code: string; message: string }) => x);
    }
    expect(e?.code).toBe('busy');
    expect(e?.message).toMatch(/MAX_DELIVERY_QUEUE_BYTES/);
    const queued = h.svc.runtimes.get('bigmail')!.typeWhenWaiting;
    expect(queued.length).toBe(taken);
    const bytes = queued.reduce((n, q) => n + Buffer.byteLength(q.line), 0);
    expect(bytes).toBeLessThanOrEqual(MAX_DELIVERY_QUEUE_BYTES);
    for (const q of queued) expect(Buffer.byteLength(q.line)).toBeLessThan(MAX_DELIVERED_LINE_BYTES + 200);
    expect(queued[0]!.line).toMatch(/the whole mail is in its Maildir/);
    // Every mail taken is filed whole in the Maildir; the refused one is not filed (the refusal says to send it without --deliver).
    expect(h.svc.info('bigmail').unread).toBe(taken);
  });

  it(`keeps at most MAX_HOOK_SESSIONS_PER_AGENT (${MAX_HOOK_SESSIONS_PER_AGENT}) hook session records per agent`, async () => {
    await c.call('agent/add', { name: 'hooky' });
    const hooky = await h.as('hooky');
    for (let i = 0; i < MAX_HOOK_SESSIONS_PER_AGENT * 3; i++) await hooky.call('agent/hook', { input: { hook_event_name: 'Stop', session_id: `invented-${i}` } });
    const r = h.svc.runtimes.get('hooky')!;
    expect(r.sessions.size).toBeLessThanOrEqual(MAX_HOOK_SESSIONS_PER_AGENT);
    expect(r.sessions.has(`invented-${MAX_HOOK_SESSIONS_PER_AGENT * 3 - 1}`)).toBe(true);
    await stillServes();
  });
});

describe('the list of bounds', () => {
  it('names every bound constant of the front, admission, fanout, terminal, sizes, namespace and agents in docs/security.md', async () => {
    const doc = fs.readFileSync(path.join(__dirname, '../../docs/security.md'), 'utf8');
    const modules = await Promise.all([
      import('../../server/transport/httpFront'),
      import('../../server/transport/admission'),
      import('../../server/agents/limits'),
      import('../../server/model/sizeLimits'),
    ]);
    const named = modules.flatMap((m) => Object.entries(m).filter(([k, v]) => /^[A-Z][A-Z0-9_]+$/.test(k) && typeof v === 'number').map(([k]) => k));
    named.push('ACK_STALL_MS', 'SINK_BUFFER_CAP', 'MAX_INPUT_QUEUE', 'MAX_HANDLES_PER_CLIENT', 'MAX_TARGET_LENGTH');
    expect(named.filter((k) => !doc.includes(`\`${k}\``))).toEqual([]);
  });
});
