// `pane mcp` driven by a client written from the MCP specification alone — newline-
// delimited JSON-RPC 2.0 over stdio, no SDK — as any other MCP client would: it
// initializes, lists tools, splits a pane, runs a word, subscribes to the pane's
// body and is told when it changes, and is refused outside the agent's .access.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, buildOnce, cleanEnv, serve, type Served } from '../cli/harness';
import { quietly } from './helpers';

let s: Served;
let mcp: ChildProcess;
let nextId = 1;
const waiting = new Map<number, (m: Record<string, unknown>) => void>();
const notes: Record<string, unknown>[] = [];

function send(m: Record<string, unknown>): void {
  mcp.stdin!.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
}
function request(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${method}: no answer in 10 s`)), 10_000);
    waiting.set(id, (m) => {
      clearTimeout(timer);
      resolve(m);
    });
    send({ id, method, params });
  });
}
const toolText = async (name: string, args: Record<string, unknown>) => {
  const m = await request('tools/call', { name, arguments: args });
  const r = m.result as { content: { text: string }[]; isError?: boolean };
  return { text: r.content.map((c) => c.text).join('\n'), isError: r.isError === true };
};

beforeAll(async () => {
  buildOnce();
  s = await serve();
  s.pane(['agent', 'add', 'bea']);
  const token = fs.readFileSync(path.join(s.dir, '.local/share/pane/agents/bea/.token'), 'utf8').trim();
  mcp = spawn(BIN, ['--socket', s.socket, 'mcp'], { env: cleanEnv({ PANE_AGENT: 'bea', PANE_TOKEN: token, PANE_SOCKET: s.socket }), stdio: ['pipe', 'pipe', 'pipe'] });
  readline.createInterface({ input: mcp.stdout! }).on('line', (line) => {
    const m = JSON.parse(line) as Record<string, unknown>;
    if (typeof m.id === 'number' && waiting.has(m.id)) {
      waiting.get(m.id)!(m);
      waiting.delete(m.id);
    } else notes.push(m);
  });
}, 120_000);
afterAll(async () => {
  mcp?.kill('SIGTERM');
  if (s) await quietly(() => s.stop(), s.dir);
});

describe('pane mcp to a client written from the specification', () => {
  it('initializes with the protocol version it is offered, and lists tools with JSON schemas', async () => {
    const init = await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'wire-client', version: '0.0.1' } });
    const r = init.result as { protocolVersion: string; capabilities: Record<string, unknown>; serverInfo: { name: string } };
    expect(r.protocolVersion).toBe('2025-06-18');
    expect(Object.keys(r.capabilities)).toEqual(expect.arrayContaining(['tools', 'resources', 'prompts']));
    send({ method: 'notifications/initialized' });
    const tools = ((await request('tools/list')).result as { tools: { name: string; inputSchema: { type: string; properties?: Record<string, unknown> } }[] }).tools;
    const split = tools.find((t) => t.name === 'split')!;
    expect(split.inputSchema.type).toBe('object');
    expect(Object.keys(split.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['program', 'args', 'direction']));
  });

  it('splits, subscribes to the new pane’s body and hears it change; runs a word; is refused outside its .access', async () => {
    const made = await toolText('split', { program: '/bin/cat' });
    expect(made.isError, made.text).toBe(false);
    const n = Number(/^pane (\d+)$/.exec(made.text)![1]);
    expect((await request('resources/subscribe', { uri: `pane://${n}/body` })).error).toBeUndefined();
    expect((await toolText('send_input', { pane: n, text: 'wire-hello' })).isError).toBe(false);
    for (let i = 0; i < 100 && !notes.some((m) => m.method === 'notifications/resources/updated' && (m.params as { uri: string }).uri === `pane://${n}/body`); i++) await new Promise((r) => setTimeout(r, 50));
    expect(notes.some((m) => m.method === 'notifications/resources/updated')).toBe(true);
    const body = (await request('resources/read', { uri: `pane://${n}/body` })).result as { contents: { text: string }[] };
    expect(body.contents[0]!.text).toContain('wire-hello');
    // Its tag and the index are resources too, followed the same way.
    expect((await request('resources/subscribe', { uri: `pane://${n}/tag` })).error).toBeUndefined();
    expect((await request('resources/subscribe', { uri: 'pane://index' })).error).toBeUndefined();
    notes.length = 0;
    expect((await toolText('run_word', { pane: n, line: 'name wired' })).isError).toBe(false);
    for (let i = 0; i < 100 && !['pane://index', `pane://${n}/tag`].every((u) => notes.some((m) => m.method === 'notifications/resources/updated' && (m.params as { uri: string }).uri === u)); i++) await new Promise((r) => setTimeout(r, 50));
    const tag = (await request('resources/read', { uri: `pane://${n}/tag` })).result as { contents: { text: string }[] };
    expect(tag.contents[0]!.text).toMatch(/^wired /);
    const index = (await request('resources/read', { uri: 'pane://index' })).result as { contents: { text: string }[] };
    expect(index.contents[0]!.text).toMatch(new RegExp(`^${n} .* wired `, 'm'));
    expect(notes.filter((m) => m.method === 'notifications/resources/updated').map((m) => (m.params as { uri: string }).uri)).toEqual(expect.arrayContaining(['pane://index', `pane://${n}/tag`]));
    expect((await toolText('run_word', { pane: n, line: 'zoom' })).text).toMatch(/ran "zoom" on pane/);
    const refused = await toolText('close_pane', { pane: 1 });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/denied: bea's \.access panes\.write does not include pane 1/);
    const unknown = await request('tools/call', { name: 'no_such_tool', arguments: {} });
    expect(JSON.stringify(unknown)).toMatch(/no_such_tool/);
  });
});
