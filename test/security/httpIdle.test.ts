// Attack class: locking the window out of the HTTP front by holding its connections
// idle or half-sent. At f0f52cf the front kept a silent connection forever and a
// half-sent request ~30 s, and dropped every connection past MAX_HTTP_CONNECTIONS:
// 128 of them and the window could load neither its page nor its WebSocket.
// Against a real `pane serve --http`.
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REFUSAL_LINES_PER_SECOND } from '../../server/transport/admission';
import { HEADERS_TIMEOUT_MS, IDLE_TIMEOUT_MS, MAX_HTTP_CONNECTIONS } from '../../server/transport/httpFront';
import { root } from '../e2e/shell';
import { exchangeLaunch, paneServe, rawRequest, wsHello, type Served } from './front';

let s: Served;
beforeAll(async () => {
  s = await paneServe();
}, 60_000);
afterAll(() => s?.stop());

interface Held {
  sock: net.Socket;
  closedAt: number | null;
}

/** Opens a connection that says nothing (or only the first lines of a request, then a header line every 500 ms). */
function open(halfSent: boolean, t0: number): Promise<Held> {
  return new Promise((resolve) => {
    const sock = net.createConnection({ host: '127.0.0.1', port: s.port });
    const h: Held = { sock, closedAt: null };
    let drip: NodeJS.Timeout | undefined;
    sock.on('error', () => undefined);
    sock.on('close', () => {
      clearInterval(drip);
      h.closedAt = Date.now() - t0;
    });
    sock.on('connect', () => {
      if (halfSent) {
        sock.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n`);
        drip = setInterval(() => sock.write('X-Slow: 1\r\n'), 500);
      }
      resolve(h);
    });
  });
}

const get = () => `GET / HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nConnection: close\r\n\r\n`;

describe('the HTTP front cuts idle and half-sent connections', () => {
  it(`serves the window's page and WebSocket with MAX_HTTP_CONNECTIONS (${MAX_HTTP_CONNECTIONS}) idle and half-sent connections held, cutting the oldest idle ones`, async () => {
    const t0 = Date.now();
    const held: Held[] = [];
    for (let i = 0; i < MAX_HTTP_CONNECTIONS; i++) held.push(await open(i % 2 === 1, t0));
    // Let the server accept every one of them (the kernel completes the handshake before accept).
    await new Promise((r) => setTimeout(r, 300));
    const { cookie } = await exchangeLaunch(s.launchUrl);
    expect(cookie).not.toBe(null);
    const started = Date.now();
    const page = await rawRequest(s.port, get());
    expect(page.code, page.text.slice(0, 200)).toBe(200);
    expect(page.text).toMatch(/<!doctype html>/i);
    expect(await wsHello(s.port, { cookie: cookie!, origin: `http://127.0.0.1:${s.port}` })).toEqual({ ok: true });
    // Within a bound, and long before any idle deadline: the room came from cutting idle ones.
    expect(Date.now() - started).toBeLessThan(3000);
    // The first new connection found the front full and cut the oldest held one; the
    // others took the room each left when it closed.
    await expect.poll(() => held.filter((h) => h.closedAt !== null).length, { timeout: 2000 }).toBeGreaterThanOrEqual(1);
    expect(held[0]!.closedAt).not.toBe(null);
    await expect.poll(() => s.output(), { timeout: 5000 }).toMatch(/closed the oldest idle connection .*128 connections at once is the limit/);
    for (const h of held) h.sock.destroy();
  }, 60_000);

  it(`closes a silent connection after IDLE_TIMEOUT_MS (${IDLE_TIMEOUT_MS} ms) and a half-sent request after HEADERS_TIMEOUT_MS (${HEADERS_TIMEOUT_MS} ms), with a 408`, async () => {
    const t0 = Date.now();
    const silent = await open(false, t0);
    const half = await open(true, t0);
    let answer = '';
    half.sock.on('data', (b) => (answer += b.toString('latin1')));
    await expect.poll(() => silent.closedAt !== null && half.closedAt !== null, { timeout: 20_000, interval: 200 }).toBe(true);
    // node's own check ran every 30 s (and never for a silent socket); both now hold within about a second.
    expect(silent.closedAt!).toBeGreaterThanOrEqual(IDLE_TIMEOUT_MS - 500);
    expect(silent.closedAt!).toBeLessThan(IDLE_TIMEOUT_MS + 3000);
    expect(half.closedAt!).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 500);
    expect(half.closedAt!).toBeLessThan(HEADERS_TIMEOUT_MS + 3000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect((await rawRequest(s.port, get())).code).toBe(200);
  }, 30_000);

  it(`writes the front's refusals to /pane/log, at most MAX_REFUSAL_LINES_PER_SECOND (${MAX_REFUSAL_LINES_PER_SECOND}) a second, and counts the rest`, async () => {
    const t0 = Date.now();
    // 200 bad requests at once: each is refused and logged, or counted.
    await Promise.all(Array.from({ length: 200 }, (_, i) => rawRequest(s.port, `GET /%E0%A4%A${i} HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n\r\n`)));
    expect(Date.now() - t0).toBeLessThan(10_000);
    // One more, a second later, says how many were not written.
    await new Promise((r) => setTimeout(r, 1100));
    await rawRequest(s.port, `GET /%E0 HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n\r\n`);
    const log = spawnSync(process.execPath, [path.join(root, 'dist/pane.mjs'), '--socket', s.socket, 'cat', '/log'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: s.dir }, timeout: 20_000 }).stdout;
    const lines = log.split('\n').filter((l) => l.startsWith('- refused HTTP front: 400 ') && l.includes('bad percent escape'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(MAX_REFUSAL_LINES_PER_SECOND * Math.ceil((Date.now() - t0) / 1000 + 1));
    expect(log).toMatch(/- refused HTTP front: \d+ more refusals in one second were not written \(at most 20 a second\)/);
    expect((await rawRequest(s.port, get())).code).toBe(200);
  }, 30_000);
});
