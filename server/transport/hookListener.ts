// The hook endpoint: Claude Code's HTTP hooks POST each event's JSON to
// http://127.0.0.1:PORT/hook and get exactly what `pane hook` would print, with no
// process per call. A dedicated loopback listener on a port stable per socket path.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { checkResults, Connection } from '../../kits/client/index';
import { memoryPair } from '../../kits/client/memoryTransport';
import { hasHttpHooks, httpHook, parseVersion, VERSION_TIMEOUT_MS, type HookSpec } from '../../kits/node/cli/hookInstall';
import { hookPort, hookUrl } from '../../kits/node/hookPort';
import type { Services } from '../services';
import { ClientConn } from './clientConn';

/** A hook's JSON carries a tool's input (a whole file for Write): generous, but bounded. */
export const MAX_HOOK_BODY = 4 << 20;
/** Claude Code waits on a hook; an answer past this is useless (the command hook's budget too). */
export const HOOK_REQUEST_TIMEOUT_MS = 1500;
export const MAX_HOOK_CONNECTIONS = 64;

export interface HookEndpoint {
  port: number;
  url: string;
  /** What panes get as $PANE_HOOK_TOKEN: lets a hand-started agent CLI in a pane report as the human's. */
  secret: string;
  /** Whether the `claude` on the server's PATH takes HTTP hooks (learnt once, in the background). */
  claudeHttp: boolean;
  close(): Promise<void>;
}

const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

/**
 * Who a request speaks for: an agent's token (Authorization: Bearer $PANE_TOKEN),
 * checked by the same token authority as a hello, or the pane secret
 * (X-Pane-Hook: $PANE_HOOK_TOKEN) for the human's panes. An error string otherwise.
 */
export function hookAuth(headers: http.IncomingHttpHeaders, secret: string): { token?: string } | string {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(String(headers.authorization ?? ''))?.[1];
  if (bearer) return { token: bearer };
  const pane = String(headers['x-pane-hook'] ?? '').trim();
  if (pane && equal(pane, secret)) return {};
  return 'a hook needs Authorization: Bearer $PANE_TOKEN or X-Pane-Hook: $PANE_HOOK_TOKEN (pane sets both in its panes)';
}

/** The HTTP hook for Claude Code launched by this server, when it has an endpoint and Claude Code takes them. */
export function httpHookFor(services: Services): HookSpec | undefined {
  const e = services.hooks;
  return e?.claudeHttp ? httpHook(e.url) : undefined;
}

/** Answers one hook request: status and body (empty body = nothing to say, as `pane hook` prints nothing). */
export async function answerHook(services: Services, auth: { token?: string }, headers: http.IncomingHttpHeaders, body: string): Promise<{ status: number; body: string }> {
  let input: unknown;
  try {
    input = JSON.parse(body);
  } catch {
    return { status: 400, body: 'the hook body is not JSON' };
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return { status: 400, body: 'the hook body is not a JSON object' };
  const [a, b] = memoryPair();
  // The same door a unix client passes: an agent token is settled by the token authority first.
  new ClientConn(services, b, (h) => ({ capabilities: h.capabilities }));
  const c = new Connection(a, { checkResult: checkResults });
  try {
    await c.hello({ client: { name: 'hook', kind: 'cli' }, capabilities: ['read', 'write'], ...(auth.token ? { token: auth.token } : {}) });
    const params: { input: Record<string, unknown>; pane?: string; agent?: string } = { input: input as Record<string, unknown> };
    // The same checks `pane hook` applies to $PANE_ID and $PANE_AGENT.
    const pane = String(headers['x-pane-id'] ?? '');
    if (/^(?:[A-Za-z0-9][A-Za-z0-9._-]*:)?[1-9][0-9]*$/.test(pane)) params.pane = pane;
    const agent = String(headers['x-pane-agent'] ?? '');
    if (/^[a-z][a-z0-9-]{0,31}$/.test(agent)) params.agent = agent;
    const r = await c.call('agent/hook', params);
    return { status: 200, body: r.output ? JSON.stringify(r.output) : '' };
  } finally {
    c.close();
  }
}

export async function listenHooks(services: Services, socketPath: string, o: { log?: (line: string) => void } = {}): Promise<HookEndpoint> {
  const server = services.server;
  const log = o.log ?? ((line: string) => process.stderr.write(`pane hooks: ${line}\n`));
  const secret = crypto.randomBytes(24).toString('base64url');
  const srv = http.createServer({ requestTimeout: HOOK_REQUEST_TIMEOUT_MS * 4, headersTimeout: HOOK_REQUEST_TIMEOUT_MS * 4 }, (req, res) => {
    const reply = (status: number, text: string) => {
      if (status >= 400) log(`${status} ${text}`);
      res.writeHead(status, { 'content-type': status === 200 ? 'application/json' : 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(text);
    };
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/hook') return reply(404, 'only POST /hook is served here');
    // A browser page may not post here: hooks come from agent CLIs, never with an Origin.
    if (req.headers.origin !== undefined) return reply(403, 'hooks are not taken from web pages');
    const auth = hookAuth(req.headers, secret);
    if (typeof auth === 'string') return reply(401, auth);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_HOOK_BODY) {
        reply(413, `hook body over ${MAX_HOOK_BODY} bytes`);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      answerHook(services, auth, req.headers, Buffer.concat(chunks).toString('utf8')).then(
        (r) => reply(r.status, r.body),
        (e: Error) => reply(/token/i.test(e.message) ? 401 : 500, e.message),
      );
    });
    req.on('error', () => undefined);
  });
  srv.maxConnections = MAX_HOOK_CONNECTIONS;
  srv.on('clientError', (_e, sock) => sock.destroy());
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', () => {
        srv.removeListener('error', reject);
        resolve();
      });
    });
  const wanted = hookPort(socketPath);
  try {
    await listen(wanted);
  } catch (e) {
    // Taken (another server, another program): hooks still work for panes started here ($PANE_HOOK_URL).
    log(`port ${wanted} is taken (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); hooks listen on a random port, so settings written by \`pane hook install\` will not reach this server`);
    await listen(0);
  }
  srv.on('error', (e) => log(`server error: ${e.message}`));
  const port = (srv.address() as net.AddressInfo).port;
  const ep: HookEndpoint = {
    port,
    url: hookUrl(port),
    secret,
    claudeHttp: false,
    close: () =>
      new Promise<void>((resolve) => {
        srv.close(() => resolve());
        srv.closeAllConnections?.();
      }),
  };
  services.hooks = ep;
  // Never on the start-up path: agent panes launched before the answer get command hooks.
  execFile('claude', ['--version'], { timeout: VERSION_TIMEOUT_MS, env: server.env }, (err, out) => {
    if (!err) ep.claudeHttp = hasHttpHooks(parseVersion(String(out)));
  });
  server.paneContributors.push({
    env: (): Record<string, string> => (services.hooks === ep ? { PANE_HOOK_URL: ep.url, PANE_HOOK_TOKEN: ep.secret } : {}),
  });
  server.onStop(() => {
    if (services.hooks === ep) services.hooks = undefined;
    void ep.close();
  });
  return ep;
}
