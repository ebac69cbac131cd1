// Attack class: malformed HTTP and WebSocket upgrade requests, DNS rebinding and
// cross-site pages, against a real `pane serve` front and Electron's bridge (the
// same front). At 77a17e2 `GET /%` alone made the server exit.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridge, type Bridge } from '../../electron/bridge';
import fs from 'node:fs';
import { ensureBuilt, root } from '../e2e/shell';
import { startDaemon, type Daemon } from '../hosts/remote';
import { agentHarness, type AgentHarness } from '../agents/helpers';
import { exchangeLaunch, listenersOf, paneServe, rawRequest, wsHello, type Served } from './front';

/** The TCP addresses process `pid` listens on. */
const listening = (pid: number) => listenersOf(pid).filter((l) => l.kind === 'tcp').map((l) => l.where);

const get = (target: string, host: string, extra = '') => `GET ${target} HTTP/1.1\r\nHost: ${host}\r\n${extra}\r\n`;
const upgrade = (target: string, host: string) =>
  `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;

/** Requests that must each get a 400 and a closed connection, never an exception. */
const MALFORMED: [string, (host: string) => string | Buffer][] = [
  ['GET /%', (h) => get('/%', h)],
  ['GET /%00', (h) => get('/%00', h)],
  ['GET /%E0%A4%A', (h) => get('/%E0%A4%A', h)],
  ['a path climbing out (/..%2f..%2fetc%2fpasswd)', (h) => get('/..%2f..%2fetc%2fpasswd', h)],
  ['an absolute target (http://[)', (h) => get('http://[', h)],
  ['an upgrade to http://[', (h) => upgrade('http://[', h)],
  ['an upgrade to /%', (h) => upgrade('/%', h)],
  ['an upgrade to /ws%00', (h) => upgrade('/ws%00', h)],
  ['a 64 KiB header', (h) => get('/', h, `X-Big: ${'a'.repeat(64 << 10)}\r\n`)],
  ['a header with a NUL byte', (h) => Buffer.from(get('/', h, 'X-Nul: a\0b\r\n'), 'latin1')],
  ['a header without a colon', (h) => get('/', h, 'no colon here\r\n')],
  ['binary garbage for a request line', () => Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 13, 10, 13, 10])],
  ['a request line without a version', () => 'GET /\r\n\r\n'],
];

async function expectStillServes(port: number): Promise<void> {
  const r = await rawRequest(port, get('/', `127.0.0.1:${port}`, 'Connection: close\r\n'));
  expect(r.code).toBe(200);
  expect(r.text).toMatch(/<!doctype html>/i);
}

describe('the HTTP front of `pane serve`', () => {
  let s: Served;
  beforeAll(async () => {
    s = await paneServe();
  }, 60_000);
  afterAll(() => s?.stop());

  for (const [name, req] of MALFORMED) {
    it(`answers ${name} with 400, closes the connection and keeps serving`, async () => {
      const r = await rawRequest(s.port, req(`127.0.0.1:${s.port}`));
      expect(r.code, r.text.slice(0, 200)).toBe(400);
      expect(r.closed).toBe(true);
      expect(s.proc.exitCode).toBe(null);
      await expectStillServes(s.port);
    });
  }

  it('logs each refusal, naming what was wrong', async () => {
    await rawRequest(s.port, get('/%E0%A4%A', `127.0.0.1:${s.port}`));
    await expect.poll(() => s.output(), { timeout: 5000 }).toMatch(/400 .*bad percent escape.*%E0%A4%A/);
  });

  it('refuses a Host that is not a loopback name with its port (DNS rebinding)', async () => {
    for (const host of ['evil.example', `evil.example:${s.port}`, '127.0.0.1:1', `127.0.0.1.nip.io:${s.port}`]) {
      const r = await rawRequest(s.port, get('/', host));
      expect(r.code, host).toBe(403);
    }
    for (const host of [`127.0.0.1:${s.port}`, `localhost:${s.port}`, `[::1]:${s.port}`]) {
      const r = await rawRequest(s.port, get('/', host, 'Connection: close\r\n'));
      expect(r.code, host).toBe(200);
    }
  });

  it('prints a one-time launch URL, never the secret, and trades it for an HttpOnly SameSite=Strict cookie', async () => {
    expect(s.launchUrl).toMatch(/\?launch=/);
    expect(s.launchUrl).not.toMatch(/secret/);
    const first = await exchangeLaunch(s.launchUrl);
    expect(first.status).toBe(303);
    expect(first.location).toBe('/');
    expect(first.setCookie).toMatch(/HttpOnly/);
    expect(first.setCookie).toMatch(/SameSite=Strict/);
    // The token is spent: the same URL (from scrollback or history) opens nothing.
    const again = await exchangeLaunch(s.launchUrl);
    expect(again.status).toBe(403);
    expect(again.cookie).toBe(null);
    // The cookie is what lets the page's WebSocket in.
    expect(await wsHello(s.port, { cookie: first.cookie!, origin: `http://127.0.0.1:${s.port}` })).toEqual({ ok: true });
    const bare = await wsHello(s.port, { origin: `http://127.0.0.1:${s.port}` });
    expect(bare.ok).toBe(false);
    expect(bare.error?.code).toBe('unauthorized');
    expect(await wsHello(s.port, { cookie: 'pane_1=nope', origin: `http://127.0.0.1:${s.port}` })).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  });

  it('gives the person a fresh one-time URL with `pane url`, for another browser', async () => {
    const r = spawnSync(process.execPath, [path.join(root, 'dist/pane.mjs'), '--socket', s.socket, 'url'], { encoding: 'utf8', timeout: 15_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: s.dir } });
    expect(r.status, r.stderr).toBe(0);
    const url = r.stdout.trim();
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${s.port}/\\?launch=`));
    expect((await exchangeLaunch(url)).status).toBe(303);
    expect((await exchangeLaunch(url)).status).toBe(403);
  });

  it('refuses a WebSocket from another origin even with the cookie', async () => {
    const r = await wsHello(s.port, { cookie: 'x=y', origin: 'http://evil.example' });
    expect(r).toMatchObject({ ok: false, closed: 'HTTP 403' });
  });

  it('sends the window a CSP that forbids framing and allows sockets only to its own port', async () => {
    const r = await rawRequest(s.port, get('/', `127.0.0.1:${s.port}`, 'Connection: close\r\n'));
    const policy = /^content-security-policy: (.*)$/im.exec(r.text)?.[1] ?? '';
    expect(policy).toMatch(/frame-ancestors 'none'/);
    expect(policy).toMatch(new RegExp(`connect-src 'self' ws://127\\.0\\.0\\.1:${s.port} ws://localhost:${s.port};`));
    expect(policy).not.toMatch(/\*/);
  });
});

describe('the HTTP front of the Electron bridge (electron/bridge.ts)', () => {
  let s: Served;
  let bridge: Bridge;
  const logged: string[] = [];
  beforeAll(async () => {
    s = await paneServe();
    bridge = await startBridge(s.socket, { staticDir: path.join(root, 'dist/renderer'), log: (l) => logged.push(l) });
  }, 60_000);
  afterAll(async () => {
    await bridge?.close();
    await s?.stop();
  });

  for (const [name, req] of MALFORMED) {
    it(`answers ${name} with 400 and keeps serving`, async () => {
      const r = await rawRequest(bridge.port, req(`127.0.0.1:${bridge.port}`));
      expect(r.code, r.text.slice(0, 200)).toBe(400);
      expect(r.closed).toBe(true);
      await expectStillServes(bridge.port);
    });
  }

  it('lets a launched page through to the server and never logs the secret or the cookie', async () => {
    const url = bridge.launchUrl();
    expect(url).not.toContain(bridge.secret);
    const { cookie } = await exchangeLaunch(url);
    expect(await wsHello(bridge.port, { cookie: cookie!, origin: `http://127.0.0.1:${bridge.port}` })).toEqual({ ok: true });
    expect(await wsHello(bridge.port, { token: bridge.secret })).toEqual({ ok: true });
    expect((await wsHello(bridge.port, { origin: `http://localhost:${bridge.port}` })).ok).toBe(false);
    await rawRequest(bridge.port, get('/%', `evil.example`));
    expect(logged.join('\n')).toMatch(/403 host "evil.example"/);
    expect(logged.join('\n')).not.toContain(bridge.secret);
    expect(logged.join('\n')).not.toContain(cookie!.split('=')[1]!);
  });
});

describe('a daemon started without --http (as the one `npm start` starts: its window comes through its own bridge)', () => {
  let d: Daemon;
  beforeAll(async () => {
    ensureBuilt();
    d = await startDaemon('front');
  }, 60_000);
  afterAll(() => d?.stop());

  it('opens its front on 127.0.0.1 the first time the person asks for a URL, with the same one-time launch rules; an agent opens nothing', async () => {
    // An agent's ask is refused before any port is opened (the daemon listens only for its hooks).
    const before = listening(d.proc.pid!);
    expect(d.pane(['agent', 'add', 'eve']).status).toBe(0);
    const eveTok = fs.readFileSync(path.join(d.home, '.data', 'pane', 'agents', 'eve', '.token'), 'utf8').trim();
    const asEve = spawnSync(process.execPath, [path.join(root, 'dist/pane.mjs'), 'url'], { encoding: 'utf8', timeout: 15_000, env: { ...d.env, PANE_AGENT: 'eve', PANE_TOKEN: eveTok } });
    expect(asEve.status).not.toBe(0);
    expect(asEve.stderr).toMatch(/denied|agent/);
    expect(listening(d.proc.pid!)).toEqual(before);
    const r = d.pane(['url']);
    expect(r.status, r.stderr).toBe(0);
    const url = r.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?launch=/);
    expect(listening(d.proc.pid!).filter((a) => !before.includes(a))).toEqual([`127.0.0.1:${new URL(url).port}`]);
    expect((await exchangeLaunch(url)).status).toBe(303);
    expect((await exchangeLaunch(url)).status).toBe(403);
    // The same front for the next ask; the window's page is served, a foreign Host is refused.
    const again = d.pane(['url']).stdout.trim();
    expect(new URL(again).port).toBe(new URL(url).port);
    const port = Number(new URL(url).port);
    await expectStillServes(port);
    expect((await rawRequest(port, get('/', `evil.example:${port}`, 'Connection: close\r\n'))).code).toBe(403);
  });
});

describe('server/launch-url', () => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await agentHarness({ http: { port: 0 } });
  });
  afterAll(() => h?.close());

  it('is refused to an agent, even one with every capability: the cookie would act as the person', async () => {
    await (await h.connect()).call('agent/add', { name: 'eve', access: { capabilities: ['read', 'write', 'attach', 'admin'], commands: { allow: ['*'], deny: [] } } });
    const eve = await h.as('eve');
    await expect(eve.call('server/launch-url', {})).rejects.toMatchObject({ code: 'denied' });
    expect((await (await h.connect()).call('server/launch-url', {})).url).toMatch(/\?launch=/);
  });
});
