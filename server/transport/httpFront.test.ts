// The front as the server stops: no new WebSocket once the stop begins, the open ones
// kept until its close, and a close that waits a bounded time for peers it closed.
import crypto from 'node:crypto';
import net from 'node:net';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../test/server/harness';
import { startFront, WS_CLOSE_GRACE_MS, type HttpFront } from './httpFront';

let front: HttpFront | undefined;
const opened: (net.Socket | WebSocket)[] = [];
afterEach(async () => {
  for (const x of opened.splice(0)) x instanceof net.Socket ? x.destroy() : x.terminate();
  await front?.close();
  front = undefined;
});

/** A WebSocket upgrade request for the front, as a page at its origin sends it. */
function upgrade(f: HttpFront): string {
  return `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${f.port}\r\nOrigin: ${f.origin}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}\r\n\r\n`;
}

/** A TCP connection to the front, its bytes gathered as text. */
async function rawConnection(port: number): Promise<{ s: net.Socket; text: () => string; ended: Promise<void> }> {
  const s = net.connect(port, '127.0.0.1');
  opened.push(s);
  let text = '';
  s.on('data', (b) => (text += b.toString('latin1')));
  const ended = new Promise<void>((r) => s.once('close', () => r()));
  await new Promise((r, j) => (s.once('connect', r), s.once('error', j)));
  return { s, text: () => text, ended };
}

describe('the front as the server stops', () => {
  it('takes no new WebSocket once stopping, keeps the open ones until its close, and lets them finish closing', async () => {
    const server: WebSocket[] = [];
    const logs: string[] = [];
    front = await startFront({ onSocket: (ws) => void server.push(ws), log: (l) => void logs.push(l) });
    const f = front;
    // A window connected before the stop, and a connection that will ask for its upgrade only after it began.
    const win = new WebSocket(`ws://127.0.0.1:${f.port}/ws`, { headers: { origin: f.origin } });
    opened.push(win);
    await new Promise((r, j) => (win.once('open', r), win.once('error', j)));
    const late = await rawConnection(f.port);

    f.stopAccepting();
    // A connection made now is refused by the kernel: nothing listens.
    const refused = await new Promise<string>((resolve) => {
      const s = net.connect(f.port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve('connected')));
      s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });
    expect(refused).toBe('ECONNREFUSED');
    // An upgrade on a connection already open is answered 503, saying why.
    late.s.write(upgrade(f));
    await until('the 503', () => late.text().includes('\r\n\r\n'));
    expect(late.text()).toMatch(/^HTTP\/1\.1 503 /);
    expect(late.text()).toContain('the pane server is stopping');
    expect(logs.some((l) => l.includes('the pane server is stopping'))).toBe(true);

    // The window connected before the stop still talks both ways.
    const got = new Promise<string>((r) => win.once('message', (d) => r(String(d))));
    server[0]!.send('still here');
    expect(await got).toBe('still here');

    // The server says why it closes it; the window's answer completes the close before the front's close returns.
    const winClosed = new Promise<{ code: number; reason: string }>((r) => win.once('close', (code, reason) => r({ code, reason: String(reason) })));
    server[0]!.close(1001, 'server stopped');
    await f.close();
    expect(await winClosed).toEqual({ code: 1001, reason: 'server stopped' });
    front = undefined;
  });

  it('cuts a WebSocket that never answers its close once WS_CLOSE_GRACE_MS has passed', async () => {
    const server: WebSocket[] = [];
    front = await startFront({ onSocket: (ws) => void server.push(ws), log: () => undefined });
    const f = front;
    // A peer that completes the handshake and then reads nothing more: it never answers a close frame.
    const mute = await rawConnection(f.port);
    mute.s.write(upgrade(f));
    await until('the handshake', () => mute.text().startsWith('HTTP/1.1 101') && server.length === 1);
    server[0]!.close(1001, 'server stopped');
    const t0 = performance.now();
    await f.close();
    const took = performance.now() - t0;
    await mute.ended;
    expect(took).toBeGreaterThanOrEqual(WS_CLOSE_GRACE_MS - 50);
    front = undefined;
  });
});
