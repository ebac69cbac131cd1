// Attack class: the HTTP front's scrape path (GET /metrics, settings' metricsScrape)
// read by whoever can reach 127.0.0.1 — another local user, a page in a browser, an
// agent in its sandbox. Only the window's cookie or a metrics grant's bearer token
// reads it; an attach grant's token, a token in the URL, a foreign Host or Origin, a
// revoked or expired grant do not; a metrics grant lets no client in; off by default.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../e2e/shell';
import { exchangeLaunch, paneServe, rawRequest, wsHello, type Served } from './front';

let s: Served;
const pane = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [path.join(root, 'dist/pane.mjs'), '--socket', s.socket, ...args], { encoding: 'utf8', timeout: 20_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: s.dir, XDG_CONFIG_HOME: path.join(s.dir, 'config'), ...env } });
const grant = (...args: string[]) => {
  const r = pane(['grant', 'new', '--json', ...args]);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { id: string; token: string; mode: string };
};
const scrape = (headers: string, target = '/metrics', host = `127.0.0.1:${s.port}`, method = 'GET') =>
  rawRequest(s.port, `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n${headers}\r\n`);
const bearer = (token: string) => `Authorization: Bearer ${token}\r\n`;

describe('GET /metrics on the HTTP front', () => {
  let metrics: { id: string; token: string };
  beforeAll(async () => {
    s = await paneServe();
    metrics = grant('--metrics');
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('is off by default: 404 even to a metrics grant and to the window’s cookie', async () => {
    const r = await scrape(bearer(metrics.token));
    expect(r.code).toBe(404);
    expect(r.text).toContain('"metricsScrape": true in settings.json');
    const { cookie } = await exchangeLaunch(s.launchUrl);
    expect((await scrape(`Cookie: ${cookie}\r\n`)).code).toBe(404);
    fs.mkdirSync(path.join(s.dir, 'config', 'pane'), { recursive: true });
    fs.writeFileSync(path.join(s.dir, 'config', 'pane', 'settings.json'), JSON.stringify({ metricsScrape: true }));
    const deadline = Date.now() + 10_000;
    while ((await scrape(bearer(metrics.token))).code !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect((await scrape(bearer(metrics.token))).code).toBe(200);
  });

  it('answers nobody else: no header, another scheme, a made-up token, a token in the URL', async () => {
    for (const [what, headers, target] of [
      ['no Authorization', '', '/metrics'],
      ['Basic', `Authorization: Basic ${Buffer.from(`x:${metrics.token}`).toString('base64')}\r\n`, '/metrics'],
      ['lower-case scheme with a space too many', `Authorization: Bearer  ${metrics.token}\r\n`, '/metrics'],
      ['a made-up token', bearer('A'.repeat(32)), '/metrics'],
      ['the token in the query', '', `/metrics?token=${metrics.token}`],
      ['the token as access_token', '', `/metrics?access_token=${metrics.token}`],
    ] as const) {
      const r = await scrape(headers, target);
      expect(r.code, what).toBe(401);
      expect(r.text, what).toMatch(/^www-authenticate: Bearer realm="pane metrics"$/im);
      expect(r.text, what).not.toMatch(/pane_output_bytes_total/);
    }
  });

  it('refuses an attach grant’s token (read-only or read-write), naming why', async () => {
    for (const flags of [[], ['--rw']]) {
      const g = grant(...flags);
      const r = await scrape(bearer(g.token));
      expect(r.code).toBe(403);
      expect(r.text).toContain(`grant ${g.id} is an attach grant (${g.mode})`);
    }
  });

  it('refuses a foreign Host (DNS rebinding), a foreign Origin and a POST, even with the token', async () => {
    expect((await scrape(bearer(metrics.token), '/metrics', `evil.example:${s.port}`)).code).toBe(403);
    expect((await scrape(`${bearer(metrics.token)}Origin: http://evil.example\r\n`)).code).toBe(403);
    expect((await scrape(`${bearer(metrics.token)}Content-Length: 0\r\n`, '/metrics', `127.0.0.1:${s.port}`, 'POST')).code).toBe(405);
  });

  it('shows counts and sizes, never what is on a screen or a pane’s title', async () => {
    const typed = pane(['send', '-t', '1', 'printf "\\033]2;secret-title-7\\007"; echo secret-screen-$((6*7))']);
    expect(typed.status, typed.stderr).toBe(0);
    const deadline = Date.now() + 10_000;
    while (!pane(['screen', '-t', '1']).stdout.includes('secret-screen-42') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(pane(['screen', '-t', '1']).stdout).toContain('secret-screen-42');
    const r = await scrape(bearer(metrics.token));
    expect(r.code).toBe(200);
    expect(r.text).toMatch(/pane_output_bytes_total\{[^}]*pane="1"/);
    expect(r.text).not.toContain('secret-screen');
    expect(r.text).not.toContain('secret-title');
  });

  it('a metrics grant lets no client in: not through the socket, not through the front’s WebSocket', async () => {
    const cli = pane(['ls'], { PANE_GRANT: metrics.token });
    expect(cli.status).not.toBe(0);
    expect(cli.stderr).toContain(`grant ${metrics.id} is a metrics grant`);
    const ws = await wsHello(s.port, { grant: metrics.token, origin: `http://127.0.0.1:${s.port}` });
    expect(ws.ok).toBe(false);
    expect(`${ws.error?.message ?? ''}${ws.closed ?? ''}`).toContain('metrics grant');
  });

  it('stops at once when the grant is revoked, and when it expires', async () => {
    const g = grant('--metrics');
    expect((await scrape(bearer(g.token))).code).toBe(200);
    expect(pane(['grant', 'revoke', g.id]).status).toBe(0);
    const r = await scrape(bearer(g.token));
    expect(r.code).toBe(401);
    const short = grant('--metrics', '--for', '1s');
    await new Promise((res) => setTimeout(res, 1200));
    const late = await scrape(bearer(short.token));
    expect(late.code).toBe(401);
    expect(late.text).toMatch(/no such grant|expired/);
  });
});
