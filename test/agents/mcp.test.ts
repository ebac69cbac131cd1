// `pane mcp` exercised by the MCP SDK's own client over stdio: the real built
// `pane mcp` process, acting as an agent through its token, so refusals of its
// .access come back as tool errors.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, buildOnce, cleanEnv, serve, type Served } from '../cli/harness';
import { quietly } from './helpers';

let s: Served;
let client: Client;
let own: string;
beforeAll(async () => {
  buildOnce();
  s = await serve();
  s.pane(['agent', 'add', 'ada', '--plan', 'first plan']);
  const token = fs.readFileSync(path.join(s.dir, '.local/share/pane/agents/ada/.token'), 'utf8').trim();
  // A pane the agent made itself is its own to write.
  own = s.pane(['split', '--', '/bin/cat'], { env: cleanEnv({ PANE_AGENT: 'ada', PANE_TOKEN: token, PANE_SOCKET: s.socket }) }).stdout.trim();
  const transport = new StdioClientTransport({
    command: BIN,
    args: ['--socket', s.socket, 'mcp'],
    env: cleanEnv({ PANE_AGENT: 'ada', PANE_TOKEN: token, PANE_SOCKET: s.socket }),
    stderr: 'pipe',
  });
  client = new Client({ name: 'pane-test', version: '1.0.0' });
  await client.connect(transport);
}, 120_000);
afterAll(async () => {
  await client?.close();
  if (s) await quietly(() => s.stop(), s.dir);
});

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as TextResult;
const textOf = (r: TextResult) => r.content.map((c) => c.text).join('\n');

describe('pane mcp', () => {
  it('offers the pane tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['check_claim', 'claim', 'finger', 'list_panes', 'mail', 'post_message', 'read_mail', 'read_pane', 'release', 'send_input', 'update_plan']);
  });

  it('lists panes, reads a screen, and fingers agents', async () => {
    expect(textOf(await call('list_panes'))).toMatch(/^1\t~\tcom\.pane\.terminal\trunning/m); // an idle shell is named by its directory
    expect((await call('read_pane', { pane: 1 })).isError).toBeFalsy();
    expect(textOf(await call('finger', { name: 'ada' }))).toMatch(/Login: ada[\s\S]*Plan:\n {2}first plan/);
  });

  it('acts as the agent: its mail, its plan', async () => {
    s.pane(['mail', '-s', 'hello', 'ada'], { input: 'from the human\n' });
    expect(textOf(await call('read_mail'))).toMatch(/Subject: hello\n\nfrom the human/);
    expect(textOf(await call('update_plan', { text: 'plan from MCP\n' }))).toBe("ada's plan updated");
    expect(s.pane(['plan', 'ada']).stdout).toBe('plan from MCP\n');
    expect(textOf(await call('mail', { to: 'ada', subject: 'note to self', body: 'x' }))).toMatch(/mailed ada/);
  });

  it('types into a pane it made, and refuses one its .access does not let it write, as a tool error naming why', async () => {
    const n = Number(own.split(':').pop());
    expect(textOf(await call('send_input', { pane: n, text: 'hello cat' }))).toMatch(/^sent \d+ bytes to pane/);
    const r = await call('send_input', { pane: 1, text: 'echo hacked' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^denied: ada's \.access panes\.write does not include pane 1; agent ada may not write pane 1/);
    expect(fs.readFileSync(path.join(s.dir, '.local/share/pane/agents/ada/log'), 'utf8')).toMatch(/denied pane\/input/);
  });

  it('claims, checks and releases a file and posts a message through awareness, as the agent', async () => {
    const file = path.join(s.dir, 'src', 'auth.ts');
    expect(textOf(await call('claim', { resource: file, reason: 'fixing login' }))).toBe(`claimed ${file} (exclusive)`);
    const check = s.pane(['claims']);
    expect(check.stdout).toMatch(/ada/);
    expect(textOf(await call('check_claim', { resource: file }))).toMatch(/no other agent holds/);
    expect(textOf(await call('release', { resource: file }))).toBe(`released ${file}`);
    s.pane(['agent', 'add', 'bob']);
    const posted = await call('post_message', { to: 'bob', type: 'question', text: 'are you on auth?' });
    expect(posted.isError).toBeFalsy();
    expect(textOf(posted)).toMatch(/^posted question message \S+ to bob$/);
  });

  it('serves pane bodies as resources', async () => {
    s.pane(['send', '-t', '1', 'echo resource-marker']);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('pane://1/body');
    let text = '';
    for (let i = 0; i < 50 && !text.includes('resource-marker'); i++) {
      const r = await client.readResource({ uri: 'pane://1/body' });
      text = (r.contents[0] as { text: string }).text;
      if (!text.includes('resource-marker')) await new Promise((res) => setTimeout(res, 100));
    }
    expect(text).toContain('resource-marker');
  });
});
