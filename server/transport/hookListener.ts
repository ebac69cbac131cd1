// The hook doors: Claude Code's HTTP hooks POST each event's JSON to /hook and get
// exactly what `pane hook` would print, with no process per call. Two kinds of door
// serve the same HTTP API: one loopback TCP listener per server (port chosen by the
// kernel) for the person's panes and unsandboxed agents, and one unix socket per
// sandboxed agent in its home (hook.sock), reached through a relay inside its sandbox.
// Each door learns who calls from its own facts and never falls back to the person.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import { checkResults, Connection } from '../../kits/client/index';
import { memoryPair } from '../../kits/client/memoryTransport';
import { hasHttpHooks, parseVersion, VERSION_TIMEOUT_MS } from '../../kits/node/cli/hookInstall';
import { hookUrl } from '../../kits/node/hookPort';
import { PaneFault } from '../../kits/protocol/error';
import type { Pane } from '../../kits/protocol/model';
import { agentGrant } from '../agents/accessCheck';
import type { Services } from '../services';
import { ClientConn, type Grant } from './clientConn';
import { throttledLog } from './admission';
import { keepDeadlines, NODE_DEADLINE_CHECK_OFF } from './httpDeadlines';
import { peerUid } from './peerUid';

/** A hook's JSON carries a tool's input (a whole file for Write): generous, but bounded. */
export const MAX_HOOK_BODY = 4 << 20;
/**
 * The whole request, headers and body, must arrive within this of the connection
 * opening. Agent CLIs send a hook in one write; Claude Code itself gives up on a
 * hook after its `timeout` (5 s in pane's settings), so a request still arriving
 * after 3 s is useless and the connection is cut.
 */
export const HOOK_REQUEST_TIMEOUT_MS = 3000;
/**
 * Connections the TCP hook door holds at once (each hook is one short POST; a
 * desktop with ten agents posting every tool call holds a handful). At the cap a
 * newcomer is not turned away: the oldest connection that has not yet sent a whole
 * request is cut for it, so slow or idle clients cannot lock hooks out.
 */
export const MAX_HOOK_CONNECTIONS = 64;
/** The same per sandboxed agent's hook socket: one agent's CLI and its subagents hold a few. */
export const MAX_AGENT_HOOK_CONNECTIONS = 16;
/**
 * Ports the runtime's own relays take inside a sandbox (HTTP and SOCKS proxies).
 * The in-sandbox hook relay listens on the server's hook port, so the same
 * $PANE_HOOK_URL holds inside and outside; the kernel is asked again if it gave one of these.
 */
const SANDBOX_RESERVED_PORTS = new Set([3128, 1080]);

/** Who a hook request speaks for: an agent, or the person (null). */
export interface HookCaller {
  agent: string | null;
}

export interface HookEndpoint {
  port: number;
  url: string;
  /** The person's hook secret: only the person's own (non-agent) panes get it, as $PANE_HOOK_TOKEN. */
  secret: string;
  /** The hook secret of agent `name` (issued once per server, mapped to that agent): unsandboxed agent panes get it. */
  agentSecret(name: string): string;
  /** Whether the `claude` on the server's PATH takes HTTP hooks (learnt once, in the background). */
  claudeHttp: boolean;
  close(): Promise<void>;
}

const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

/** What the TCP door knows to check credentials against: only tokens this server issued. */
export interface HookAuthority {
  /** The person's secret. */
  secret: string;
  /** Agent → its hook secret. */
  agentSecrets: ReadonlyMap<string, string>;
  /** The agent an agent token (PANE_TOKEN) belongs to, compared in constant time per account. */
  byToken(token: string): string | undefined;
}

const FIX = 'a hook speaks with what pane put in its pane: Authorization: Bearer $PANE_TOKEN (an agent) or X-Pane-Hook: $PANE_HOOK_TOKEN; start the agent CLI in a pane of this server';

/**
 * Who a request on the TCP door speaks for, from the credentials it carries: an
 * agent token (Authorization: Bearer), a hook secret (X-Pane-Hook: the person's, or
 * an agent's), each compared in constant time against the ones this server issued.
 * A credential the server did not issue is refused, never taken for the person;
 * two credentials naming different callers are refused. An error string otherwise.
 * Claude Code sends an unset variable as an empty string: an empty one is absent.
 */
export function hookAuth(headers: http.IncomingHttpHeaders, auth: HookAuthority): HookCaller | string {
  const authz = String(headers.authorization ?? '').trim();
  const bearer = /^Bearer(?:\s+(\S*))?\s*$/i.exec(authz);
  if (authz !== '' && !bearer) return `the Authorization header is not "Bearer TOKEN"; ${FIX}`;
  const found: HookCaller[] = [];
  const token = bearer?.[1] ?? '';
  if (token !== '') {
    const agent = auth.byToken(token);
    if (agent === undefined) return `the bearer token is not an agent token this server issued (an unknown token is refused, never taken for the person); ${FIX}`;
    found.push({ agent });
  }
  const secret = String(headers['x-pane-hook'] ?? '').trim();
  if (secret !== '') {
    let who: HookCaller | undefined = equal(secret, auth.secret) ? { agent: null } : undefined;
    for (const [agent, s] of auth.agentSecrets) if (equal(secret, s)) who = { agent };
    if (!who) return `the X-Pane-Hook secret is not one this server issued (a secret from an earlier run is void after a restart); ${FIX}`;
    found.push(who);
  }
  if (found.length === 0) return `no credential: ${FIX}`;
  if (found.length === 2 && found[0]!.agent !== found[1]!.agent) {
    return `the agent token names ${found[0]!.agent ?? 'the person'} and the hook secret ${found[1]!.agent ?? 'the person'}: one request speaks for one caller; ${FIX}`;
  }
  return found[0]!;
}

/** `pane hook --app ID` and `--event NAME` as a hook URL's query: the same rules as the CLI's (kits/node/cli/hook.ts). */
const HOOK_QUERY_RULES: Record<keyof HookQuery, { rule: RegExp; words: string }> = {
  app: { rule: /^[A-Za-z0-9._-]{1,64}$/, words: 'an app id: 1 to 64 letters, digits, . _ -' },
  event: { rule: /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/, words: 'an event name: a letter, then up to 63 letters, digits, _ . : -' },
};

/** What a hook URL's query may say (bin/pane-hook posts `/hook?app=gemini&event=X`): the dialect, and the event where the payload lacks it. */
export interface HookQuery {
  app?: string;
  event?: string;
}

/**
 * The query of a hook request's target, checked: only `app` and `event`, each once, each
 * by its rule. A refusal names the parameter, the rule and the fix; null query → {}.
 */
export function hookQuery(target: string): HookQuery | string {
  const at = target.indexOf('?');
  if (at === -1) return {};
  const out: HookQuery = {};
  const fix = 'fix: post to $PANE_HOOK_URL as pane put it, with at most ?app=ID&event=NAME (what `pane hook --app ID --event NAME` takes)';
  for (const part of target.slice(at + 1).split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? '' : part.slice(eq + 1);
    if (key !== 'app' && key !== 'event') return `hook door: the query parameter ${JSON.stringify(key.slice(0, 64))} is not one pane takes (only app and event); ${fix}`;
    if (out[key] !== undefined) return `hook door: the query names ${key} twice; ${fix}`;
    // No percent escapes: both rules' characters travel as they are.
    if (!HOOK_QUERY_RULES[key].rule.test(value)) return `hook door: ${key}=${JSON.stringify(value.slice(0, 80))} is not ${HOOK_QUERY_RULES[key].words}; ${fix}`;
    out[key] = value;
  }
  return out;
}

/** Answers one hook request as `caller`: status and body (empty body = nothing to say, as `pane hook` prints nothing). */
export async function answerHook(services: Services, caller: HookCaller, headers: http.IncomingHttpHeaders, body: string, query: HookQuery = {}): Promise<{ status: number; body: string }> {
  let input: unknown;
  try {
    input = JSON.parse(body);
  } catch {
    // With an event named, the payload is optional (Aider's notification sends none), as for `pane hook --event`.
    if (query.event === undefined) return { status: 400, body: 'the hook body is not JSON' };
    input = {};
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return { status: 400, body: 'the hook body is not a JSON object' };
  // As `pane hook --event`: the event's name where the CLI's payload does not carry one.
  if (query.event !== undefined && typeof (input as Record<string, unknown>).hook_event_name !== 'string') (input as Record<string, unknown>).hook_event_name = query.event;
  const [a, b] = memoryPair();
  // The door has settled who calls: the connection is granted exactly that, and no hello token is looked at.
  const grant = (h: { capabilities: Grant['capabilities'] }): Grant | string => {
    if (caller.agent === null) return { capabilities: h.capabilities };
    const svc = services.agents;
    if (!svc?.store.exists(caller.agent)) return `agent ${caller.agent} has no account any more`;
    return agentGrant(svc, caller.agent, h.capabilities);
  };
  new ClientConn(services, b, grant, 'none');
  const c = new Connection(a, { checkResult: checkResults });
  try {
    await c.hello({ client: { name: 'hook', kind: 'cli' }, capabilities: ['read', 'write'] });
    const params: { input: Record<string, unknown>; pane?: string; agent?: string; app?: string } = { input: input as Record<string, unknown> };
    if (query.app !== undefined) params.app = query.app;
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

/** One connection a hook door holds: when it opened, and whether its request is whole (then it is being answered). */
interface Held {
  at: number;
  answering: boolean;
}

/**
 * An HTTP server for one hook door: POST /hook only, no Origin, bodies up to
 * MAX_HOOK_BODY, the whole request within HOOK_REQUEST_TIMEOUT_MS, at most `limit`
 * connections (at the cap the oldest one still sending is cut for the newcomer).
 * `who` settles the caller of each request from the door's own facts.
 */
function hookServer(services: Services, o: { door: () => string; limit: number; who: (req: http.IncomingMessage) => Promise<HookCaller | string> }): { srv: http.Server; refused: (reason: string) => void } {
  // Anyone local can make this door refuse as fast as it connects: its lines are throttled like every door's.
  const refused = throttledLog((reason: string) => services.server.publish('client/refused', { door: o.door(), reason }));
  const held = new Map<net.Socket, Held>();
  const srv = http.createServer(
    // The deadline per connection (httpDeadlines.ts), not node's check on an interval that wakes an idle daemon.
    { keepAliveTimeout: HOOK_REQUEST_TIMEOUT_MS, ...NODE_DEADLINE_CHECK_OFF },
    (req, res) => {
      const h = held.get(req.socket);
      const reply = (status: number, text: string) => {
        if (status >= 400 && status !== 413) refused(`${status} ${text}`);
        if (res.headersSent) return;
        // A length, not chunks: bin/pane-hook reads the answer with bash alone. One request a
        // connection: a CLI's HTTP client that kept the socket could send its next hook on it
        // just as the door's idle or request deadline closes it ("other side closed"), and
        // that hook would be lost; a new loopback connection per hook costs microseconds.
        res.writeHead(status, { 'content-type': status === 200 ? 'application/json' : 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text), connection: 'close' });
        res.end(text);
      };
      res.once('finish', () => {
        if (h) h.answering = false;
      });
      if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/hook') return reply(404, 'only POST /hook is served here');
      const query = hookQuery(req.url ?? '');
      if (typeof query === 'string') return reply(400, query);
      // A browser page may not post here: hooks come from agent CLIs, never with an Origin.
      if (req.headers.origin !== undefined) return reply(403, 'hooks are not taken from web pages (the request has an Origin)');
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_HOOK_BODY && !over) {
          over = true;
          refused(`413 hook body over ${MAX_HOOK_BODY} bytes; a hook's JSON is far smaller`);
          res.writeHead(413, { connection: 'close' }).end(`hook body over ${MAX_HOOK_BODY} bytes`);
          req.destroy();
        } else if (!over) chunks.push(c);
      });
      req.on('end', () => {
        if (over) return;
        if (h) h.answering = true;
        const t0 = performance.now();
        o.who(req)
          .then((caller) => {
            if (typeof caller === 'string') return reply(401, caller);
            return answerHook(services, caller, req.headers, Buffer.concat(chunks).toString('utf8'), query).then((r) => {
              services.server.latency.hook.observe((performance.now() - t0) / 1000);
              reply(r.status, r.body);
            });
          })
          .catch((e: Error) => reply(statusOf(e), e.message));
      });
      req.on('error', () => undefined);
    },
  );
  srv.on('connection', (sock: net.Socket) => {
    if (held.size >= o.limit) {
      // The oldest connection that has not sent a whole request gives way; if every one is being answered, the newcomer waits its turn elsewhere.
      let victim: net.Socket | undefined;
      for (const [s, x] of held) if (!x.answering && (!victim || x.at < held.get(victim)!.at)) victim = s;
      if (victim) {
        held.delete(victim);
        victim.destroy();
      } else {
        refused(`over ${o.limit} connections, every one being answered; try again`);
        sock.destroy();
        return;
      }
    }
    held.set(sock, { at: Date.now(), answering: false });
    sock.once('close', () => held.delete(sock));
  });
  keepDeadlines(srv, {
    headersMs: HOOK_REQUEST_TIMEOUT_MS,
    requestMs: HOOK_REQUEST_TIMEOUT_MS,
    late: (sock) => {
      refused(`408 the request was not whole within ${HOOK_REQUEST_TIMEOUT_MS} ms of connecting`);
      sock.destroy();
    },
  });
  srv.on('clientError', (_e, sock) => sock.destroy());
  srv.on('error', (e) => refused(`server error: ${e.message}`));
  return { srv, refused };
}

/** The HTTP status for a refusal from the hook's connection: unauthorized 401, busy 503, denied 403. */
function statusOf(e: Error): number {
  const code = e instanceof PaneFault ? e.code : '';
  return code === 'unauthorized' ? 401 : code === 'busy' ? 503 : code === 'denied' ? 403 : 500;
}

const closeServer = (srv: http.Server) =>
  new Promise<void>((resolve) => {
    srv.close(() => resolve());
    srv.closeAllConnections?.();
  });

/** Starts the server's TCP hook door on 127.0.0.1, at a port the kernel chooses. */
export async function listenHooks(services: Services): Promise<HookEndpoint> {
  const server = services.server;
  const secret = crypto.randomBytes(24).toString('base64url');
  const agentSecrets = new Map<string, string>();
  const me = typeof process.getuid === 'function' ? process.getuid() : null;
  let port = 0;
  const authority: HookAuthority = { secret, agentSecrets, byToken: (t) => {
      try {
        return services.agents?.store.byToken(t);
      } catch {
        return undefined; // an account's token unreadable mid-removal: the token is simply not known
      }
    },
  };
  const who = new WeakMap<net.Socket, Promise<number | null | undefined>>();
  const { srv, refused } = hookServer(services, {
    door: () => `hook door 127.0.0.1:${port}`,
    limit: MAX_HOOK_CONNECTIONS,
    who: async (req) => {
      // Another local user may reach a loopback port: only the person's own processes (agents included) may speak here.
      const uid = await (who.get(req.socket) ?? Promise.resolve(null));
      if (me !== null && uid !== null && uid !== me) {
        return uid === undefined
          ? 'the caller could not be found in the kernel’s socket table; hooks are taken only from this user’s processes'
          : `the caller is uid ${uid}, not this server's user (uid ${me}); hooks are taken only from this user's processes`;
      }
      return hookAuth(req.headers, authority);
    },
  });
  // Learnt as the connection opens, while its request is still on its way.
  // Learnt as the connection opens: another user's connection is closed as soon as it is known
  // (it never holds a slot); the request's own check waits on the same answer.
  srv.on('connection', (sock: net.Socket) => {
    const uid = peerUid(sock).catch(() => undefined);
    who.set(sock, uid);
    void uid.then((u) => {
      if (me === null || u === null || u === me || sock.destroyed) return;
      refused(u === undefined ? 'a connection whose caller is not in the kernel’s socket table was closed; hooks are taken only from this user’s processes' : `a connection from uid ${u}, not this server's user (uid ${me}), was closed; hooks are taken only from this user's processes`);
      sock.destroy();
    });
  });
  const listen = () =>
    new Promise<number>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => {
        srv.removeListener('error', reject);
        resolve((srv.address() as net.AddressInfo).port);
      });
    });
  port = await listen();
  for (let i = 0; i < 4 && SANDBOX_RESERVED_PORTS.has(port); i++) {
    await closeServer(srv);
    port = await listen();
  }
  const ep: HookEndpoint = {
    port,
    url: hookUrl(port),
    secret,
    agentSecret(name) {
      let s = agentSecrets.get(name);
      if (s === undefined) agentSecrets.set(name, (s = crypto.randomBytes(24).toString('base64url')));
      return s;
    },
    claudeHttp: false,
    close: () => closeServer(srv),
  };
  services.hooks = ep;
  // Never on the start-up path: agent panes launched before the answer get command hooks.
  execFile('claude', ['--version'], { timeout: VERSION_TIMEOUT_MS, env: server.env }, (err, out) => {
    if (!err) ep.claudeHttp = hasHttpHooks(parseVersion(String(out)));
  });
  server.paneContributors.push({
    // The person's secret goes only to the person's panes. An agent's pane (its identity is the
    // server's record) gets its own secret when unsandboxed; sandboxed, none: its door is its socket.
    env: (_s, pane: Pane): Record<string, string> => {
      if (services.hooks !== ep) return {};
      const svc = services.agents;
      const agent = svc?.identityOf(pane);
      if (agent === undefined || !svc) return { PANE_HOOK_URL: ep.url, PANE_HOOK_TOKEN: ep.secret };
      const sandboxed = svc.identity.get(pane.n)?.sandbox === 'bubblewrap';
      return { PANE_HOOK_URL: ep.url, PANE_HOOK_TOKEN: sandboxed ? '' : ep.agentSecret(agent) };
    },
  });
  server.onStop(() => {
    if (services.hooks === ep) services.hooks = undefined;
    void ep.close();
  });
  return ep;
}

const agentDoors = new WeakMap<Services, Map<string, { file: string; srv: http.Server }>>();

/**
 * Agent `name`'s own hook door: a unix socket at `file` (in its home, read-only to
 * its sandbox) serving the same HTTP hook API as the agent, whatever the request
 * carries — which socket was dialled is the identity; tokens are not looked at.
 * Listens once per agent per server; a stale file is replaced.
 */
export function ensureAgentHookSocket(services: Services, name: string, file: string): string {
  let all = agentDoors.get(services);
  if (!all) {
    agentDoors.set(services, (all = new Map()));
    const mine = all;
    services.server.onStop(() => {
      for (const d of mine.values()) {
        void closeServer(d.srv);
        fs.rmSync(d.file, { force: true });
      }
      mine.clear();
    });
  }
  const had = all.get(name);
  if (had && had.file === file && fs.existsSync(file)) return file;
  if (had) void closeServer(had.srv);
  fs.rmSync(file, { force: true });
  const { srv } = hookServer(services, {
    door: () => `agent ${name}'s hook socket`,
    limit: MAX_AGENT_HOOK_CONNECTIONS,
    who: async () => ({ agent: name }),
  });
  // Node binds a unix socket synchronously inside listen(): the path exists before the program starts.
  const old = process.umask(0o177);
  try {
    srv.listen(file);
  } finally {
    process.umask(old);
  }
  all.set(name, { file, srv });
  return file;
}
