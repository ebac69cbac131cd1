// Identity can be neither minted nor borrowed: one case per way an agent, using
// its own token, could make an account, act as another agent or as the human,
// or keep a right its .access no longer grants — through the protocol, the
// namespace, a FUSE mount and `pane mcp`. Each refusal is typed and in /log.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { loadFuse } from '../../kits/node/fuse/mounts';
import { PaneFault } from '../../kits/protocol/error';
import { agentHarness, type AgentHarness } from '../agents/helpers';
import { BIN, buildOnce, cleanEnv, serve, until, type Served } from '../cli/harness';

let h: AgentHarness;
beforeEach(async () => {
  h = await agentHarness();
});
afterEach(async () => {
  await h.close();
});

async function refusal(p: Promise<unknown>): Promise<PaneFault> {
  try {
    await p;
  } catch (e) {
    return e as PaneFault;
  }
  throw new Error('expected a refusal, but the request succeeded');
}

/** The human's first pane (the harness starts a session with one shell). */
const humanPane = () => [...h.running.server.panes.values()][0]!;
const setAccess = (name: string, access: object) => fs.writeFileSync(path.join(h.svc.store.home(name), '.access'), JSON.stringify(access));
/** /pane/log as a person reads it. */
async function log(c: Connection): Promise<string> {
  return (await c.call('ns/read', { path: '/log', count: 1 << 20 })).data;
}
/** Waits (bounded) until a pane's recent output matches. */
async function screen(c: Connection, pane: number, want: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const end = (await c.call('pty/read', { pane, maxBytes: 1 })).streamEnd;
    const text = (await c.call('pty/read', { pane, from: Math.max(0, end - 8192), maxBytes: 8192 })).data;
    if (want.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`pane ${pane} never showed ${want}; it shows: ${JSON.stringify(text.slice(-400))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('minting and borrowing through the protocol', () => {
  it('refuses an agent an agent-kind pane for another existing agent (borrowing its token), with the rule and a /log line', async () => {
    const human = await h.connect();
    await human.call('agent/add', { name: 'ada' });
    await human.call('agent/add', { name: 'bob' });
    const ada = await h.as('ada');
    const before = h.running.server.panes.size;
    const e = await refusal(ada.call('pane/split', { kind: 'agent', attrs: { agent: 'bob' }, launch: { program: '/bin/cat', args: [] } }));
    expect(e.code).toBe('denied');
    expect(e.message).toMatch(/^denied: ada's \.access gives no right to act as bob/);
    expect(h.running.server.panes.size).toBe(before);
    expect(await log(human)).toMatch(/^- denied ada pane\/split gives no right to act as bob/m);
  });

  it('refuses an agent a pane with another agent’s signature, and a session whose first pane names one', async () => {
    const human = await h.connect();
    await human.call('agent/add', { name: 'ada' });
    await human.call('agent/add', { name: 'bob' });
    const ada = await h.as('ada');
    expect((await refusal(ada.call('pane/split', { signature: 'com.pane.ai.agent.bob', launch: { program: '/bin/cat', args: [] } }))).message).toMatch(/act as bob/);
    expect((await refusal(ada.call('session/new', { name: 'x', pane: { kind: 'agent', attrs: { agent: 'bob' } } }))).message).toMatch(/act as bob/);
    expect((await refusal(ada.call('float/create', { kind: 'agent', signature: 'com.pane.ai.agent.bob', launch: { program: '/bin/cat', args: [] } }))).message).toMatch(/act as bob/);
  });

  it('never mints an account for an agent: a new name needs agent/add in its .access', async () => {
    const human = await h.connect();
    await human.call('agent/add', { name: 'ada' });
    const ada = await h.as('ada');
    const e = await refusal(ada.call('pane/split', { kind: 'agent', attrs: { agent: 'mallory' }, launch: { program: '/bin/cat', args: [] } }));
    expect(e.message).toMatch(/^denied: ada's \.access commands do not allow agent\/add/);
    expect(h.svc.store.exists('mallory')).toBe(false);
    // With agent/add granted, the person has let it make accounts.
    setAccess('ada', { commands: { allow: ['*'], deny: [] } });
    await until('the new .access', () => h.svc.access('ada').access.commands.deny.length === 0 || undefined);
    await ada.call('pane/split', { kind: 'agent', attrs: { agent: 'mallory' }, launch: { program: '/bin/cat', args: [] } });
    expect(h.svc.store.exists('mallory')).toBe(true);
  });

  it('gives an agent-kind pane an agent starts (agent/launch, no name) the agent’s own identity, not a fresh account', async () => {
    const human = await h.connect();
    await human.call('agent/add', { name: 'ada' });
    const ada = await h.as('ada');
    const r = await ada.call('agent/launch', { app: 'demo-agent' });
    expect(r.agent).toBe('ada');
    expect(h.svc.store.list()).toEqual(['ada']);
  });

  it('gives ordinary panes an agent makes its identity and token, so `pane` inside acts as the agent', async () => {
    const human = await h.connect();
    await human.call('agent/add', { name: 'ada' });
    const ada = await h.as('ada');
    const r = await ada.call('pane/split', { launch: { program: '/bin/sh', args: ['-c', 'echo "id=$PANE_AGENT:$PANE_TOKEN"; exec cat'] } });
    const text = await screen(human, r.pane, /id=\S+/);
    expect(text).toContain(`id=ada:${h.svc.store.token('ada')}`);
    expect(h.running.server.panes.get(r.pane)!.owner).toBe('ada');
  });

  it('does not let free-form attrs make a pane an agent’s: attrs.agent on the human’s pane gives ada nothing', async () => {
    const human = await h.connect();
    await human.call('agent/add', { name: 'ada' });
    const mine = humanPane().n;
    await human.call('pane/attrs', { pane: mine, set: { agent: 'ada' } });
    const ada = await h.as('ada');
    const e = await refusal(ada.call('pane/input', { pane: mine, data: 'echo hacked\r' }));
    expect(e.message).toMatch(new RegExp(`^denied: ada's \\.access panes\\.write does not include pane ${mine}`));
  });

  it('refuses a hook event that would adopt a pane the agent may not write', async () => {
    const human = await h.connect();
    await human.call('agent/add', { name: 'ada' });
    const ada = await h.as('ada');
    const mine = humanPane().n;
    const e = await refusal(ada.call('agent/hook', { input: { hook_event_name: 'SessionStart', session_id: 's1', cwd: '/' }, pane: mine }));
    expect(e.message).toMatch(new RegExp(`panes\\.write does not include pane ${mine}`));
    expect(h.svc.panes.has(mine)).toBe(false);
    expect(humanPane().attrs.agent).toBeUndefined();
  });

  it('types delivered mail only where the sender may write, and strips control bytes from what it types', async () => {
    const human = await h.connect();
    await human.call('agent/add', { name: 'ada' });
    await human.call('agent/add', { name: 'bob' });
    const r = await human.call('pane/split', { kind: 'agent', attrs: { agent: 'bob' }, launch: { program: '/bin/cat', args: [] } });
    const bob = await h.as('bob');
    await bob.call('agent/hook', { input: { hook_event_name: 'Stop', session_id: 'b1', cwd: '/' }, pane: r.pane });
    const ada = await h.as('ada');
    const e = await refusal(ada.call('agent/mail', { to: 'bob', body: 'rm -rf ~', deliver: true }));
    expect(e.message).toMatch(new RegExp(`^denied: ada's \\.access panes\\.write does not include pane ${r.pane}`));
    expect(h.svc.info('bob').unread).toBe(0);
    // The person may deliver; \r would submit early and ^C would kill the program.
    const sent = await human.call('agent/mail', { to: 'bob', body: 'one\rtwo\x03three\x1b[2J', deliver: true });
    expect(sent.typed).toBe('now');
    await screen(human, r.pane, /one twothree\[2J/);
    expect(h.running.server.panes.get(r.pane)!.state).toBe('running');
  });
});

describe('through the namespace', () => {
  it('judges /new/../1/event as /1/event: no interceptor on the human’s pane', async () => {
    const human = await h.connect();
    await human.call('agent/add', { name: 'ada' });
    const ada = await h.as('ada');
    const mine = humanPane().n;
    const e = await refusal(ada.call('ns/open', { path: `/new/../${mine}/event`, mode: 'rw' }));
    expect(e.message).toMatch(new RegExp(`^denied: ada's \\.access namespace\\.write does not include /pane/${mine}/event`));
    expect(h.running.services.namespace.interceptorOf(mine)).toBeUndefined();
  });

  it('needs write on the pane to open its event file read-write, whatever the namespace globs say', async () => {
    const human = await h.connect();
    await human.call('agent/add', { name: 'ada', access: { namespace: { read: ['/pane/**'], write: ['/pane/**'] } } });
    const ada = await h.as('ada');
    const mine = humanPane().n;
    const e = await refusal(ada.call('ns/open', { path: `/${mine}/event`, mode: 'rw' }));
    expect(e.message).toMatch(new RegExp(`panes\\.write does not include pane ${mine}`));
    expect(h.running.services.namespace.interceptorOf(mine)).toBeUndefined();
    // Read-only, it may watch.
    await ada.call('ns/open', { path: `/${mine}/event`, mode: 'r' });
  });

  it('refuses a read-only client another’s mail and messages, naming the rule, and hands nothing over', async () => {
    const human = await h.connect();
    await human.call('agent/add', { name: 'ada' });
    await human.call('agent/mail', { to: 'ada', subject: 'task', body: 'do it' });
    await human.call('awareness/message', { to: { kind: 'agent', name: 'ada' }, text: 'ping' });
    const ro = await h.connect(['read'], 'viewer');
    const unread = h.svc.info('ada').unread;
    expect(unread).toBeGreaterThan(0);
    const inbox = await refusal(ro.call('agent/inbox', { name: 'ada' }));
    expect(inbox.message).toMatch(/refused: the person may not call agent\/inbox: a read-only client sees screens and events, not mail or messages/);
    expect(h.svc.info('ada').unread).toBe(unread);
    const aw = await refusal(ro.call('awareness/inbox', { agent: 'ada' }));
    expect(aw.message).toMatch(/read-only client sees screens and events, not mail or messages/);
    // The person, with write, still reads it.
    expect((await human.call('agent/inbox', { name: 'ada', markRead: false })).messages.map((m) => m.subject)).toContain('task');
  });

  it('re-checks open streams and interceptors when the .access changes', async () => {
    const human = await h.connect();
    await human.call('agent/add', { name: 'ada', access: { panes: { read: ['*'], write: ['*'] }, namespace: { read: ['/pane/**'], write: ['/pane/**'] } } });
    const ada = await h.as('ada');
    const mine = humanPane().n;
    await ada.call('pty/attach', { pane: mine });
    await ada.call('ns/open', { path: `/${mine}/event`, mode: 'rw' });
    const conn = [...h.running.services.connections].find((c) => c.user === 'ada')!;
    expect(conn.attached.has(mine)).toBe(true);
    expect(h.running.services.namespace.interceptorOf(mine)).toBeDefined();
    setAccess('ada', { panes: { read: ['self'], write: ['self'] } });
    await until('the stream and the interceptor to end', () => (!conn.attached.has(mine) && h.running.services.namespace.interceptorOf(mine) === undefined) || undefined);
    expect(await log(human)).toMatch(new RegExp(`- denied ada pty/attach panes\\.read does not include pane ${mine}`));
  });
});

const fuse = loadFuse();
const noFuse = typeof fuse === 'string' ? fuse : '';

describe('through `pane mount` and `pane mcp` (the built CLI)', () => {
  let s: Served;
  const dataDir = () => path.join(s.dir, '.local', 'share', 'pane');
  const token = (name: string) => fs.readFileSync(path.join(dataDir(), 'agents', name, '.token'), 'utf8').trim();
  beforeAll(async () => {
    buildOnce();
    s = await serve();
    s.pane(['agent', 'add', 'ada']);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
  });

  it.skipIf(noFuse !== '')(`mounts as the agent: its writes meet its .access${noFuse ? ` (skipped: ${noFuse})` : ''}`, () => {
    const mnt = path.join(s.dir, 'mnt-ada');
    const env = cleanEnv({ PANE_AGENT: 'ada', PANE_TOKEN: token('ada'), PANE_SOCKET: s.socket });
    const r = s.pane(['mount', mnt], { env });
    expect(r.stderr).toBe('');
    try {
      const w = spawnSync('bash', ['-c', `echo 'name pwned' > ${mnt}/1/ctl`], { encoding: 'utf8', timeout: 20_000 });
      expect(w.status).not.toBe(0);
      expect(w.stderr).toMatch(/Permission denied|Operation not permitted/);
      expect(s.pane(['ls']).stdout).not.toMatch(/pwned/);
    } finally {
      s.pane(['umount', mnt]);
    }
  });

  it('refuses to mount or serve MCP as the human in an agent’s environment without a token', () => {
    const env = cleanEnv({ PANE_AGENT: 'ada', PANE_SOCKET: s.socket });
    const m = s.pane(['mount', '--foreground', path.join(s.dir, 'mnt-x')], { env });
    expect(m.status).toBe(1);
    expect(m.stderr).toMatch(/agent ada's environment .* \$PANE_TOKEN is not set: refusing to act as the human/);
    const mcp = spawnSync(process.execPath, [BIN, '--socket', s.socket, 'mcp'], { env, input: '', encoding: 'utf8', timeout: 20_000 });
    expect(mcp.status).toBe(1);
    expect(mcp.stderr).toMatch(/refusing to act as the human/);
    const cli = s.pane(['close', '-t', '1'], { env });
    expect(cli.status).toBe(1);
    expect(s.pane(['ls']).stdout).toMatch(/com\.pane\.terminal/);
  });
});
