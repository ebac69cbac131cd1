// `pane metrics`: the daemon's figures as Prometheus text — printed once, or served
// on a loopback port for a Prometheus server (or anything that scrapes its text
// exposition format) with `--listen`. Each scrape asks the daemon afresh, as the
// person who runs this; the page holds counts and sizes, never screen text or titles.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CommandSpec } from '../command';
import type { CommandContext } from '../context';
import { UsageError } from '../errors';
import { str } from '../args';
import { PROMETHEUS_CONTENT_TYPE, prometheusText } from '../../../protocol/prometheus';

/** `ADDR:PORT` or `PORT` (loopback); an address other than loopback must be named, and is said. */
function parseListen(text: string): { host: string; port: number } {
  const m = /^(?:(\[[0-9a-fA-F:]+\]|[0-9.]+|localhost):)?([0-9]{1,5})$/.exec(text);
  if (!m || Number(m[2]) > 65535) throw new UsageError(`--listen: '${text}' is not PORT or ADDRESS:PORT (e.g. 9464 or 127.0.0.1:9464)`, 'metrics');
  return { host: (m[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

async function serveMetrics(ctx: CommandContext, at: { host: string; port: number }): Promise<number> {
  const c = await ctx.connect();
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url !== '/metrics' && !req.url?.startsWith('/metrics?'))) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('pane metrics serves GET /metrics\n');
      return;
    }
    c.call('server/metrics', {}).then(
      (m) => res.writeHead(200, { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' }).end(prometheusText(m)),
      (e: Error) => res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end(`the pane daemon did not answer: ${e.message}\n`),
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 20_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => resolve());
  });
  const a = server.address() as AddressInfo;
  const shownHost = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  ctx.out(`serving Prometheus metrics at http://${shownHost}:${a.port}/metrics${at.host === '127.0.0.1' || at.host === '::1' || at.host === 'localhost' ? '' : ' (not loopback: every machine that reaches this address can read them)'}`);
  return new Promise<number>((resolve) => {
    const stop = () => server.close(() => resolve(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    c.onClose(() => server.close(() => resolve(3)));
  });
}

export const metricsCommands: CommandSpec[] = [
  {
    command: 'metrics',
    summary: 'the daemon’s and each pane’s figures as Prometheus text; --listen serves them for a scraper',
    flags: [{ name: 'listen', type: 'string', value: '[ADDR:]PORT', doc: 'serve GET /metrics there (loopback unless an address is named; 0 picks a free port) until stopped' }],
    notes: [
      'Per pane: output bytes, clients attached, processes, CPU seconds and resident memory of its process tree (labels: pane, kind, session, agent). The daemon: memory, CPU, event-loop delay (p50, p99 since the last scrape), clients, sessions, panes by kind and state. No screen text and no titles are in it. A scrape config: scrape_configs: [{job_name: pane, static_configs: [{targets: ["127.0.0.1:9464"]}]}].',
    ],
    async run(ctx, a) {
      const listen = str(a, 'listen');
      if (listen !== undefined) return serveMetrics(ctx, parseListen(listen));
      const c = await ctx.connect();
      ctx.out(prometheusText(await c.call('server/metrics', {})).trimEnd());
      return 0;
    },
  },
];
