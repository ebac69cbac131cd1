// The Prometheus text exposition format (version 0.0.4) of one server/metrics answer:
// what `pane metrics` prints and serves, what /pane/server/metrics reads and what the
// HTTP front's /metrics scrape path answers — one rendering for every door. Names
// follow Prometheus's conventions (a pane_ prefix, base units in the name, _total on
// counters, _seconds histograms with _bucket/_sum/_count); every value is a count, a
// size or a time, and labels are pane numbers, kinds, session and agent names — never
// screen text or titles. Checked by promtool in test/cli/metrics.test.ts.
// Why by hand rather than prom-client: docs/decisions/048-prometheus-text-by-hand.md.
import { LATENCY_BUCKETS_S, LATENCY_KINDS, type LatencyKind } from './latency';
import type { ServerMetrics } from './metrics';

/** The content type a scraper is answered with. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** A label value as the exposition format wants it: backslash, double quote and newline escaped. */
function label(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** A label name as the format allows ([a-zA-Z_][a-zA-Z0-9_]*): anything else becomes _. */
function labelName(k: string): string {
  const s = k.replace(/[^a-zA-Z0-9_]/g, '_');
  return /^[a-zA-Z_]/.test(s) ? s : `_${s}`;
}

function labelSet(labels: Record<string, string>): string {
  const ls = Object.entries(labels).map(([k, x]) => `${labelName(k)}="${label(x)}"`).join(',');
  return ls ? `{${ls}}` : '';
}

/** A number as the format writes it (NaN and infinities by name, though none is sent). */
function num(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  return String(v);
}

const HISTOGRAM_NAMES: Record<LatencyKind, string> = {
  echo: 'pane_echo_seconds',
  hook: 'pane_hook_duration_seconds',
  request: 'pane_request_duration_seconds',
};

/** Extra gauges a door adds of its own (the namespace's open handles), each `[name, help, value]`. */
export type ExtraGauge = [name: string, help: string, value: number];

export function prometheusText(m: ServerMetrics, extra: readonly ExtraGauge[] = []): string {
  const out: string[] = [];
  const head = (name: string, type: 'gauge' | 'counter' | 'histogram', help: string) => out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  const metric = (name: string, type: 'gauge' | 'counter', help: string, rows: [Record<string, string>, number][]) => {
    head(name, type, help);
    for (const [labels, v] of rows) out.push(`${name}${labelSet(labels)} ${num(v)}`);
  };
  const host = { host: m.host };
  metric('pane_info', 'gauge', 'The pane daemon: its host name and version (always 1).', [[{ ...host, version: m.version }, 1]]);
  metric('pane_uptime_seconds', 'gauge', 'Seconds since the daemon started.', [[host, m.uptimeSeconds]]);
  metric('pane_daemon_resident_memory_bytes', 'gauge', 'The daemon process resident set size.', [[host, m.rssBytes]]);
  metric('pane_daemon_heap_used_bytes', 'gauge', 'The daemon JavaScript heap in use.', [[host, m.heapUsedBytes]]);
  metric('pane_daemon_heap_trims_total', 'counter', 'Times the daemon handed heap a flood left free back to the system, once quiet.', [[host, m.heapTrims]]);
  metric('pane_daemon_heap_trimmed_bytes_total', 'counter', 'Resident bytes those heap trims gave back.', [[host, m.heapTrimmedBytes]]);
  metric('pane_daemon_cpu_seconds_total', 'counter', 'CPU seconds the daemon process used (user and system).', [[host, m.cpuSeconds]]);
  metric('pane_event_loop_delay_p50_seconds', 'gauge', 'The daemon event loop delay since the last collection, median: what requests and keystrokes waited behind.', [[host, m.eventLoopDelayP50]]);
  metric('pane_event_loop_delay_p99_seconds', 'gauge', 'The daemon event loop delay since the last collection, 99th percentile.', [[host, m.eventLoopDelayP99]]);
  metric('pane_clients', 'gauge', 'Clients connected (windows, CLIs, mounts, MCP servers, hooks).', [[host, m.clients]]);
  metric('pane_sessions', 'gauge', 'Sessions.', [[host, m.sessions]]);
  metric('pane_panes', 'gauge', 'Panes, by kind and state.', countBy(m.panes, (p) => ({ ...host, kind: p.kind, state: p.state })));
  const paneLabels = (p: ServerMetrics['panes'][number]) => ({ ...host, pane: String(p.pane), kind: p.kind, session: p.session, ...(p.agent ? { agent: p.agent } : {}) });
  metric('pane_output_bytes_total', 'counter', 'Bytes the pane’s program wrote since it started.', m.panes.map((p) => [paneLabels(p), p.outputBytes]));
  metric('pane_attached_clients', 'gauge', 'Clients streaming the pane now.', m.panes.map((p) => [paneLabels(p), p.attached]));
  metric('pane_processes', 'gauge', 'Processes in the pane’s process tree.', m.panes.map((p) => [paneLabels(p), p.processes]));
  metric('pane_cpu_seconds_total', 'counter', 'CPU seconds the pane’s process tree used (live processes).', m.panes.map((p) => [paneLabels(p), p.cpuSeconds]));
  metric('pane_resident_memory_bytes', 'gauge', 'Resident memory of the pane’s process tree.', m.panes.map((p) => [paneLabels(p), p.rssBytes]));
  metric('pane_storage_read_bytes_total', 'counter', 'Bytes the pane’s live processes caused to be read from storage (/proc/PID/io read_bytes).', m.panes.map((p) => [paneLabels(p), p.ioReadBytes]));
  metric('pane_storage_written_bytes_total', 'counter', 'Bytes the pane’s live processes caused to be written to storage (/proc/PID/io write_bytes).', m.panes.map((p) => [paneLabels(p), p.ioWriteBytes]));
  for (const kind of Object.keys(LATENCY_KINDS) as LatencyKind[]) {
    const series = m.latency.filter((h) => h.name === kind);
    const name = HISTOGRAM_NAMES[kind];
    head(name, 'histogram', LATENCY_KINDS[kind]);
    for (const h of series) {
      const labels = { ...host, ...h.labels };
      LATENCY_BUCKETS_S.forEach((le, i) => out.push(`${name}_bucket${labelSet({ ...labels, le: String(le) })} ${h.buckets[i] ?? 0}`));
      out.push(`${name}_bucket${labelSet({ ...labels, le: '+Inf' })} ${h.count}`, `${name}_sum${labelSet(labels)} ${num(h.sum)}`, `${name}_count${labelSet(labels)} ${h.count}`);
    }
  }
  for (const [name, help, v] of extra) metric(name, 'gauge', help, [[host, v]]);
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
