// `pane top`: what htop shows for a machine, for pane — each pane's process tree (CPU
// percent, memory, output and disk bytes a second, viewers) and the daemon's own cost
// and latency (echo, hook, request p50/p99 read off its histograms) — redrawn every
// interval on the alternate screen, sorted by a key; or printed N times (`-n N`, or
// once when stdout is not a terminal) for scripts. Every figure is server/metrics';
// rates are this client's differences between two answers.
import { binaryScale } from '../../../protocol/binaryScale';
import { histogramQuantile, LATENCY_BUCKETS_S } from '../../../protocol/latency';
import type { Histogram, PaneMetrics, ServerMetrics } from '../../../protocol/metrics';
import { paneRate } from '../../../protocol/paneRate';
import { clipMiddle, shown } from '../../../protocol/shown';
import type { CommandSpec } from '../command';
import type { CommandContext } from '../context';
import { UsageError } from '../errors';
import { int, str } from '../args';
import { table } from '../format';

/** Seconds between redraws when none is named; htop's default is 1.5 s, top's 3 s. */
export const TOP_DEFAULT_INTERVAL_S = 2;
/** The shortest interval: below it CPU time (10 ms ticks) is noise and the daemon's /proc walk is the load. */
export const TOP_MIN_INTERVAL_S = 0.5;
export const TOP_MAX_INTERVAL_S = 60;

const SORTS = { cpu: 'CPU%', mem: 'MEM', out: 'OUT/s', pane: 'PANE' } as const;
type Sort = keyof typeof SORTS;
const SORT_KEYS: Record<string, Sort> = { c: 'cpu', m: 'mem', o: 'out', p: 'pane' };

export interface TopRow {
  pane: PaneMetrics;
  cpuPercent: number | null;
  outPerSecond: number | null;
  readPerSecond: number | null;
  writePerSecond: number | null;
}

/** Rates between two answers (null for a pane the earlier one lacks, or with no time between). */
export function topRows(now: ServerMetrics, before: ServerMetrics | null, seconds: number): TopRow[] {
  const prev = new Map((before?.panes ?? []).map((p) => [p.pane, p]));
  return now.panes.map((p) => ({ pane: p, ...paneRate(p, prev.get(p.pane), seconds) }));
}

function sortRows(rows: TopRow[], by: Sort): TopRow[] {
  const key = (r: TopRow): number => (by === 'cpu' ? (r.cpuPercent ?? -1) : by === 'mem' ? r.pane.rssBytes : by === 'out' ? (r.outPerSecond ?? -1) : -r.pane.pane);
  return [...rows].sort((a, b) => key(b) - key(a) || a.pane.pane - b.pane.pane);
}

/** 1536 → 1.5K, as top and htop print sizes. */
export function size(bytes: number | null): string {
  if (bytes === null) return '-';
  const units = ['', 'K', 'M', 'G', 'T'];
  const { value: v, step: i } = binaryScale(bytes, units.length - 1);
  return i === 0 ? String(Math.round(v)) : `${v < 10 ? v.toFixed(1) : Math.round(v)}${units[i]}`;
}

/** The heap trims after floods (decision 051), once there were any: why resident memory fell. */
const trimmed = (m: ServerMetrics) => (m.heapTrims > 0 ? ` · ${m.heapTrims} heap trim${m.heapTrims === 1 ? '' : 's'} gave back ${size(m.heapTrimmedBytes)}` : '');

const msText = (s: number | null) => (s === null ? '-' : s < 0.001 ? `${(s * 1000).toFixed(2)}ms` : s < 1 ? `${(s * 1000).toFixed(1)}ms` : `${s.toFixed(2)}s`);

/** Every request method's histogram as one (the buckets of one bounds list add). */
function merged(hs: readonly Histogram[]): Pick<Histogram, 'buckets' | 'count' | 'sum'> {
  const buckets = LATENCY_BUCKETS_S.map((_, i) => hs.reduce((n, h) => n + (h.buckets[i] ?? 0), 0));
  return { buckets, count: hs.reduce((n, h) => n + h.count, 0), sum: hs.reduce((n, h) => n + h.sum, 0) };
}

function latencyLine(m: ServerMetrics): string {
  const part = (label: string, h: Pick<Histogram, 'buckets' | 'count'> | undefined) =>
    !h || h.count === 0 ? `${label} -` : `${label} p50 ${msText(histogramQuantile(h, 0.5))} p99 ${msText(histogramQuantile(h, 0.99))} (${h.count})`;
  return `latency: ${part('echo', m.latency.find((h) => h.name === 'echo'))} · ${part('hook', m.latency.find((h) => h.name === 'hook'))} · ${part('requests', merged(m.latency.filter((h) => h.name === 'request')))}`;
}

function uptime(s: number): string {
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d > 0 ? `${d}d${h}h` : h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
}

/**
 * The widest a session's name is shown in top's table: the figures (CPU, memory, rates)
 * come after it, and a long name pushed them past a terminal's edge, where each frame is
 * cut. Longer names keep their start and end ("mainrenamed-w…indeed"); `pane ls` has them whole.
 */
export const TOP_SESSION_WIDTH = 20;

const HEADER = ['PANE', 'SESSION', 'KIND', 'AGENT', 'STATE', 'PROCS', 'CPU%', 'MEM', 'OUT/s', 'READ/s', 'WRITE/s', 'VIEWERS'];
const RIGHT = new Set([0, 5, 6, 7, 8, 9, 10, 11]);

/** One frame's lines: the daemon, latency, then a row per pane (as many as `maxRows`), sorted. */
export function topFrame(now: ServerMetrics, before: ServerMetrics | null, seconds: number, o: { sort: Sort; maxRows?: number }): string[] {
  const daemonCpu = before && seconds > 0 ? `${(((now.cpuSeconds - before.cpuSeconds) / seconds) * 100).toFixed(1)}% CPU` : '- CPU';
  const lines = [
    `pane top — ${shown(now.host)} · up ${uptime(now.uptimeSeconds)} · ${now.panes.length} pane${now.panes.length === 1 ? '' : 's'} · ${now.clients} client${now.clients === 1 ? '' : 's'} · ${now.sessions} session${now.sessions === 1 ? '' : 's'}`,
    `daemon: ${daemonCpu} · ${size(now.rssBytes)} resident · ${size(now.heapUsedBytes)} heap · event loop p99 ${msText(now.eventLoopDelayP99)}${trimmed(now)}`,
    latencyLine(now),
    '',
  ];
  const rows = sortRows(topRows(now, before, seconds), o.sort).slice(0, o.maxRows ?? Infinity);
  const cells = rows.map((r) => [
    String(r.pane.pane),
    clipMiddle(shown(r.pane.session), TOP_SESSION_WIDTH),
    r.pane.kind,
    r.pane.agent ?? '-',
    r.pane.state,
    String(r.pane.processes),
    r.cpuPercent === null ? '-' : r.cpuPercent.toFixed(1),
    size(r.pane.rssBytes),
    size(r.outPerSecond),
    size(r.readPerSecond),
    size(r.writePerSecond),
    String(r.pane.attached),
  ]);
  lines.push(...table(HEADER.map((h) => (SORTS[o.sort] === h ? `${h}▾` : h)), cells, { right: RIGHT }).split('\n'));
  if (rows.length === 0) lines.push('(no panes)');
  return lines;
}

async function interactive(ctx: CommandContext, ask: () => Promise<ServerMetrics>, intervalMs: number, first: Sort): Promise<number> {
  const out = ctx.io.stdout as NodeJS.WriteStream;
  const stdin = ctx.io.stdin as NodeJS.ReadStream;
  let sort = first;
  let before: ServerMetrics | null = null;
  let beforeAt = 0;
  let now: ServerMetrics | null = null;
  let nowAt = 0;
  let note = '';
  // Set on the way out: a frame whose metrics call was in flight when q came must not
  // be drawn after the alternate screen is left, over the shell's own screen.
  let quitting = false;
  const draw = () => {
    if (!now || quitting) return;
    const cols = Math.max(20, out.columns ?? 120);
    const height = Math.max(6, out.rows ?? 40);
    const fit = (l: string) => [...l].slice(0, cols - 1).join('');
    const lines = topFrame(now, before, (nowAt - beforeAt) / 1000, { sort, maxRows: height - 7 }).map(fit);
    lines.push('', fit(note || `sort: c CPU · m memory · o output · p pane — q quits · every ${intervalMs / 1000}s`));
    out.write(`\x1b[H\x1b[2J${lines.join('\r\n')}`);
  };
  const tick = async () => {
    try {
      const m = await ask();
      before = now;
      beforeAt = nowAt;
      now = m;
      nowAt = performance.now();
      note = '';
    } catch (e) {
      note = `! ${(e as Error).message}`;
    }
    draw();
  };
  // The alternate screen, no cursor: the shell's screen comes back as it was on q.
  out.write('\x1b[?1049h\x1b[?25l');
  const restore = () => out.write('\x1b[?25h\x1b[?1049l');
  let timer: NodeJS.Timeout | undefined;
  try {
    await tick();
    timer = setInterval(() => void tick(), intervalMs);
    out.on('resize', draw);
    const c = await ctx.connect();
    await new Promise<void>((resolve) => {
      // One read can hold several keys (typed fast, or a paste): each is acted on in
      // turn. An escape sequence (an arrow, a function key) is not a sort key.
      stdin.on('data', (b: Buffer) => {
        const chunk = b.toString('utf8');
        if (chunk.startsWith('\x1b')) return;
        for (const k of chunk) {
          if (k === 'q' || k === '\x03' || k === '\x04') return resolve();
          const s = SORT_KEYS[k.toLowerCase()];
          if (s) {
            sort = s;
            draw();
          }
        }
      });
      stdin.once('end', () => resolve());
      c.onClose(() => resolve());
      // The listener is in place before the stream flows: a key read earlier is not dropped.
      if (stdin.isTTY) stdin.setRawMode(true);
      stdin.resume();
    });
  } finally {
    quitting = true;
    clearInterval(timer);
    out.off('resize', draw);
    if (stdin.isTTY) stdin.setRawMode(false);
    stdin.pause();
    restore();
  }
  return 0;
}

export const topCommands: CommandSpec[] = [
  {
    command: 'top',
    summary: 'each pane’s CPU, memory, output and disk rates and the daemon’s latency, live (as htop); -n N prints N frames',
    flags: [
      { name: 'interval', short: 'd', type: 'string', value: 'SECONDS', doc: `between frames (default ${TOP_DEFAULT_INTERVAL_S}, ${TOP_MIN_INTERVAL_S}..${TOP_MAX_INTERVAL_S})` },
      { name: 'iterations', short: 'n', type: 'int', min: 1, max: 100000, value: 'N', doc: 'print N frames, one an interval, and exit (the default when stdout is not a terminal: 1)' },
      { name: 'sort', type: 'string', value: 'cpu|mem|out|pane', doc: 'the first sort (default cpu; keys c, m, o, p change it)' },
    ],
    notes: [
      'Per pane: its process tree’s processes, CPU percent, resident memory, output bytes a second, storage bytes read and written a second, clients streaming it. Above: the daemon’s CPU, memory and event-loop p99, and the echo, hook and request latency (p50, p99, count) since it started. The first frame waits one interval (CPU percent is a difference). The same figures are Prometheus text in `pane metrics`.',
    ],
    async run(ctx, a) {
      const intervalText = str(a, 'interval');
      const interval = intervalText === undefined ? TOP_DEFAULT_INTERVAL_S : Number(intervalText);
      if (!Number.isFinite(interval) || interval < TOP_MIN_INTERVAL_S || interval > TOP_MAX_INTERVAL_S) throw new UsageError(`--interval: '${intervalText}' is not a number of seconds in ${TOP_MIN_INTERVAL_S}..${TOP_MAX_INTERVAL_S}`, 'top');
      const sortText = str(a, 'sort') ?? 'cpu';
      if (!(sortText in SORTS)) throw new UsageError(`--sort: '${sortText}' is not one of ${Object.keys(SORTS).join(', ')}`, 'top');
      const sort = sortText as Sort;
      const c = await ctx.connect();
      const ask = () => c.call('server/metrics', {});
      const out = ctx.io.stdout as NodeJS.WriteStream;
      const stdin = ctx.io.stdin as NodeJS.ReadStream;
      const n = int(a, 'iterations');
      if (n === undefined && out.isTTY && stdin.isTTY) return interactive(ctx, ask, interval * 1000, sort);
      let before = await ask();
      let at = performance.now();
      for (let i = 0; i < (n ?? 1); i++) {
        await new Promise((r) => setTimeout(r, interval * 1000));
        const now = await ask();
        const t = performance.now();
        // Frames apart by a blank line, as top -b prints them.
        ctx.out(`${i > 0 ? '\n' : ''}${topFrame(now, before, (t - at) / 1000, { sort }).join('\n')}`);
        before = now;
        at = t;
      }
      return 0;
    },
  },
];
