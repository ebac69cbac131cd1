// `pane metrics` through the built CLI against a real daemon: its text passes
// Prometheus's own linter (promtool check metrics), as /pane/server/metrics does, with
// the echo, hook and request histograms; and a real Prometheus server, started here on
// 127.0.0.1 with its own config and storage, scrapes both `pane metrics --listen` and
// the daemon's own HTTP front (GET /metrics with a metrics grant's bearer token, once
// settings.json turns it on) and answers queries for each pane and the histograms.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, serve, type Served } from './harness';

const prometheus = spawnSync('prometheus', ['--version']).status === 0 && spawnSync('promtool', ['--version']).status === 0;
let s: Served;
const started: ChildProcess[] = [];

/** A port free on 127.0.0.1 now (the kernel's pick). */
async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

describe.skipIf(!prometheus)(`pane metrics${prometheus ? '' : ' (skipped: no prometheus and promtool; apt-get install prometheus)'}`, () => {
  let front = '';
  beforeAll(async () => {
    buildOnce();
    s = await serve(['--http', '0']);
    s.pane(['send', '-t', '1', 'echo metrics-$((6*7))']);
    const url = s.pane(['url']);
    expect(url.status, url.stderr).toBe(0);
    front = new URL(url.stdout.trim()).origin;
  }, 60_000);
  afterAll(async () => {
    for (const p of started) if (p.exitCode === null) p.kill('SIGTERM');
    await s?.stop();
  });

  it('prints Prometheus text that promtool accepts, with every pane and no screen text', () => {
    const r = s.pane(['metrics']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^pane_output_bytes_total\{host="[^"]+",pane="1",kind="terminal",session="main"\} [1-9][0-9]*$/m);
    expect(r.stdout).toMatch(/^pane_resident_memory_bytes\{.*pane="1".*\} [1-9][0-9]*$/m);
    expect(r.stdout).toMatch(/^pane_event_loop_delay_p99_seconds\{host="[^"]+"\} /m);
    expect(r.stdout).not.toContain('metrics-42');
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: r.stdout, encoding: 'utf8' });
    expect(lint.status, `${lint.stdout}${lint.stderr}`).toBe(0);
    // The histograms: the keystrokes `pane send` typed were echoed (each bucket line, then +Inf, sum, count), and every request of this CLI's kind is timed by method.
    expect(r.stdout).toMatch(/^# TYPE pane_echo_seconds histogram$/m);
    expect(r.stdout).toMatch(/^pane_echo_seconds_bucket\{host="[^"]+",le="0\.016"\} \d+$/m);
    expect(Number(/^pane_echo_seconds_count\{host="[^"]+"\} (\d+)$/m.exec(r.stdout)?.[1])).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/^pane_request_duration_seconds_count\{host="[^"]+",method="pane\/input"\} [1-9]\d*$/m);
    expect(r.stdout).toMatch(/^# TYPE pane_hook_duration_seconds histogram$/m);
    expect(r.stdout).toMatch(/^pane_storage_written_bytes_total\{.*pane="1".*\} \d+$/m);
  });

  it('reports an idle daemon’s event loop as on time, not late by the sampling interval', async () => {
    // Node's histogram holds the time between its timer's ticks; read raw, an idle
    // daemon looked 50 ms late on every `pane top` (LOOP_SAMPLE_MS).
    const p50 = () => Number(/^pane_event_loop_delay_p50_seconds\{host="[^"]+"\} (\S+)$/m.exec(s.pane(['metrics']).stdout)?.[1]);
    p50(); // the histogram starts at the first collection
    await new Promise((r) => setTimeout(r, 600));
    const late = p50();
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(0.03);
  });

  it('reads the same text at /pane/server/metrics, with the namespace’s own gauges, and each histogram read off at /server/latency', () => {
    const r = s.pane(['cat', '/server/metrics']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^pane_namespace_open_handles\{host="[^"]+"\} \d+$/m);
    expect(r.stdout).toMatch(/^pane_output_bytes_total\{.*pane="1".*\} [1-9]\d*$/m);
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: r.stdout, encoding: 'utf8' });
    expect(lint.status, `${lint.stdout}${lint.stderr}`).toBe(0);
    const lat = s.pane(['cat', '/server/latency']);
    expect(lat.status, lat.stderr).toBe(0);
    const rows = lat.stdout.trim().split('\n').map((l) => JSON.parse(l) as { name: string; method?: string; count: number; p50Ms: number | null; p99Ms: number | null });
    const echo = rows.find((x) => x.name === 'echo');
    expect(echo?.count).toBeGreaterThan(0);
    expect(echo?.p99Ms).toBeGreaterThan(0);
    expect(rows.find((x) => x.method === 'ns/read')?.count).toBeGreaterThan(0);
  });

  it('serves GET /metrics on the HTTP front only when settings turn it on, and only to a metrics grant or the window', async () => {
    const get = (headers: Record<string, string> = {}) => fetch(`${front}/metrics`, { headers });
    const grant = s.pane(['grant', 'new', '--metrics', '--for', '30d', '--note', 'prometheus', '--json']);
    expect(grant.status, grant.stderr).toBe(0);
    const g = JSON.parse(grant.stdout) as { id: string; token: string; mode: string; url: string };
    expect(g).toMatchObject({ mode: 'metrics', url: `${front}/metrics` });
    expect((await get({ authorization: `Bearer ${g.token}` })).status).toBe(404);
    turnOn(s.dir);
    await untilStatus(() => get(), 401);
    const ok = await get({ authorization: `Bearer ${g.token}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await ok.text();
    expect(text).toMatch(/^pane_output_bytes_total\{.*pane="1".*\} [1-9]\d*$/m);
    expect(text).not.toContain('metrics-42');
    // The window's own cookie reads it too: the launch URL sets it, as a browser's first visit does.
    const launch = await fetch(s.pane(['url']).stdout.trim(), { redirect: 'manual' });
    const cookie = (launch.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(cookie).toMatch(/^pane_\d+=/);
    expect((await get({ cookie })).status).toBe(200);
    // An attach grant's token is not a scraper's.
    const ro = JSON.parse(s.pane(['grant', 'new', '--json']).stdout) as { id: string; token: string };
    const refused = await get({ authorization: `Bearer ${ro.token}` });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(`grant ${ro.id} is an attach grant (ro)`);
    // A metrics grant lets no client in.
    const hello = s.pane(['ls'], { env: { ...process.env, PANE_GRANT: g.token } });
    expect(hello.status).not.toBe(0);
    expect(hello.stderr).toContain(`grant ${g.id} is a metrics grant`);
    expect(s.pane(['grant', 'ls']).stdout).toMatch(new RegExp(`${g.id}\\s+metrics`));
  });

  it('is scraped by a real Prometheus server — `pane metrics --listen` and the front with a bearer token — which then answers queries', async () => {
    const exporterToken = path.join(s.dir, 'exporter.token');
    const exporter = s.spawnPane(['metrics', '--listen', '127.0.0.1:0', '--token-file', exporterToken]);
    started.push(exporter);
    let said = '';
    exporter.stdout!.on('data', (b: Buffer) => (said += b.toString()));
    const deadline = Date.now() + 10_000;
    while (!/http:\/\/127\.0\.0\.1:\d+\/metrics/.test(said) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const target = /http:\/\/(127\.0\.0\.1:\d+)\/metrics/.exec(said)?.[1];
    expect(target, said).toBeDefined();
    // The port is every local user's to reach; the metrics are only for a scrape bearing the token it wrote (0600).
    expect(fs.statSync(exporterToken).mode & 0o077).toBe(0);
    const bare = await fetch(`http://${target}/metrics`);
    expect(bare.status).toBe(401);
    expect(await bare.text()).toContain(`bearer token in ${exporterToken}`);
    expect((await fetch(`http://${target}/metrics`, { headers: { authorization: 'Bearer not-the-token' } })).status).toBe(401);
    const scraped = await fetch(`http://${target}/metrics`, { headers: { authorization: `Bearer ${fs.readFileSync(exporterToken, 'utf8').trim()}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('pane_output_bytes_total');
    turnOn(s.dir);
    const g = JSON.parse(s.pane(['grant', 'new', '--metrics', '--json']).stdout) as { token: string };
    const dir = path.join(s.dir, 'prometheus');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'token'), g.token, { mode: 0o600 });
    const frontTarget = new URL(front).host;
    fs.writeFileSync(
      path.join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: pane\n    authorization:\n      credentials_file: ${exporterToken}\n    static_configs:\n      - targets: ['${target}']\n  - job_name: pane-front\n    authorization:\n      credentials_file: ${path.join(dir, 'token')}\n    static_configs:\n      - targets: ['${frontTarget}']\n`,
    );
    const web = await freePort();
    const prom = spawn('prometheus', [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${web}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    started.push(prom);
    let log = '';
    prom.stderr!.on('data', (b: Buffer) => (log = (log + b.toString()).slice(-4000)));
    const query = async (q: string) => {
      const res = await fetch(`http://127.0.0.1:${web}/api/v1/query?query=${encodeURIComponent(q)}`);
      return res.ok ? ((await res.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } }).data.result : [];
    };
    // Bounded: 60 tries of half a second, each a query of Prometheus's own HTTP API.
    let result: Awaited<ReturnType<typeof query>> = [];
    let fromFront: typeof result = [];
    for (let i = 0; i < 60 && (result.length === 0 || fromFront.length === 0); i++) {
      await new Promise((r) => setTimeout(r, 500));
      try {
        result = await query('pane_output_bytes_total{job="pane"}');
        fromFront = await query('histogram_quantile(0.99, sum by (le) (pane_request_duration_seconds_bucket{job="pane-front"}))');
      } catch {
        // not listening yet
      }
    }
    expect(result.length, log).toBeGreaterThan(0);
    const one = result.find((x) => x.metric.pane === '1');
    expect(one?.metric).toMatchObject({ kind: 'terminal', session: 'main', job: 'pane', instance: target });
    expect(Number(one?.value[1])).toBeGreaterThan(0);
    // Prometheus's own quantile of pane's request histogram, scraped through the front with the bearer token.
    expect(fromFront.length, log).toBe(1);
    expect(Number(fromFront[0]!.value[1])).toBeGreaterThan(0);
    const up = await query('up');
    expect(up.map((x) => [x.metric.job, x.value[1]]).sort()).toEqual([['pane', '1'], ['pane-front', '1']]);
  }, 60_000);
});

/** settings.json with "metricsScrape": true, in the served daemon's home (read live). */
function turnOn(home: string): void {
  const dir = path.join(home, '.config', 'pane');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ metricsScrape: true }));
}

/** Polls until `get` answers `status` (the settings file is read within a second or two); bounded at 10 s. */
async function untilStatus(get: () => Promise<Response>, status: number): Promise<void> {
  let last = 0;
  for (let i = 0; i < 100; i++) {
    last = (await get()).status;
    if (last === status) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`GET /metrics answered ${last}, not ${status}, for 10 s`);
}
