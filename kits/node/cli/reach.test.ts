// The CLI's Connection (reachServer) against a scripted server socket: replies,
// typed errors, events and output frames reach the right callbacks; absence is exit 3.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeBinary } from '../../protocol/envelope';
import { encodeFrame, FrameDecoder } from '../framing';
import { connectCli } from './connect';
import { PaneFault } from '../../protocol/fault';
import { NO_SERVER_HINT, NoServerError, exitCodeOf } from './errors';
import { reachServer } from './reach';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function tmpSock(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-wire-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 's.sock');
}

type Reply = (req: { id: number; method: string; params: unknown }, send: (f: string | Uint8Array) => void) => void;

/** A scripted server speaking the real framing (kits/node/framing.ts). */
async function fakeServer(reply: Reply): Promise<string> {
  const p = tmpSock();
  const srv = net.createServer((s) => {
    const dec = new FrameDecoder();
    const send = (f: string | Uint8Array) => s.write(encodeFrame(f));
    s.on('data', (c) => {
      for (const f of dec.push(c)) if (typeof f === 'string') reply(JSON.parse(f), send);
    });
    s.on('error', () => {});
  });
  await new Promise<void>((r) => srv.listen(p, r));
  cleanups.push(() => srv.close());
  return p;
}

const WELCOME = { protocol: 1, server: { host: 'box', version: '0', pid: 1 }, client: 'c1', capabilities: ['read'], user: 'ada' };

describe('the CLI connection (reachServer)', () => {
  it('says hello as pane-cli with every capability, then correlates replies by id', async () => {
    const seen: unknown[] = [];
    const p = await fakeServer((req, send) => {
      seen.push(req);
      if (req.method === 'hello') send(JSON.stringify({ t: 'res', id: req.id, ok: true, result: WELCOME }));
      else send(JSON.stringify({ t: 'res', id: req.id, ok: true, result: { echo: req.params } }));
    });
    const c = await reachServer(p);
    expect(c.host).toBe('box');
    const [a, b] = await Promise.all([c.call('session/list', {}), c.call('pane/list', { session: 'x' })]);
    expect(a).toEqual({ echo: {} });
    expect(b).toEqual({ echo: { session: 'x' } });
    expect(seen[0]).toMatchObject({ method: 'hello', params: { protocol: 1, client: { name: 'pane-cli', kind: 'cli' }, capabilities: ['read', 'write', 'attach', 'admin'] } });
    c.close();
  });

  it('rejects with the server’s typed error, code and message intact', async () => {
    const p = await fakeServer((req, send) => {
      if (req.method === 'hello') send(JSON.stringify({ t: 'res', id: req.id, ok: true, result: WELCOME }));
      else send(JSON.stringify({ t: 'res', id: req.id, ok: false, error: { code: 'pane-not-found', message: 'pane 42 not found', subject: '42' } }));
    });
    const c = await reachServer(p);
    const e = await c.call('pane/get', { pane: 42 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PaneFault);
    expect(e).toMatchObject({ code: 'pane-not-found', message: 'pane 42 not found', subject: '42' });
    expect(exitCodeOf(e)).toBe(1);
    c.close();
  });

  it('delivers events and output frames to their listeners', async () => {
    const p = await fakeServer((req, send) => {
      send(JSON.stringify({ t: 'res', id: req.id, ok: true, result: req.method === 'hello' ? WELCOME : {} }));
      if (req.method === 'hello') return;
      send(JSON.stringify({ t: 'evt', event: 'pane/closed', rev: 7, data: { pane: 3 } }));
      send(encodeBinary({ kind: 1, pane: 3, offset: 1024, data: new Uint8Array([104, 105]) }));
    });
    const c = await reachServer(p);
    const got = new Promise<unknown[]>((resolve) => {
      const all: unknown[] = [];
      c.onEvent((event, rev, data) => all.push({ event, rev, data }));
      c.onOutput((pane, offset, data) => {
        all.push({ pane, offset, data: Buffer.from(data).toString() });
        resolve(all);
      });
    });
    await c.call('events/subscribe', {});
    expect(await got).toEqual([{ event: 'pane/closed', rev: 7, data: { pane: 3 } }, { pane: 3, offset: 1024, data: 'hi' }]);
    c.close();
  });

  it('passes a refused hello through as the server’s error, not as "no server"', async () => {
    const p = await fakeServer((req, send) => {
      send(JSON.stringify({ t: 'res', id: req.id, ok: false, error: { code: 'version-mismatch', message: 'protocol 1 is not spoken here' } }));
    });
    await expect(reachServer(p)).rejects.toMatchObject({ code: 'version-mismatch', message: 'protocol 1 is not spoken here' });
  });

  it('fails the hello with the server’s refusal when it turns the connection away before answering', async () => {
    // What the unix listener sends over its connection cap: an error for no request (id null), then it hangs up.
    const p = await fakeServer((_req, send) => send(JSON.stringify({ t: 'res', id: null, ok: false, error: { code: 'busy', message: 'the pane server holds 64 connections already; close some (pane clients) and retry' } })));
    await expect(reachServer(p)).rejects.toMatchObject({ code: 'busy', message: 'the pane server holds 64 connections already; close some (pane clients) and retry' });
  });

  it('trusts results for display, while connectCli checks each against its schema', async () => {
    const p = await fakeServer((req, send) => send(JSON.stringify({ t: 'res', id: req.id, ok: true, result: req.method === 'hello' ? WELCOME : { panes: 'not a list' } })));
    const lean = await reachServer(p);
    expect(await lean.call('pane/list', {})).toEqual({ panes: 'not a list' });
    lean.close();
    const checked = await connectCli(p);
    const e = await checked.call('pane/list', {}).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PaneFault);
    expect(e).toMatchObject({ code: 'failed', message: expect.stringMatching(/^server sent a malformed pane\/list result/) });
    checked.close();
  });
});

describe('reaching no server', () => {
  it('maps a missing socket file to NoServerError naming the path (exit 3)', async () => {
    const p = tmpSock();
    const e = await reachServer(p).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NoServerError);
    expect((e as Error).message).toBe(`no pane server at ${p}; ${NO_SERVER_HINT}`);
    expect(exitCodeOf(e)).toBe(3);
  });

  it('maps a stale socket file (nothing listening) to NoServerError', async () => {
    const p = tmpSock();
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(p, r));
    // A server that died leaves its socket file behind; Node unlinks on close, so move it aside first.
    fs.renameSync(p, p + '.kept');
    await new Promise<void>((r) => srv.close(() => r()));
    fs.renameSync(p + '.kept', p);
    const e = await reachServer(p).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NoServerError);
    expect((e as Error).message).toMatch(/^no pane server at .*\(a stale socket file; nothing listens on it\)/);
  });

  it('gives up on a server that accepts but never answers hello', async () => {
    const p = tmpSock();
    const srv = net.createServer(() => {});
    await new Promise<void>((r) => srv.listen(p, r));
    cleanups.push(() => srv.close());
    const e = await reachServer(p, { timeoutMs: 200 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NoServerError);
    expect((e as Error).message).toMatch(/did not answer hello in time/);
  });

  it('connectCli maps absence to the same NoServerError', async () => {
    const e = await connectCli(tmpSock()).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NoServerError);
    expect(exitCodeOf(e)).toBe(3);
  });

  it('connectCli returns a validating kit Connection after hello', async () => {
    const p = await fakeServer((req, send) => send(JSON.stringify({ t: 'res', id: req.id, ok: true, result: WELCOME })));
    const conn = await connectCli(p, { client: { name: 'pane-ns', kind: 'namespace' } });
    expect(conn.welcome?.server.host).toBe('box');
    conn.close();
  });
});
