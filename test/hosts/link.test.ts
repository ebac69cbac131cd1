// A joined host's link between two real in-process pane servers (issue 26): the
// local one forwards HOST:N to the remote over a transport the test can stall and
// cut, so the heartbeat's stale mark and the redial after a drop are seen as they
// happen. (test/hosts/ssh.test.ts joins a daemon through real ssh.)
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { CodeOnDisk } from '../../server/codeOnDisk';
import { DROP_AFTER_MS, RECONNECT_BASE_MS, REDIAL_AT_ONCE_AFTER_MS, STALE_AFTER_MS } from '../../server/hosts/hostLink';
import type { HostService } from '../../server/hosts/hostService';
import type { RunningServer } from '../../server/main';
import { agentConnection, joinedPair, until, type Gate, type Pair } from './pair';

let pair: Pair<Gate>;
let remote: RunningServer;
let local: RunningServer;
let hosts: HostService;
let c: Connection;
let dir: string;
/** box's gate, the newest dial's; the later tests stall and cut it. */
const gate = () => pair.gates.get('box');

beforeAll(async () => {
  pair = await joinedPair({ name: 'link', hosts: { box: {} } });
  ({ remote, local, hosts, c, dir } = pair);
}, 30_000);

afterAll(async () => {
  await pair?.stop();
});

describe('a host link', () => {
  it('forwards HOST:N and names the answer HOST:N by the file, not by what the remote calls itself', async () => {
    const joined = await c.call('host/connect', { name: 'box' });
    expect(joined.state).toBe('connected');
    expect(joined.remote?.host).toBe('far');
    const list = await c.call('host/list', { panes: true });
    expect(list.panes?.map((p) => p.host)).toEqual(['box']);
    const n = list.panes![0]!.n;
    const p = await c.call('pane/get', { pane: `box:${n}` });
    expect(p.host).toBe('box');
    const ack = await c.call('pane/tag', { pane: `box:${n}`, user: 'set from near' });
    expect(ack.id).toBe(`box:${n}`);
    // It landed on the remote's pane, not on the local pane of the same number.
    expect(remote.server.panes.get(n)?.tag.user).toBe('set from near');
    expect(local.server.panes.get(n)?.tag.user).not.toBe('set from near');
  });

  it("says in host/list when an update there replaced the code the host's daemon runs (from its heartbeat's server/info)", async () => {
    // The remote daemon's own code file, stood for by a file of this test's: remembered, then replaced, as an update there does.
    const file = path.join(dir, 'remote-code.mjs');
    fs.writeFileSync(file, 'export const v = 1;\n');
    const was = remote.server.code;
    remote.server.code = new CodeOnDisk(file);
    remote.server.code.remember();
    try {
      const box = async () => (await c.call('host/list', {})).hosts.find((h) => h.name === 'box')!;
      expect((await box()).remote?.codeReplaced ?? false).toBe(false);
      fs.writeFileSync(file, 'export const v = 2;\n');
      // As a rebuild a while later: the file's time moves on (written in the same clock tick, its stat would not have).
      const t = Date.now() / 1000 + 5;
      fs.utimesSync(file, t, t);
      await until('the heartbeat to hear of the update', async () => (await box()).remote?.codeReplaced === true, 20_000);
      expect((await box()).state).toBe('connected');
    } finally {
      remote.server.code = was;
    }
  });

  it("refuses an agent's request for another host's pane, and lists it none of them", async () => {
    // An agent connection is one with an access check (its .access); this one would allow anything.
    const agent = await agentConnection(local.services, 'ada');
    const n = (await c.call('host/list', { panes: true })).panes![0]!.n;
    await expect(agent.call('pane/input', { pane: `box:${n}`, data: 'echo agent-was-here' })).rejects.toThrow(/denied: .*agent's \.access names this server's panes only/);
    expect((await agent.call('host/list', { panes: true })).panes).toBeUndefined();
    agent.close();
  });

  it('leaves requests whose pane is no HOST:N to this server (session/new with its first pane spec)', async () => {
    const s = await c.call('session/new', { name: 'spec', pane: { name: 'first' }, launch: { program: '/bin/cat', args: [] } });
    const first = (await c.call('session/get', { session: s.session })).focused!;
    expect(local.server.panes.get(first)?.tag.name).toBe('first');
    expect((await c.call('pane/get', { pane: `near:${first}` })).n).toBe(first);
  });

  it('makes a session on a joined host (host), refuses an unknown host and an agent by name, and keeps host: own name here', async () => {
    const before = local.server.sessions.size;
    const made = await c.call('session/new', { host: 'box', name: 'there', launch: { program: '/bin/cat', args: [] } });
    expect(made.name).toBe('there');
    expect([...remote.server.sessions.values()].some((x) => x.id === made.session && x.name === 'there')).toBe(true);
    expect(local.server.sessions.size).toBe(before);
    // Its first pane is box:N at once.
    const first = (await c.call('host/list', { panes: true })).panes!.find((p) => p.session === made.session);
    expect(first?.host).toBe('box');
    await expect(c.call('session/new', { host: 'nowhere', name: 'x' })).rejects.toThrow(/no host nowhere: there is no .*nowhere\.json; add it with pane host add nowhere/);
    const own = await c.call('session/new', { host: 'near', name: 'here-too', launch: { program: '/bin/cat', args: [] } });
    expect(local.server.sessions.has(own.session)).toBe(true);
    // An agent connection is one with an access check (its .access); this one would allow anything.
    const agent = await agentConnection(local.services, 'ada');
    await expect(agent.call('session/new', { host: 'box', name: 'by-agent' })).rejects.toThrow(/denied: session\/new on host box: an agent's \.access/);
    agent.close();
    // A server that joins no hosts makes no session "on" one (never here in its stead).
    await expect(remote.connect().then((r) => r.call('session/new', { host: 'elsewhere', name: 'y' }))).rejects.toThrow(/no host elsewhere is joined here/);
    await c.call('session/kill', { session: own.session });
  });

  it("reports a host file named as this server's own host, and keeps the others", async () => {
    fs.writeFileSync(path.join(dir, 'hosts', 'near.json'), JSON.stringify({ how: { via: 'command', argv: ['unused'] } }));
    hosts.reload();
    const list = await c.call('host/list', {});
    expect(list.hosts.map((h) => h.name)).toEqual(['box']);
    expect(list.errors).toContainEqual(expect.objectContaining({ file: path.join(dir, 'hosts', 'near.json'), field: '(file name)' }));
    fs.unlinkSync(path.join(dir, 'hosts', 'near.json'));
    hosts.reload();
  });

  it('names a host file that is there but does not read by its error when it is connected, not as missing', async () => {
    fs.writeFileSync(path.join(dir, 'hosts', 'typo.json'), JSON.stringify({ how: { via: 'ssh', destination: '-oX' } }));
    hosts.reload();
    const e = await c.call('host/connect', { name: 'typo' }).catch((x: Error) => x);
    expect(String((e as Error).message)).toMatch(/^host typo's file does not read: .*typo\.json: how\.destination: a destination is host or user@host .*; fix it \(pane host ls lists every error\)$/);
    const none = await c.call('host/connect', { name: 'nosuch' }).catch((x: Error) => x);
    expect(String((none as Error).message)).toMatch(/^no host nosuch: there is no .*nosuch\.json; add it with pane host add nosuch ssh:/);
    fs.unlinkSync(path.join(dir, 'hosts', 'typo.json'));
    hosts.reload();
  });

  it('connects a host as its file says now, even when the file changed a moment before (pane host unpair && pane host connect)', async () => {
    const file = path.join(dir, 'hosts', 'later.json');
    fs.writeFileSync(file, JSON.stringify({ how: { via: 'command', argv: ['unused'] } }));
    hosts.reload();
    fs.writeFileSync(file, JSON.stringify({ how: { via: 'command', argv: ['unused'] }, readOnly: true }));
    const h = await c.call('host/connect', { name: 'later' });
    expect(h.readOnly).toBe(true);
    await c.call('host/disconnect', { name: 'later' });
    fs.unlinkSync(file);
    hosts.reload();
  });

  it('marks a host that stops answering stale, then connected again when it answers', async () => {
    gate()!.stalled = true;
    await until('stale', async () => (await c.call('host/list', {})).hosts[0]?.state === 'stale' || undefined, STALE_AFTER_MS + 5000);
    gate()!.stalled = false;
    await until('connected again', async () => (await c.call('host/list', {})).hosts[0]?.state === 'connected' || undefined, 5000);
  }, 20_000);

  it('dials a dropped link again (bounded backoff) and forwards through the new one', async () => {
    const before = pair.dials;
    gate()!.close('the test cut the link');
    const h = await until('redialled', async () => {
      const s = (await c.call('host/list', {})).hosts[0];
      return pair.dials > before && s?.state === 'connected' ? s : undefined;
    }, 10_000);
    expect(h.error).toBeNull();
    const n = (await c.call('host/list', { panes: true })).panes![0]!.n;
    expect((await c.call('pane/get', { pane: `box:${n}` })).host).toBe('box');
  }, 20_000);

  it('dials a link that was up a while again at once, and one that flaps after RECONNECT_BASE_MS', async () => {
    const connected = () => until('connected', async () => (await c.call('host/list', {})).hosts[0]?.state === 'connected' || undefined, 10_000);
    await connected();
    await new Promise((r) => setTimeout(r, REDIAL_AT_ONCE_AFTER_MS + 100));
    let before = pair.dials;
    let t0 = Date.now();
    gate()!.close('the test cut a link that was up a while');
    await until('redialled', () => pair.dials > before || undefined, 10_000);
    const atOnce = Date.now() - t0;
    await connected();
    before = pair.dials;
    t0 = Date.now();
    gate()!.close('the test cut it again at once');
    await until('redialled', () => pair.dials > before || undefined, 10_000);
    const flapping = Date.now() - t0;
    expect(atOnce).toBeLessThan(RECONNECT_BASE_MS);
    expect(flapping).toBeGreaterThanOrEqual(RECONNECT_BASE_MS - 5);
    await connected();
  }, 30_000);

  it('cuts a link silent past DROP_AFTER_MS and dials it again; a request on the wire then is told it may have been done there', async () => {
    const n = (await c.call('host/list', { panes: true })).panes![0]!.n;
    const before = pair.dials;
    gate()!.stalled = true;
    // Sent halfway through the silence (so the cut at DROP_AFTER_MS comes before FORWARD_TIMEOUT_MS): its answer is lost with the link.
    await new Promise((r) => setTimeout(r, DROP_AFTER_MS / 2));
    const pending = c.call('pane/get', { pane: `box:${n}` }).then(() => null, (e: Error) => e);
    await until('dropped and redialled', async () => (pair.dials > before && (await c.call('host/list', {})).hosts[0]?.state === 'connected') || undefined, DROP_AFTER_MS + 10_000);
    expect((await pending)?.message).toMatch(/^host box: the link was cut before box answered pane\/get \(it did not answer for \d+ s \(DROP_AFTER_MS\)\); box may have done it all the same: look \(pane screen, pane ls\) before you send it again$/);
  }, DROP_AFTER_MS + 15_000);

  it('leaves on disconnect, says so in host/changed, and refuses HOST:N after, naming the fix', async () => {
    const seen: string[] = [];
    c.events.on('host/changed', (d) => seen.push(d.hosts.map((h) => `${h.name}=${h.state}`).join(',')));
    await c.call('events/subscribe', { families: ['host'] });
    await c.call('host/disconnect', { name: 'box' });
    await until('host/changed', () => seen.includes('box=disconnected') || undefined, 5000);
    await expect(c.call('pane/get', { pane: 'box:1' })).rejects.toThrow(/host box is disconnected.*pane host connect box/);
  });
});

describe('a host stopped there', () => {
  it('says in the link’s error who stopped it there (its pane stop), as the host’s words, never as a refusal of anyone’s keys', async () => {
    const p = await joinedPair({ name: 'stopped', hosts: { box: {} } });
    try {
      await p.c.call('host/connect', { name: 'box' });
      await until('connected', async () => (await p.c.call('host/list', {})).hosts[0]?.state === 'connected' || undefined, 10_000);
      const refused: { door: string; reason: string }[] = [];
      await p.c.call('events/subscribe', { families: ['client'] });
      p.c.events.on('client/refused', (d) => void refused.push(d));
      const there = await p.remote.connect();
      await there.call('server/stop', {});
      const h = await until('the link to say why it closed', async () => {
        const s = (await p.c.call('host/list', {})).hosts[0];
        return s?.error?.includes('stopped by') ? s : undefined;
      }, 10_000);
      expect(h.error).toContain('the link closed: the pane server was stopped by the person (pane stop); its panes have ended');
      expect(h.state).not.toBe('connected');
      // The link's drop is said once, with the host's words; nothing is taken for a refusal of keys ("host box refused: …").
      expect(refused.map((r) => r.reason)).toEqual(['host box: cut off: the link closed: the pane server was stopped by the person (pane stop); its panes have ended']);
    } finally {
      await p.stop();
    }
  }, 30_000);
});
