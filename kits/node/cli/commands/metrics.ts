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
import type { ServerMetrics } from '../../../protocol/metrics';

/** A label value as the exposition format wants it: backslash, double quote and newline escaped. */
function label(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** The Prometheus text exposition (version 0.0.4) of one answer of server/metrics. */
export function prometheusText(m: ServerMetrics): string {
  const out: string[] = [];
  const metric = (name: string, type: 'gauge' | 'counter', help: string, rows: [Record<string, string>, number][]) => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, v] of rows) {
      const ls = Object.entries(labels).map(([k, x]) => `${k}="${label(x)}"`).join(',');
      out.push(`${name}${ls ? `{${ls}}` : ''} ${Number.isFinite(v) ? v : 0}`);
    }
  };
  const host = { host: m.host };
  metric('pane_info', 'gauge', 'The pane daemon: its host name and version (always 1).', [[{ ...host, version: m.version }, 1]]);
  metric('pane_uptime_seconds', 'gauge', 'Seconds since the daemon started.', [[host, m.uptimeSeconds]]);
  metric('pane_daemon_resident_memory_bytes', 'gauge', 'The daemon process resident set size.', [[host, m.rssBytes]]);
  metric('pane_daemon_heap_used_bytes', 'gauge', 'The daemon JavaScript heap in use.', [[host, m.heapUsedBytes]]);
  metric('pane_daemon_cpu_seconds_total', 'counter', 'CPU seconds the daemon process used (user and system).', [[host, m.cpuSeconds]]);
  metric('pane_event_loop_delay_p50_seconds', 'gauge', 'The daemon event loop delay since the last scrape, median: what requests and keystrokes waited behind.', [[host, m.eventLoopDelayP50]]);
  metric('pane_event_loop_delay_p99_seconds', 'gauge', 'The daemon event loop delay since the last scrape, 99th percentile.', [[host, m.eventLoopDelayP99]]);
  metric('pane_clients', 'gauge', 'Clients connected (windows, CLIs, mounts, MCP servers, hooks).', [[host, m.clients]]);
  metric('pane_sessions', 'gauge', 'Sessions.', [[host, m.sessions]]);
  metric('pane_panes', 'gauge', 'Panes, by kind and state.', countBy(m.panes, (p) => ({ ...host, kind: p.kind, state: p.state })));
  const paneLabels = (p: ServerMetrics['panes'][number]) => ({ ...host, pane: String(p.pane), kind: p.kind, session: p.session, ...(p.agent ? { agent: p.agent } : {}) });
  metric('pane_output_bytes_total', 'counter', 'Bytes the pane’s program wrote since it started.', m.panes.map((p) => [paneLabels(p), p.outputBytes]));
  metric('pane_attached_clients', 'gauge', 'Clients streaming the pane now.', m.panes.map((p) => [paneLabels(p), p.attached]));
  metric('pane_processes', 'gauge', 'Processes in the pane’s process tree.', m.panes.map((p) => [paneLabels(p), p.processes]));
  metric('pane_cpu_seconds_total', 'counter', 'CPU seconds the pane’s process tree used (live processes).', m.panes.map((p) => [paneLabels(p), p.cpuSeconds]));
  metric('pane_resident_memory_bytes', 'gauge', 'Resident memory of the pane’s process tree.', m.panes.map((p) => [paneLabels(p), p.rssBytes]));
  return `${out.join('\n')}\n`;
}

function countBy<T>(items: readonly T[], key: (t: T) => Record<string, string>): [Record<string, string>, number][] {
  const m = new Map<string, [Record<string, string>, number]>();
  for (const t of items) {
    const k = key(t);
    const id = JSON.stringify(k);
    const had = m.get(id);
    if (had) had[1]++;
    else m.set(id, [k, 1]);
  }
  return [...m.values()];
}

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
      (m) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' }).end(prometheusText(m)),
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
