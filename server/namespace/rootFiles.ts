// The files and directories above the panes: index, new/ctl, server/*, and the
// listings of the root, pane directories and the by-* views.
import { partnersByName, partnerText } from '../../kits/protocol/partners';
import { RateSampler } from '../metrics/rates';
import { histogramQuantile } from '../../kits/protocol/metrics';
import { prometheusText } from '../../kits/protocol/prometheus';
import type { NsEntry } from '../../kits/protocol/namespace';
import type { Pane } from '../../kits/protocol/model';
import { nsFaults, rectOf, rpc } from './call';
import { ctlLine, encodeName, field, indexLine, splitProgramLine } from './lines';
import { runCtl } from './paneFiles';
import type { Call, Row, Target, WriteOutcome } from './types';
import { clip } from '../../kits/protocol/shown';

const utf8 = (s: string) => Buffer.from(s, 'utf8');

export async function allPanes(c: Call): Promise<Pane[]> {
  return (await rpc(c, 'pane/list', {})).panes;
}

export function entry(r: Pick<Row, 'type' | 'mode'>, name: string, size = 0): NsEntry {
  return { name, type: r.type, mode: r.mode, size };
}

/** The joined hosts' panes as last heard (server/hosts/remoteNamespace.ts), none for an agent or with no host joined. */
export function remotePanes(c: Call): Pane[] {
  return c.ns.remote?.panes(c.ctx) ?? [];
}

/** /index: this server's panes, then each joined host's (its host column the host file's name; its session is named on that host: -). */
export async function indexRead(c: Call): Promise<Buffer> {
  const panes = await allPanes(c);
  const lines = [...panes.map((p) => indexLine(p, c.ns.sessionName(p.session))), ...remotePanes(c).map((p) => indexLine(p, '-'))];
  return utf8(lines.map((l) => l + '\n').join(''));
}

/** The root: fixed names from the table, then one directory per pane. */
export async function rootList(c: Call, rows: readonly Row[]): Promise<NsEntry[]> {
  const fixed = rows.filter((r) => /^\/[a-z-]+\/?$/.test(r.path)).map((r) => entry(r, r.path.replace(/\//g, ''), r.feed ? r.feed(c, { path: r.path, name: '' }).size : 0));
  const dir = rows.find((r) => r.path === '/<n>/')!;
  // Then each joined host's panes as HOST:N, answered by that host (server/hosts/remoteNamespace.ts).
  return [...fixed, ...(await allPanes(c)).map((p) => entry(dir, String(p.n))), ...(c.ns.remote?.rootEntries(c.ctx) ?? [])];
}

export function paneDirList(c: Call, t: Target, files: readonly Row[]): NsEntry[] {
  return files.map((r) => entry(r, r.path.slice('/<n>/'.length), r.feed ? r.feed(c, t).size : 0));
}

/** The keys a view groups by, as path names. */
export type View = 'by-sig' | 'by-owner' | 'by-session';

export function viewKey(c: Call, view: View, p: Pane): string {
  if (view === 'by-sig') return p.signature;
  if (view === 'by-owner') return p.owner;
  return c.ns.sessionName(p.session);
}

/** A view's panes: this server's, and for by-sig and by-owner each joined host's (a remote session is named on its host, so by-session holds local panes only). */
export async function viewPanes(c: Call, view: View): Promise<Pane[]> {
  const local = await allPanes(c);
  return view === 'by-session' ? local : [...local, ...remotePanes(c)];
}

/** A pane's directory name in a view: N here, HOST:N for a joined host's. */
const dirName = (c: Call, p: Pane): string => (p.host === c.ns.server.host ? String(p.n) : `${p.host}:${p.n}`);

export async function viewList(c: Call, view: View, dir: Row): Promise<NsEntry[]> {
  const keys = new Set<string>();
  for (const p of await viewPanes(c, view)) keys.add(encodeName(viewKey(c, view, p)));
  if (view === 'by-session') for (const s of (await rpc(c, 'session/list', {})).sessions) keys.add(encodeName(s.name));
  return [...keys].sort().map((k) => entry(dir, k));
}

export async function viewKeyList(c: Call, view: View, key: string, dir: Row): Promise<NsEntry[]> {
  const panes = (await viewPanes(c, view)).filter((p) => viewKey(c, view, p) === key);
  return panes.map((p) => entry(dir, dirName(c, p)));
}

// ---- new/ctl -----------------------------------------------------------------

/**
 * new/ctl: the first line is a program (argv; empty = the user's shell) run in a
 * new pane beside the focused one; later lines, and later writes on the same
 * handle, are ctl commands for that pane. Reading the handle gives its ctl line.
 */
export async function newCtlWrite(c: Call, t: Target, data: Buffer): Promise<WriteOutcome> {
  const lines = data.toString('utf8').split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  let n = c.fid?.created;
  if (n === undefined) {
    const first = (lines.shift() ?? '').trim();
    const argv = splitProgramLine(first);
    if (typeof argv === 'string') throw nsFaults.bad(t.path, argv);
    const launch = argv.length === 0 ? undefined : { program: argv[0]!, args: argv.slice(1) };
    const { sessions } = await rpc(c, 'session/list', {});
    if (sessions.length === 0) {
      const s = await rpc(c, 'session/new', launch ? { launch } : {});
      n = (await rpc(c, 'session/get', { session: s.session })).focused ?? undefined;
    } else {
      n = (await rpc(c, 'pane/split', launch ? { launch } : {})).pane;
    }
    if (n === undefined) throw nsFaults.bad(t.path, 'the new session has no pane');
    if (c.fid) {
      c.fid.created = n;
      delete c.fid.content;
    }
  }
  const pane = await rpc(c, 'pane/get', { pane: n });
  const rest = lines.map((l) => l.trim()).filter((l) => l !== '');
  if (rest.length > 0) await runCtl(c, t.path, pane, rest);
  return { pane: n, ctl: ctlLine(pane, c.ns.sessionName(pane.session), await rectOf(c, pane)) };
}

/** Reading new/ctl: the ctl line of the pane this handle created, else nothing (reading never creates). */
export async function newCtlRead(c: Call): Promise<Buffer> {
  const n = c.fid?.created;
  if (n === undefined) return Buffer.alloc(0);
  const pane = await rpc(c, 'pane/get', { pane: n });
  return utf8(ctlLine(pane, c.ns.sessionName(pane.session), await rectOf(c, pane)) + '\n');
}

// ---- server/ -----------------------------------------------------------------

export async function versionRead(c: Call): Promise<Buffer> {
  const i = await rpc(c, 'server/info', {});
  return utf8(`pane ${i.version} protocol ${i.protocol} host ${i.host}\n`);
}

export async function clientsRead(c: Call): Promise<Buffer> {
  const { clients } = await rpc(c, 'client/list', {});
  return utf8(
    clients
      .map((x) => [x.id, x.name, x.kind, x.user, x.transport, x.capabilities.join(','), x.canWrite ? 'write' : 'read-only', x.attached.join(',')].map(field).join(' ') + '\n')
      .join(''),
  );
}

/** /server/stats: "name value" lines of counts and sizes (server/info as the reader), for widgets and shell scripts. */
export async function statsRead(c: Call): Promise<Buffer> {
  const i = await rpc(c, 'server/info', {});
  const m: [string, number | string][] = [
    ['panes', i.panes],
    ['sessions', i.sessions],
    ['clients', i.clients],
    ['rev', i.rev],
    ['uptime_ms', Date.now() - i.startedAt],
    ['rss_bytes', i.memory.rss],
    ['heap_used_bytes', i.memory.heapUsed],
    ['pid', i.pid],
    ['ns_open_handles', c.ns.openFids()],
    ['ns_log_bytes', c.ns.log.size],
  ];
  return utf8(m.map(([k, v]) => `${k} ${v}\n`).join(''));
}

/**
 * /server/metrics: server/metrics as the reader (an agent by its .access, never a
 * grant's guest), in Prometheus text (kits/protocol/prometheus.ts), with the
 * namespace's own open handles and log size.
 */
export async function metricsRead(c: Call): Promise<Buffer> {
  const m = await rpc(c, 'server/metrics', {});
  return utf8(
    prometheusText(m, [
      ['pane_namespace_open_handles', 'Files open through the /pane namespace (9P fids, FUSE handles).', c.ns.openFids()],
      ['pane_namespace_log_bytes', 'Bytes /pane/log holds now.', c.ns.log.size],
    ]),
  );
}

/** Milliseconds to a tenth, for people reading a latency. */
const ms = (s: number | null) => (s === null ? null : Math.round(s * 10000) / 10);

/**
 * /server/latency: one JSON object a line per latency histogram (echo, hook, each
 * request method seen), with its count and the median, p99 and mean in milliseconds,
 * read off its buckets (the monitor widget's table; Prometheus reads /server/metrics).
 */
export async function latencyRead(c: Call): Promise<Buffer> {
  const m = await rpc(c, 'server/metrics', {});
  return utf8(
    m.latency
      .map((h) => JSON.stringify({ name: h.name, ...h.labels, count: h.count, p50Ms: ms(histogramQuantile(h, 0.5)), p99Ms: ms(histogramQuantile(h, 0.99)), meanMs: h.count ? ms(h.sum / h.count) : null }) + '\n')
      .join(''),
  );
}

/** Characters of an agent's last prompt /agents shows: a board's line, not the conversation. */
export const AGENTS_PROMPT_CHARS = 300;

/**
 * /agents: one JSON object a line per agent the caller may see (agent/list as the
 * caller: an agent sees what its .access lets it), for boards and scripts: name, host,
 * state and since, its first pane, app, project, last prompt (cut), topics, claims,
 * whom it converges with (peer, confidence, the topics), unread.
 */
export async function agentsRead(c: Call): Promise<Buffer> {
  const { agents } = await rpc(c, 'agent/list', {});
  // Whom each converges with, when the reader may see predictions (a server without awareness has none).
  const predictions = await rpc(c, 'awareness/predictions', {}).then((r) => r.active, () => []);
  const partners = partnersByName(predictions);
  // Mail is not a viewer's: a grant's guest or a read-only client reads no unread count (null).
  const viewer = c.ctx.client.principal.kind === 'grant' || c.ctx.client.readOnly;
  const lines = agents.map((a) =>
    JSON.stringify({
      name: a.name,
      host: a.host ?? null,
      state: a.state,
      since: a.since,
      source: a.source,
      pane: a.panes[0]?.pane ?? null,
      worktree: a.panes[0]?.worktree ?? null,
      app: a.app,
      project: a.project,
      prompt: a.lastPrompt === null ? null : clip(a.lastPrompt, AGENTS_PROMPT_CHARS),
      topics: a.topics,
      claims: a.claims,
      converges: (partners.get(a.name) ?? []).map(partnerText),
      unread: viewer ? null : a.unread,
    }),
  );
  return utf8(lines.map((l) => l + '\n').join(''));
}

/** /server/panes: one JSON object a line per pane, server/metrics' per-pane figures (output bytes, clients, processes, CPU seconds, resident bytes, storage I/O) with its CPU percent and output bytes a second (server/metrics/rates.ts). */
export async function panesMetricsRead(c: Call): Promise<Buffer> {
  const m = await rpc(c, 'server/metrics', {});
  const server = c.ctx.server;
  let sampler = samplers.get(server);
  if (!sampler) samplers.set(server, (sampler = new RateSampler()));
  const rates = sampler.rates(m.panes);
  return utf8(m.panes.map((p) => JSON.stringify({ ...p, ...rates.get(p.pane), rssMiB: Math.round((p.rssBytes / (1 << 20)) * 10) / 10 }) + '\n').join(''));
}

/** Each server's rate samples, shared by every reader of /server/panes. */
const samplers = new WeakMap<object, RateSampler>();
