// Agents across hosts (issue 26): two real in-process pane servers, `near` joined to
// `far` as host `box` over an in-memory transport; `pane finger ada@box` is asked of
// far's daemon and answered as box's (host set, panes box:N), `pane finger` lists
// both servers' agents, an unreachable host is named with why, and an agent of near
// is refused box's agents as it is refused box's panes.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { memoryPair } from '../../kits/client/memoryTransport';
import { fingerLong, fingerShort } from '../../kits/node/cli/commands/agentsFinger';
import { attachHosts } from '../../server/hosts/index';
import { REMOTE_AWARENESS_POLL_MS } from '../../server/hosts/remoteAwareness';
import type { HostService } from '../../server/hosts/hostService';
import { ClientConn } from '../../server/transport/clientConn';
import { agentHarness, type AgentHarness } from '../agents/helpers';
import { until } from './pair';

let far: AgentHarness;
let near: AgentHarness;
let hosts: HostService;
let c: Connection;
let farPane: number;
let nearPane: number;

beforeAll(async () => {
  far = await agentHarness({ host: 'far' });
  near = await agentHarness({ host: 'near' });
  fs.mkdirSync(path.join(near.dir, 'cfg', 'hosts'), { recursive: true });
  fs.writeFileSync(path.join(near.dir, 'cfg', 'hosts', 'box.json'), JSON.stringify({ how: { via: 'command', argv: ['unused'] } }));
  fs.writeFileSync(path.join(near.dir, 'cfg', 'hosts', 'gone.json'), JSON.stringify({ how: { via: 'command', argv: ['unused'] } }));
  hosts = attachHosts(near.running.services, {
    configDir: path.join(near.dir, 'cfg'),
    dial: async (entry) => {
      if (entry.name === 'gone') throw new Error('no route to gone (the test)');
      const [a, b] = memoryPair();
      new ClientConn(far.running.services, b, (h) => ({ capabilities: h.capabilities }));
      return { transport: a };
    },
  });
  const fc = await far.connect();
  await fc.call('agent/add', { name: 'ada' });
  farPane = (await fc.call('float/create', { kind: 'agent', attrs: { agent: 'ada' }, launch: { program: '/bin/cat', args: [] }, x: 0, y: 0, w: 40, h: 12 })).pane;
  const nc = await near.connect();
  await nc.call('agent/add', { name: 'bob' });
  nearPane = (await nc.call('float/create', { kind: 'agent', attrs: { agent: 'bob' }, launch: { program: '/bin/cat', args: [] }, x: 0, y: 0, w: 40, h: 12 })).pane;
  c = nc;
  expect((await c.call('host/connect', { name: 'box' })).state).toBe('connected');
  await c.call('host/connect', { name: 'gone' }).catch(() => undefined);
}, 30_000);

afterAll(async () => {
  hosts?.stop();
  await near?.close();
  await far?.close();
});

describe('agents across hosts', () => {
  it("finger ada@box asks box's daemon and names the answer as box's: host box, panes box:N", async () => {
    const a = await c.call('agent/get', { name: 'ada@box' });
    expect(a.name).toBe('ada');
    expect(a.host).toBe('box');
    expect(a.panes.map((p) => p.id)).toEqual([`box:${farPane}`]);
    expect(fingerLong(a)).toMatch(/^Login: ada@box/);
    expect(fingerLong(a)).toContain(`On pane box:${farPane}`);
    // The local server has no ada: the bare name is refused here, not answered from box.
    await expect(c.call('agent/get', { name: 'ada' })).rejects.toThrow(/ada/);
    // NAME@(this server's own host) is the local agent.
    expect((await c.call('agent/get', { name: 'bob@near' })).host).toBeUndefined();
  });

  it("a remote's refusal names its fix as typed here: pane agent add on box, not a local one", async () => {
    await expect(c.call('agent/get', { name: 'zed@box' })).rejects.toThrow(/^host box: no agent named zed \(known: .*; add one with `pane agent add zed` on box\)$/);
  });

  it('finger ada@HOST of a host with no file is refused naming the file to write', async () => {
    await expect(c.call('agent/get', { name: 'ada@nowhere' })).rejects.toThrow(/no host nowhere: .*nowhere\.json.*pane host add nowhere/);
  });

  it("finger with hosts lists both servers' agents and names the host it could not reach", async () => {
    const r = await c.call('agent/list', { hosts: true });
    const logins = r.agents.map((a) => (a.host ? `${a.name}@${a.host}` : a.name));
    expect(logins).toEqual(expect.arrayContaining(['bob', 'ada@box']));
    expect(logins).not.toContain('ada');
    expect(r.unreached).toEqual([expect.objectContaining({ host: 'gone' })]);
    expect(fingerShort(r.agents).join('\n')).toContain(`box:${farPane}`);
    // Without hosts: this server's agents only, as before.
    expect((await c.call('agent/list', {})).agents.map((a) => a.name)).toEqual(['bob']);
  });

  it("refuses an agent of this server box's agents, as it refuses box's panes", async () => {
    const agent = await near.as('bob');
    await expect(agent.call('agent/get', { name: 'ada@box' })).rejects.toThrow(/denied: agent\/get of ada@box: an agent sees this server's agents only/);
    const r = await agent.call('agent/list', { hosts: true });
    expect(r.agents.some((a) => a.host !== undefined)).toBe(false);
    // What was left out is said once, for all the other hosts together.
    expect(r.unreached).toEqual([{ host: '*', reason: "an agent sees this server's agents only" }]);
  });
});

const DRIFT = ['refresh the jwt auth token on login', 'jwt login session expiry for auth', 'auth login: verify the jwt token signature', 'jwt auth login token rotation'];

describe('mail and write across hosts', () => {
  it("pane mail ada@box lands in ada's mailbox on box; pane write ada@box types into her pane there", async () => {
    const r = await c.call('agent/mail', { to: 'ada@box', subject: 'from near', body: 'the jwt work overlaps\n' });
    expect(r.to).toBe('ada@box');
    const inbox = await (await far.connect()).call('agent/inbox', { name: 'ada', all: true });
    expect(inbox.messages.map((m) => m.subject)).toContain('from near');
    const w = await c.call('agent/write', { to: 'ada@box', text: 'hello from near' });
    expect([w.to, w.pane]).toEqual(['ada@box', null]);
    const agent = await near.as('bob');
    await expect(agent.call('agent/mail', { to: 'ada@box', body: 'x' })).rejects.toThrow(/denied: agent\/mail to ada@box/);
  });
});

describe('convergence across hosts', () => {
  it('predicts convergence between a local agent and a remote one, naming it ada@box, and tells the local one', async () => {
    const ada = await far.as('ada');
    const bob = await near.as('bob');
    const proj = path.join(near.dir, 'shop');
    fs.mkdirSync(proj, { recursive: true });
    const hook = (conn: Connection, who: string, pane: number, event: string, extra: Record<string, unknown> = {}) =>
      conn.call('agent/hook', { input: { session_id: `${who}-session`, cwd: proj, hook_event_name: event, ...extra }, pane });
    await hook(ada, 'ada', farPane, 'SessionStart', { source: 'startup' });
    await hook(bob, 'bob', nearPane, 'SessionStart', { source: 'startup' });
    for (const p of DRIFT) {
      await hook(ada, 'ada', farPane, 'UserPromptSubmit', { prompt: p });
      await hook(bob, 'bob', nearPane, 'UserPromptSubmit', { prompt: p.replace('refresh', 'review') });
    }
    // The next poll mirrors ada's topics here as ada@box, and the pass pairs her with bob.
    const pred = await until(
      'a prediction between bob and ada@box',
      async () => (await c.call('awareness/predictions', {})).active.find((p) => [p.a, p.b].sort().join(' ') === 'ada@box bob'),
      REMOTE_AWARENESS_POLL_MS * 4,
    );
    expect(pred.topics.length).toBeGreaterThan(0);
    // bob's next turn is told, naming the remote agent as ada@box.
    const r = await hook(bob, 'bob', nearPane, 'UserPromptSubmit', { prompt: 'jwt auth login token rotation' });
    expect(JSON.stringify(r.output)).toContain('ada@box');
    // far itself knows no bob: nothing flows back unasked.
    expect((await (await far.connect()).call('awareness/agents', { all: true })).agents.map((a) => a.name)).toEqual(['ada']);
  }, 30_000);
});

describe('a host that leaves', () => {
  const mirrored = async () => (await c.call('awareness/agents', { all: true })).agents.map((a) => a.name).filter((n) => n.endsWith('@box'));
  it('takes its agents along, then the heartbeat stops: a host file alone wakes nothing (issue 35)', async () => {
    await until('ada@box mirrored', async () => (await mirrored()).length > 0, REMOTE_AWARENESS_POLL_MS * 4);
    expect(hosts.heartbeat.running).toBe(true);
    await c.call('host/disconnect', { name: 'box' });
    await until('ada@box let go', async () => (await mirrored()).length === 0, REMOTE_AWARENESS_POLL_MS * 4);
    // box left, gone never joined: two host files, nothing to beat for (it beat every 2 s for as long as a file was there).
    await until('the heartbeat to stop', () => !hosts.heartbeat.running, REMOTE_AWARENESS_POLL_MS * 3);
  }, 30_000);

  it('takes its agents along when its file is removed while it is joined', async () => {
    expect((await c.call('host/connect', { name: 'box' })).state).toBe('connected');
    await until('ada@box mirrored again', async () => (await mirrored()).length > 0, REMOTE_AWARENESS_POLL_MS * 4);
    fs.rmSync(path.join(near.dir, 'cfg', 'hosts', 'box.json'));
    // Before, no link polled a host whose file went, and its agents stayed here for good.
    await until('ada@box let go', async () => (await mirrored()).length === 0, REMOTE_AWARENESS_POLL_MS * 4);
    await until('the heartbeat to stop', () => !hosts.heartbeat.running, REMOTE_AWARENESS_POLL_MS * 3);
  }, 30_000);
});
