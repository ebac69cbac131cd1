// `pane metrics` through the built CLI against a real daemon: its text passes
// Prometheus's own linter (promtool check metrics), and a real Prometheus server,
// started here on 127.0.0.1 with its own config and storage, scrapes `pane metrics
// --listen` and answers a query for each pane's output bytes.
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
  beforeAll(async () => {
    buildOnce();
    s = await serve();
    s.pane(['send', '-t', '1', 'echo metrics-$((6*7))']);
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
  });

  it('is scraped by a real Prometheus server, which then answers a query for each pane', async () => {
    const exporter = s.spawnPane(['metrics', '--listen', '127.0.0.1:0']);
    started.push(exporter);
    let said = '';
    exporter.stdout!.on('data', (b: Buffer) => (said += b.toString()));
    const deadline = Date.now() + 10_000;
    while (!/http:\/\/127\.0\.0\.1:\d+\/metrics/.test(said) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const target = /http:\/\/(127\.0\.0\.1:\d+)\/metrics/.exec(said)?.[1];
    expect(target, said).toBeDefined();
    const dir = path.join(s.dir, 'prometheus');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: pane\n    static_configs:\n      - targets: ['${target}']\n`);
    const web = await freePort();
    const prom = spawn('prometheus', [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${web}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    started.push(prom);
    let log = '';
    prom.stderr!.on('data', (b: Buffer) => (log = (log + b.toString()).slice(-4000)));
    // Bounded: 60 tries of half a second, each a query of Prometheus's own HTTP API.
    let result: { metric: Record<string, string>; value: [number, string] }[] = [];
    for (let i = 0; i < 60 && result.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 500));
      try {
        const res = await fetch(`http://127.0.0.1:${web}/api/v1/query?query=${encodeURIComponent('pane_output_bytes_total{job="pane"}')}`);
        if (res.ok) result = ((await res.json()) as { data: { result: typeof result } }).data.result;
      } catch {
        // not listening yet
      }
    }
    expect(result.length, log).toBeGreaterThan(0);
    const one = result.find((x) => x.metric.pane === '1');
    expect(one?.metric).toMatchObject({ kind: 'terminal', session: 'main', job: 'pane', instance: target });
    expect(Number(one?.value[1])).toBeGreaterThan(0);
    const up = await (await fetch(`http://127.0.0.1:${web}/api/v1/query?query=up`)).json() as { data: { result: { value: [number, string] }[] } };
    expect(up.data.result[0]?.value[1]).toBe('1');
  }, 60_000);
});
