// `pane metrics`: the daemon's figures as Prometheus text — printed once, or served
// on a loopback port for a Prometheus server (or anything that scrapes its text
// exposition format) with `--listen`. Each scrape asks the daemon afresh, as the
// person who runs this; the page holds counts and sizes, never screen text or titles.
// A scrape must bring the bearer token this process made at its start and wrote to
// its token file (0600): the port is reachable by every local user, the token only
// by the person (and the Prometheus whose credentials_file it is).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { CommandSpec } from '../command';
import type { CommandContext } from '../context';
import { UsageError } from '../errors';
import { str } from '../args';
import { PROMETHEUS_CONTENT_TYPE, prometheusText } from '../../../protocol/prometheus';
import { runtimeDir } from '../../paths';

/** Random bytes of the scrape token `--listen` makes at each start (256 bits, as a grant's). */
export const SCRAPE_TOKEN_BYTES = 32;

/** Where `--listen` writes its token unless `--token-file` says: pane's runtime dir (0700). */
function defaultTokenFile(): string {
  return path.join(runtimeDir(), 'metrics.token');
}

/** Writes `token` to `file` as the person's alone (0600), replacing what was there; refuses a link. */
function writeToken(file: string, token: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${token}\n`, { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, file);
}

/** Whether the request's `Authorization: Bearer …` is `token` (compared in constant time). */
function bearerIs(req: http.IncomingMessage, token: string): boolean {
  const m = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(req.headers.authorization ?? '');
  if (!m) return false;
  const a = crypto.createHash('sha256').update(m[1]!).digest();
  const b = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(a, b);
}

/** `ADDR:PORT` or `PORT` (loopback); an address other than loopback must be named, and is said. */
function parseListen(text: string): { host: string; port: number } {
  const m = /^(?:(\[[0-9a-fA-F:]+\]|[0-9.]+|localhost):)?([0-9]{1,5})$/.exec(text);
  if (!m || Number(m[2]) > 65535) throw new UsageError(`--listen: '${text}' is not PORT or ADDRESS:PORT (e.g. 9464 or 127.0.0.1:9464)`, 'metrics');
  return { host: (m[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

async function serveMetrics(ctx: CommandContext, at: { host: string; port: number }, tokenFile: string): Promise<number> {
  const c = await ctx.connect();
  const token = crypto.randomBytes(SCRAPE_TOKEN_BYTES).toString('base64url');
  try {
    writeToken(tokenFile, token);
  } catch (e) {
    throw new UsageError(`--token-file: cannot write ${tokenFile}: ${(e as Error).message}`, 'metrics');
  }
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url !== '/metrics' && !req.url?.startsWith('/metrics?'))) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('pane metrics serves GET /metrics\n');
      return;
    }
    if (!bearerIs(req, token)) {
      res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="pane metrics"' }).end(`a scrape needs the bearer token in ${tokenFile} (Prometheus: authorization.credentials_file)\n`);
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
  ctx.out(`serving Prometheus metrics at http://${shownHost}:${a.port}/metrics to scrapes bearing the token in ${tokenFile}${at.host === '127.0.0.1' || at.host === '::1' || at.host === 'localhost' ? '' : ' (not loopback: every machine that reaches this address can try)'}`);
  const forget = () => {
    // The token goes with this process: a file that still holds it is removed (another listener's is left).
    try {
      if (fs.readFileSync(tokenFile, 'utf8').trim() === token) fs.unlinkSync(tokenFile);
    } catch {
      // gone already
    }
  };
  return new Promise<number>((resolve) => {
    const stop = () => {
      forget();
      server.close(() => resolve(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    c.onClose(() => {
      forget();
      server.close(() => resolve(3));
    });
  });
}

export const metricsCommands: CommandSpec[] = [
  {
    command: 'metrics',
    summary: 'the daemon’s and each pane’s figures as Prometheus text; --listen serves them for a scraper',
    flags: [
      { name: 'listen', type: 'string', value: '[ADDR:]PORT', doc: 'serve GET /metrics there (loopback unless an address is named; 0 picks a free port) until stopped, to scrapes bearing its token' },
      { name: 'token-file', type: 'string', value: 'FILE', doc: 'where --listen writes the bearer token it makes at its start (0600; default: metrics.token in pane’s runtime dir)' },
    ],
    notes: [
      'Per pane: output bytes, clients attached, processes, CPU seconds and resident memory of its process tree (labels: pane, kind, session, agent). The daemon: memory, CPU, event-loop delay (p50, p99 since the last scrape), clients, sessions, panes by kind and state. No screen text and no titles are in it. A scrape config: scrape_configs: [{job_name: pane, authorization: {credentials_file: FILE}, static_configs: [{targets: ["127.0.0.1:9464"]}]}], FILE being --token-file (a new token at each start; Prometheus reads the file at each scrape). A scrape without it is answered 401.',
    ],
    async run(ctx, a) {
      const listen = str(a, 'listen');
      const tokenFile = str(a, 'token-file');
      if (tokenFile !== undefined && listen === undefined) throw new UsageError('--token-file goes with --listen', 'metrics');
      if (listen !== undefined) return serveMetrics(ctx, parseListen(listen), path.resolve(tokenFile ?? defaultTokenFile()));
      const c = await ctx.connect();
      ctx.out(prometheusText(await c.call('server/metrics', {})).trimEnd());
      return 0;
    },
  },
];
