// An Endpoint's string form, for the command line ($PANE_SOCKET, --socket) and host
// files. Zod-free (types only from endpoint.ts) so one-shot commands never load zod;
// every value it returns also passes EndpointSchema (endpoint.test.ts holds that).
//   /run/pane/default.sock  unix:/run/pane/default.sock   a unix socket (a bare path is one)
//   agent:ada                                             agent ada's socket
//   exec:ssh box pane serve --stdio                       a child's stdio (words split on spaces)
//   exec:["sh","-c","pane serve --stdio"]                 the same, any argv (a JSON array)
//   tls://box:7070?cert=/c.pem&key=/k.pem&ca=/ca.pem      TLS, optional files for mutual TLS
//   ws://127.0.0.1:8080/ws  wss://…                       a WebSocket
//   tcp://127.0.0.1:7519    tcp://[::1]:7519              a port on the loopback (an agent sandbox's relay)
import type { Endpoint } from './endpoint';
import { clip } from './shown';

/** Thrown for a string that is no endpoint: its message names the string and the forms that are. */
export class EndpointFormError extends Error {}

const FORMS = 'a socket path, unix:PATH, agent:NAME, exec:ARGV, tls://HOST:PORT, ws://URL or tcp://127.0.0.1:PORT';
/** Words `exec:` takes without the JSON form: nothing a shell would read differently. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./~-]+$/;
const TLS_FILES = ['cert', 'key', 'ca', 'servername'] as const;

function fail(text: string, why: string): never {
  throw new EndpointFormError(`endpoint "${clip(text, 201)}": ${why} (one of: ${FORMS})`);
}

/** Parses an endpoint's string form; throws EndpointFormError naming what is wrong. */
export function parseEndpoint(text: string): Endpoint {
  if (text === '') fail(text, 'empty');
  if (text.startsWith('unix:')) {
    const p = text.slice(5);
    if (p === '') fail(text, 'unix: needs a path');
    return { kind: 'unix', path: p };
  }
  if (text.startsWith('agent:')) {
    const agent = text.slice(6);
    if (!/^[a-z][a-z0-9-]{0,31}$/.test(agent)) fail(text, 'agent: needs an agent name (a lowercase letter, then lowercase letters, digits or "-")');
    return { kind: 'agent', agent };
  }
  if (text.startsWith('exec:')) return { kind: 'exec', argv: parseArgv(text, text.slice(5).trim()) };
  if (text.startsWith('tls://')) return parseTls(text);
  if (text.startsWith('ws://') || text.startsWith('wss://')) {
    if (/\s/.test(text)) fail(text, 'a URL has no spaces');
    return { kind: 'ws', url: text };
  }
  if (text.startsWith('tcp://')) return parseTcp(text);
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(text)) fail(text, `unknown scheme ${text.slice(0, text.indexOf(':'))}://`);
  return { kind: 'unix', path: text };
}

function parseArgv(text: string, rest: string): string[] {
  if (rest === '') fail(text, 'exec: needs a command');
  if (rest.startsWith('[')) {
    let v: unknown;
    try {
      v = JSON.parse(rest);
    } catch (e) {
      fail(text, `exec:[…] is not a JSON array: ${(e as Error).message}`);
    }
    if (!Array.isArray(v) || v.length === 0 || !v.every((w) => typeof w === 'string' && w !== '')) fail(text, 'exec:[…] must be a JSON array of non-empty strings');
    return v as string[];
  }
  const words = rest.split(/\s+/);
  const odd = words.find((w) => !PLAIN_WORD.test(w));
  if (odd !== undefined) fail(text, `the word ${JSON.stringify(odd)} needs quoting: write the command as a JSON array, exec:["…","…"]`);
  return words;
}

function parseTcp(text: string): Endpoint {
  const m = /^tcp:\/\/(127\.0\.0\.1|\[::1\]):(\d{1,5})$/.exec(text);
  const port = Number(m?.[2]);
  if (!m) fail(text, 'tcp:// is for this machine\'s loopback only, tcp://127.0.0.1:PORT or tcp://[::1]:PORT (nothing on it is encrypted: use tls:// for another machine)');
  if (port < 1 || port > 65535) fail(text, 'tcp:// needs a port 1..65535');
  return { kind: 'tcp', host: m[1] === '[::1]' ? '::1' : '127.0.0.1', port };
}

function parseTls(text: string): Endpoint {
  // By hand, not URL: kits/ is built without DOM or Node types.
  const rest = text.slice('tls://'.length);
  const q = rest.indexOf('?');
  const hostPort = q < 0 ? rest : rest.slice(0, q);
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(hostPort);
  const port = Number(m?.[2]);
  if (!m || port < 1 || port > 65535) fail(text, 'tls:// needs HOST:PORT (a port 1..65535), then ?cert=…&key=…&ca=… if any');
  const out: Extract<Endpoint, { kind: 'tls' }> = { kind: 'tls', host: m[1]!.replace(/^\[|\]$/g, ''), port };
  for (const pair of q < 0 ? [] : rest.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const k = eq < 0 ? pair : pair.slice(0, eq);
    let v = eq < 0 ? '' : pair.slice(eq + 1);
    if (!(TLS_FILES as readonly string[]).includes(k)) fail(text, `unknown option ${k}= (tls:// takes ${TLS_FILES.join(', ')})`);
    try {
      v = decodeURIComponent(v);
    } catch {
      fail(text, `${k}= is not well %-encoded`);
    }
    if (v === '') fail(text, `${k}= needs a value`);
    out[k as (typeof TLS_FILES)[number]] = v;
  }
  return out;
}

/** A query value with only what would break the query %-encoded, so paths stay readable. */
function queryValue(v: string): string {
  return v.replace(/[%&=#?\s]/g, (c) => encodeURIComponent(c));
}

/** The string form of an endpoint; parseEndpoint(formatEndpoint(e)) gives e back. */
export function formatEndpoint(e: Endpoint): string {
  switch (e.kind) {
    case 'unix':
      return `unix:${e.path}`;
    case 'agent':
      return `agent:${e.agent}`;
    case 'exec':
      return `exec:${e.argv.every((w) => PLAIN_WORD.test(w)) ? e.argv.join(' ') : JSON.stringify(e.argv)}`;
    case 'tls': {
      const q = TLS_FILES.flatMap((k) => (e[k] === undefined ? [] : [`${k}=${queryValue(e[k])}`]));
      const host = e.host.includes(':') ? `[${e.host}]` : e.host;
      return `tls://${host}:${e.port}${q.length > 0 ? `?${q.join('&')}` : ''}`;
    }
    case 'ws':
      return e.url;
    case 'tcp':
      return `tcp://${e.host === '::1' ? '[::1]' : e.host}:${e.port}`;
  }
}

/** A short name for messages: the socket path, the agent, the command, host:port or the URL. */
export function describeEndpoint(e: Endpoint): string {
  switch (e.kind) {
    case 'unix':
      return e.path;
    case 'agent':
      return `agent ${e.agent}'s socket`;
    case 'exec':
      return `\`${e.argv.join(' ')}\``;
    case 'tls':
      return `tls://${e.host}:${e.port}`;
    case 'ws':
      return e.url;
    case 'tcp':
      return formatEndpoint(e);
  }
}
