// `pane mcp` exercised by the MCP SDK's own client over stdio: the real built
// `pane mcp` process, acting as an agent through its token, so refusals of its
// .access come back as tool errors.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, buildOnce, cleanEnv, ROOT, serve, type Served } from '../cli/harness';
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
  client = await mcpAs(token);
}, 120_000);

/** `pane mcp` started as ada (its token), through the SDK's own client: its capabilities are those of ada's .access now. */
async function mcpAs(token: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: BIN,
    args: ['--socket', s.socket, 'mcp'],
    env: cleanEnv({ PANE_AGENT: 'ada', PANE_TOKEN: token, PANE_SOCKET: s.socket }),
    stderr: 'pipe',
  });
  const c = new Client({ name: 'pane-test', version: '1.0.0' });
  await c.connect(transport);
  return c;
}
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
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['check_claim', 'claim', 'claims', 'close_pane', 'finger', 'float_pane', 'focus_pane', 'grant_session', 'launch_app', 'list_grants', 'list_hosts', 'list_panes', 'list_sessions', 'mail', 'new_session', 'pane_words', 'plumb', 'post_message', 'predictions', 'read_lines', 'read_mail', 'read_pane', 'release', 'revoke_grant', 'run_word', 'send_input', 'split', 'update_plan', 'wait_pane', 'write_to', 'zoom_pane'].sort(),
    );
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['handoff', 'review', 'situation']);
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

  it('waits on a pane it may read until it goes quiet, and says "not yet" at its timeout', async () => {
    const n = Number(own.split(':').pop());
    expect(textOf(await call('wait_pane', { pane: n, until: 'quiet', quietSeconds: 0.3 }))).toBe(`pane ${n}: quiet for 0.3 s`);
    expect(textOf(await call('wait_pane', { pane: n, until: 'exit', timeoutSeconds: 0.3 }))).toBe(`pane ${n}: not yet after 0.3 s: still running`);
    const bad = await call('wait_pane', { pane: n, until: 'quiet' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/until: quiet needs quietSeconds/);
    // A line it prints, from the last key sent (printed before the call, the typed echo left out), matched in the MCP server's process.
    expect(textOf(await call('send_input', { pane: n, text: 'mcp-line-7' }))).toMatch(/^sent/);
    expect(textOf(await call('wait_pane', { pane: n, until: 'quiet', quietSeconds: 0.3 }))).toBe(`pane ${n}: quiet for 0.3 s`);
    expect(textOf(await call('wait_pane', { pane: n, until: 'match', pattern: '^mcp-line-[0-9]$', sinceInput: true, timeoutSeconds: 10 }))).toBe(`pane ${n} printed: mcp-line-7`);
    expect(textOf(await call('wait_pane', { pane: n, until: 'match', pattern: 'never-there', timeoutSeconds: 0.3 }))).toBe(`pane ${n}: not yet after 0.3 s: no line matching /never-there/`);
    for (const [args, msg] of [
      [{ until: 'match', pattern: '(' }, /pattern: Invalid regular expression/],
      [{ until: 'match' }, /until: match needs a pattern/],
      [{ until: 'idle', pattern: 'x' }, /pattern goes with until: match/],
    ] as const) {
      const r = await call('wait_pane', { pane: n, ...args });
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(r)).toMatch(msg);
    }
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

  it('drives the desktop within its .access: splits (in its sandbox), reads words, runs one at the revision it saw, zooms and closes its own pane; the person’s pane refuses it', async () => {
    const made = await call('split', { program: '/bin/cat', name: 'from-mcp' });
    expect(made.isError, textOf(made)).toBeFalsy();
    const n = Number(/^pane (\d+)$/.exec(textOf(made))![1]);
    expect(s.pane(['cat', `/${n}/attrs`]).stdout).toMatch(/^owner\s*=?\s*ada$/m);
    const words = textOf(await call('pane_words', { pane: n }));
    const rev = /vocabulary revision ([0-9a-f]{8})/.exec(words)![1]!;
    expect(words).toMatch(/^zoom\b/m);
    expect(textOf(await call('run_word', { pane: n, line: 'zoom', revision: rev }))).toMatch(/ran "zoom" on pane/);
    expect(s.pane(['cat', '/log']).stdout).toMatch(new RegExp(`^${n} zoom on$`, 'm'));
    expect(textOf(await call('zoom_pane', { pane: n }))).toBe(`zoom: pane ${n}`);
    const stale = await call('run_word', { pane: n, line: 'zoom', revision: '00000000' });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toMatch(/the words of pane \d+ changed since they were shown .* nothing was run/);
    for (const tool of ['close_pane', 'zoom_pane', 'focus_pane'] as const) {
      const r = await call(tool, { pane: 1 });
      expect(r.isError, tool).toBe(true);
      expect(textOf(r), tool).toMatch(/denied: ada's \.access panes\.write does not include pane 1/);
    }
    expect(textOf(await call('list_sessions'))).toMatch(/^main\t\d+ panes?\tfocused/m);
    expect(textOf(await call('list_hosts'))).toBe('no hosts');
    expect(textOf(await call('close_pane', { pane: n }))).toBe(`close: pane ${n}`);
  });

  it('pages through a pane’s scrollback by range', async () => {
    const made = await call('split', { program: '/bin/sh', args: ['-c', 'seq 1 300; exec cat'] });
    const n = Number(/^pane (\d+)$/.exec(textOf(made))![1]);
    let last = '';
    for (let i = 0; i < 100 && !/^300$/m.test(last); i++) {
      last = textOf(await call('read_lines', { pane: n, rows: 5 }));
      await new Promise((r) => setTimeout(r, 50));
    }
    const total = Number(/of (\d+)$/m.exec(last)![1]);
    expect(total).toBeGreaterThanOrEqual(300);
    const page = textOf(await call('read_lines', { pane: n, top: 99, rows: 3 }));
    expect(page).toBe(`pane ${n}: rows 99..101 of ${total}\n100\n101\n102`);
    expect(textOf(await call('close_pane', { pane: n }))).toBe(`close: pane ${n}`);
  });

  it('plumbs as the agent: a compiler error opens its file at the line in an editor pane of its own; test says why, and nothing runs', async () => {
    // Outside the person's home and the machine's temp dirs, which ada's sandbox hides (and so the plumber does not look there for it).
    const hiddenTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-mcp-tmp-'));
    const inTmp = textOf(await call('plumb', { text: 'src/main.rs:12:9', wdir: hiddenTmp, test: true }));
    expect(inTmp).toMatch(/denied: agent ada plumbs from the directories its sandbox shows it; .*pane-mcp-tmp-.* is not one/);
    fs.rmSync(hiddenTmp, { recursive: true, force: true });
    const cache = path.join(ROOT, 'node_modules', '.cache');
    fs.mkdirSync(cache, { recursive: true });
    const proj = fs.mkdtempSync(path.join(cache, 'pane-mcp-proj-'));
    fs.mkdirSync(path.join(proj, 'src'), { recursive: true });
    fs.writeFileSync(path.join(proj, 'src', 'main.rs'), 'fn main() {}\n'.repeat(40));
    const tested = textOf(await call('plumb', { text: 'error[E0425]: cannot find value  --> src/main.rs:12:9', click: 40, wdir: proj, test: true }));
    expect(tested).toMatch(/^\(shipped\):\d+: would open .*main\.rs:12:9 with \S+ in a (pane beside pane \d+|new pane of the focused session)$/m);
    expect(tested).toContain(`data ${path.join(proj, 'src/main.rs')}`);
    expect(tested).toMatch(/^tried \(shipped\):\d+: data matches /m);
    const done = textOf(await call('plumb', { text: 'src/main.rs:12:9', wdir: proj }));
    const n = Number(/in pane (\d+)$/m.exec(done)?.[1]);
    expect(done).toMatch(/^\(shipped\):\d+: opened .*main\.rs:12:9 with \S+ in pane \d+$/m);
    expect(s.pane(['cat', `/${n}/attrs`]).stdout).toMatch(/^owner\s*=?\s*ada$/m);
    const refused = await call('plumb', { text: 'src/main.rs:3', pane: 1 });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/denied: ada's \.access panes\.write does not include pane 1/);
    await call('close_pane', { pane: n });
    // The person's home, hidden from ada's sandbox, is no place it plumbs from.
    const hidden = await call('plumb', { text: 'x.ts:1', wdir: s.dir, test: true });
    expect(textOf(hidden)).toMatch(/denied: agent ada plumbs from the directories its sandbox shows it/);
    fs.rmSync(proj, { recursive: true, force: true });
  });

  it('launches an app, says a line to the person, and reads predictions, as the agent', async () => {
    const launched = await call('launch_app', { app: 'terminal' });
    expect(launched.isError, textOf(launched)).toBeFalsy();
    const n = Number(/^pane (\d+)$/.exec(textOf(launched))![1]);
    expect(s.pane(['cat', `/${n}/attrs`]).stdout).toMatch(/^owner\s*=?\s*ada$/m);
    await call('close_pane', { pane: n });
    expect(textOf(await call('write_to', { text: 'done with the parser' }))).toMatch(/^said to /);
    expect(textOf(await call('predictions'))).toMatch(/^no open predictions\naccuracy: /);
    const sess = textOf(await call('new_session', { name: 'ada-work', program: '/bin/cat' }));
    expect(sess).toMatch(/^session ada-work, pane \d+$/);
    expect(textOf(await call('list_sessions'))).toMatch(/^ada-work\t1 pane\t/m);
    await call('close_pane', { pane: Number(/pane (\d+)$/.exec(sess)![1]) });
  });

  it('tells a subscriber when a pane’s body and the desktop’s events change, and when panes come and go', async () => {
    const { ResourceUpdatedNotificationSchema, ResourceListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const updated: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    const n = Number(own.split(':').pop());
    await client.subscribeResource({ uri: `pane://${n}/body` });
    await client.subscribeResource({ uri: 'pane://events' });
    await call('send_input', { pane: n, text: 'subscribed-marker' });
    const made = await call('split', { program: '/bin/cat' });
    const m = Number(/^pane (\d+)$/.exec(textOf(made))![1]);
    for (let i = 0; i < 50 && !(updated.includes(`pane://${n}/body`) && updated.includes('pane://events') && listChanged > 0); i++) await new Promise((res) => setTimeout(res, 100));
    expect(updated).toContain(`pane://${n}/body`);
    expect(updated).toContain('pane://events');
    expect(listChanged).toBeGreaterThan(0);
    const events = (await client.readResource({ uri: 'pane://events' })).contents[0] as { text: string };
    expect(events.text.split('\n').map((l) => JSON.parse(l).event)).toContain('pane/created');
    await client.unsubscribeResource({ uri: `pane://${n}/body` });
    await call('close_pane', { pane: m });
  });

  it('offers prompts filled with the live state', async () => {
    const r = await client.getPrompt({ name: 'situation' });
    expect((r.messages[0]!.content as { text: string }).text).toMatch(/You are ada in pane[\s\S]*Login: ada|ada/);
    const h = await client.getPrompt({ name: 'handoff', arguments: { to: 'bob' } });
    expect((h.messages[0]!.content as { text: string }).text).toMatch(/Write a handoff for bob[\s\S]*plan from MCP/);
    const rv = await client.getPrompt({ name: 'review', arguments: { to: 'bob', focus: 'the retry loop' } });
    expect((rv.messages[0]!.content as { text: string }).text).toMatch(/Ask bob to review your work[\s\S]*above all: the retry loop[\s\S]*plan from MCP[\s\S]*post_message \(to: bob, type: request\)/);
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

  it('grants a session only within its .access: refused by default, read-only where it reads every pane, never read-write beyond its own, its own grants alone listed and revoked', async () => {
    const home = path.join(s.dir, '.local/share/pane/agents/ada');
    const file = path.join(home, '.access');
    const before = fs.readFileSync(file, 'utf8');
    // By default letting anyone in is denied (grant/* in commands.deny, no admin).
    const refused = await call('grant_session', { session: 'main' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/denied: .*(admin|grant\/create)/);
    const person = JSON.parse(s.pane(['grant', 'new', '--json', '--name', 'the person’s']).stdout) as { id: string };
    try {
      const access = JSON.parse(before) as Record<string, unknown>;
      fs.writeFileSync(file, JSON.stringify({ ...access, capabilities: ['read', 'write', 'attach', 'admin'], commands: { allow: ['*'], deny: ['server/stop', 'client/permission', 'agent/add', 'agent/remove'] } }));
      await new Promise((r) => setTimeout(r, 700)); // the daemon looks at an .access again after half a second
      // A new `pane mcp`: a connection's capabilities are settled at its hello.
      const admin = await mcpAs(fs.readFileSync(path.join(home, '.token'), 'utf8').trim());
      const call = async (name: string, args: Record<string, unknown> = {}) => (await admin.callTool({ name, arguments: args })) as TextResult;
      // panes.read is * (it reads pane 1): a read-only grant of the person's session is within it; read-write is not.
      const rw = await call('grant_session', { session: 'main', mode: 'rw' });
      expect(rw.isError).toBe(true);
      expect(textOf(rw)).toMatch(/ada's \.access panes\.write does not include pane 1 of session main; an agent grants only what it may do itself/);
      const ro = textOf(await call('grant_session', { session: 'main', expires: '10m', name: 'for review' }));
      expect(ro).toMatch(/^grant (g[0-9a-f]{8}) \(read-only\) of session main until /);
      const id = /^grant (g[0-9a-f]{8})/.exec(ro)![1]!;
      const token = /^token: (\S+)$/m.exec(ro)![1]!;
      // The token lets a guest in, bound to that session.
      expect(s.pane(['ls'], { env: cleanEnv({ PANE_GRANT: token }) }).status).toBe(0);
      // Its own grants alone: the person's is neither listed nor revocable by it.
      const mine = textOf(await call('list_grants'));
      expect(mine).toContain(id);
      expect(mine).not.toContain(person.id);
      const theirs = await call('revoke_grant', { id: person.id });
      expect(theirs.isError).toBe(true);
      expect(textOf(theirs)).toMatch(new RegExp(`no grant ${person.id} issued by agent ada`));
      expect(textOf(await call('revoke_grant', { id }))).toBe(`revoked ${id}; closed 0 guests`);
      expect(s.pane(['grant', 'ls', '--json']).stdout).not.toContain(id);
      await admin.close();
    } finally {
      fs.writeFileSync(file, before);
      s.pane(['grant', 'revoke', person.id]);
    }
  });
});
