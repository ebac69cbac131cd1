// Endpoint strings (endpointForm.ts) against the schema (endpoint.ts): every form parses
// to a value the schema takes, formats back to itself, and a wrong one is named.
import { describe, expect, it } from 'vitest';
import { EndpointSchema, type Endpoint } from './endpoint';
import { EndpointFormError, formatEndpoint, parseEndpoint } from './endpointForm';

const golden: [string, Endpoint][] = [
  ['unix:/run/user/1000/pane/default.sock', { kind: 'unix', path: '/run/user/1000/pane/default.sock' }],
  ['agent:ada', { kind: 'agent', agent: 'ada' }],
  ['exec:ssh -T box pane serve --stdio', { kind: 'exec', argv: ['ssh', '-T', 'box', 'pane', 'serve', '--stdio'] }],
  ['exec:["sh","-c","exec pane serve --stdio"]', { kind: 'exec', argv: ['sh', '-c', 'exec pane serve --stdio'] }],
  ['tls://box.example:7070', { kind: 'tls', host: 'box.example', port: 7070 }],
  ['tls://127.0.0.1:7070?cert=/c/me.pem&key=/c/me.key&ca=/c/ca%20x.pem', { kind: 'tls', host: '127.0.0.1', port: 7070, cert: '/c/me.pem', key: '/c/me.key', ca: '/c/ca x.pem' }],
  ['tls://[::1]:7070', { kind: 'tls', host: '::1', port: 7070 }],
  ['ws://127.0.0.1:8080/ws', { kind: 'ws', url: 'ws://127.0.0.1:8080/ws' }],
  ['tcp://127.0.0.1:7519', { kind: 'tcp', host: '127.0.0.1', port: 7519 }],
  ['tcp://[::1]:7519', { kind: 'tcp', host: '::1', port: 7519 }],
];

describe('endpoint strings', () => {
  it.each(golden)('parses %s to a value the schema takes, and formats it back', (text, want) => {
    const e = parseEndpoint(text);
    expect(e).toEqual(want);
    expect(EndpointSchema.parse(e)).toEqual(want);
    expect(formatEndpoint(e)).toBe(text);
  });

  it('holds a tcp endpoint to the loopback in the schema too (a host file cannot name another machine with it)', () => {
    expect(EndpointSchema.safeParse({ kind: 'tcp', host: '10.0.0.7', port: 7519 }).success).toBe(false);
    expect(EndpointSchema.safeParse({ kind: 'tcp', host: 'localhost', port: 7519 }).success).toBe(false);
  });

  it('takes a bare path (what $PANE_SOCKET and --socket hold) as a unix socket', () => {
    expect(parseEndpoint('/tmp/x.sock')).toEqual({ kind: 'unix', path: '/tmp/x.sock' });
    expect(parseEndpoint('rel/x.sock')).toEqual({ kind: 'unix', path: 'rel/x.sock' });
  });

  it.each([
    ['', 'empty'],
    ['tls://box', 'tls:// needs HOST:PORT'],
    ['tls://box:99999', 'tls:// needs HOST:PORT'],
    ['tls://box:1?pin=x', 'unknown option pin='],
    ['agent:Ada', 'agent: needs an agent name'],
    ['exec:sh -c "pane serve"', 'needs quoting: write the command as a JSON array'],
    ['exec:[1]', 'JSON array of non-empty strings'],
    ['http://x:1', 'unknown scheme http://'],
    // tcp:// is neither encrypted nor checks whom it reaches: this machine's loopback, by address, only.
    ['tcp://10.0.0.7:7519', "tcp:// is for this machine's loopback only"],
    ['tcp://localhost:7519', "tcp:// is for this machine's loopback only"],
    ['tcp://127.0.0.1.evil.example:7519', "tcp:// is for this machine's loopback only"],
    ['tcp://127.0.0.1:0', 'tcp:// needs a port 1..65535'],
    ['tcp://127.0.0.1:70000', 'tcp:// needs a port 1..65535'],
    ['tcp://127.0.0.1', "tcp:// is for this machine's loopback only"],
  ])('refuses %j naming why', (text, why) => {
    expect(() => parseEndpoint(text)).toThrow(EndpointFormError);
    expect(() => parseEndpoint(text)).toThrow(why);
  });
});
