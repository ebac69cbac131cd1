// A joined host's panes in this server's namespace (issue 26, decision 037): two
// real in-process pane servers joined over a transport; /HOST:N/ lists and reads
// the remote's own /N/ files, a read-only host refuses writes, an agent is
// refused, a remote that lies about a read is dropped, a stalled host answers
// within NS_REMOTE_TIMEOUT_MS naming its state. (FUSE: test/hosts/nsFuse.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import type { WireFrame } from '../../kits/client/transport';
import { NS_REMOTE_TIMEOUT_MS } from '../../server/hosts/remoteNamespace';
import type { RunningServer } from '../../server/main';
import { agentConnection, Gate, joinedPair, type Pair } from './pair';

/** A gate whose `lie` rewrites ns/read answers (a remote that lies). */
class LyingGate extends Gate {
  lie = false;
  protected override bend(f: WireFrame): WireFrame {
    if (this.lie && typeof f === 'string' && f.includes('"eof"')) {
      const m = JSON.parse(f) as { result?: { data: string; count: number } };
      if (m.result) {
        m.result.data = 'x'.repeat(200);
        m.result.count = 200;
        return JSON.stringify(m);
      }
    }
    return f;
  }
}

let pair: Pair<LyingGate>;
let remote: RunningServer;
let local: RunningServer;
let c: Connection;
let gates: Map<string, LyingGate>;
/** The remote's pane, and a local pane of the same number whose files must never answer for it. */
let n: number;

const text = (r: { data: string; encoding: string }) => Buffer.from(r.data, r.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');

beforeAll(async () => {
  pair = await joinedPair({ name: 'nshost', hosts: { box: {}, ro: { readOnly: true } }, gate: (inner) => new LyingGate(inner) });
  ({ remote, local, c, gates } = pair);
  expect((await c.call('host/connect', { name: 'box' })).state).toBe('connected');
  expect((await c.call('host/connect', { name: 'ro' })).state).toBe('connected');
  n = (await c.call('host/list', { panes: true })).panes!.find((p) => p.host === 'box')!.n;
  await c.call('pane/tag', { pane: `box:${n}`, name: 'far-pane' });
  await c.call('pane/tag', { pane: n, name: 'near-pane' }).catch(() => undefined);
}, 30_000);

afterAll(async () => {
  await pair?.stop();
});

describe("a joined host's panes in the namespace", () => {
  it('lists /HOST:N beside the local panes and the same files as the remote lists under /N', async () => {
    const root = (await c.call('ns/list', { path: '/' })).entries.map((e) => e.name);
    expect(root).toEqual(expect.arrayContaining([`box:${n}`, `ro:${n}`]));
    const here = await c.call('ns/list', { path: `/box:${n}` });
    expect(here.path).toBe(`/box:${n}`);
    const there = await remote.connect().then((r) => r.call('ns/list', { path: `/${n}` }));
    expect(here.entries.map((e) => e.name)).toEqual(there.entries.map((e) => e.name));
    const st = await c.call('ns/stat', { path: `/box:${n}/tag` });
    expect(st).toMatchObject({ path: `/box:${n}/tag`, name: 'tag', type: 'file' });
  });

  it("reads the remote pane's files, not the local pane of the same number", async () => {
    const tag = await c.call('ns/read', { path: `/box:${n}/tag` });
    expect(text(tag)).toMatch(/^far-pane /);
    // Through a handle too (the FUSE mount's way), and a piece by offset.
    const { fid } = await c.call('ns/open', { path: `/box:${n}/tag`, mode: 'r' });
    const piece = await c.call('ns/read', { path: `/box:${n}/tag`, fid, offset: 4, count: 4 });
    expect(piece).toMatchObject({ offset: 4, count: 4 });
    expect(text(piece)).toBe('pane');
    await c.call('ns/close', { fid });
    // A view path naming a remote pane is answered by that host, never from a local pane's number.
    expect(text(await c.call('ns/read', { path: `/by-sig/com.pane.terminal/box:${n}/tag` }))).toMatch(/^far-pane /);
    await expect(c.call('ns/read', { path: `/by-sig/com.pane.nothing/box:${n}/tag` })).rejects.toThrow(/no sig "com.pane.nothing" among the panes/);
  });

  it('lists the joined hosts\' panes in /index and the by-sig and by-owner views, not in by-session', async () => {
    const index = text(await c.call('ns/read', { path: '/index', count: 1 << 20 })).split('\n');
    // As of the host's last heartbeat (HEARTBEAT_MS), as the root's HOST:N directories are.
    const far = index.find((l) => l.split(/ +/)[1] === 'box');
    expect(far, index.join('\n')).toBeDefined();
    expect(far!.split(/ +/).slice(0, 3)).toEqual([String(n), 'box', '-']);
    expect(index.some((l) => /near-pane/.test(l) && / near /.test(l))).toBe(true);
    const bySig = (await c.call('ns/list', { path: '/by-sig/com.pane.terminal' })).entries.map((e) => e.name);
    expect(bySig).toEqual(expect.arrayContaining([String(n), `box:${n}`, `ro:${n}`]));
    const owner = remote.server.panes.get(n)!.owner;
    expect((await c.call('ns/list', { path: `/by-owner/${owner}` })).entries.map((e) => e.name)).toContain(`box:${n}`);
    const there = await remote.connect().then((r) => r.call('ns/list', { path: `/${n}` }));
    const viaView = await c.call('ns/list', { path: `/by-owner/${owner}/box:${n}` });
    expect(viaView.path).toBe(`/by-owner/${owner}/box:${n}`);
    expect(viaView.entries.map((e) => e.name)).toEqual(there.entries.map((e) => e.name));
    for (const sess of (await c.call('ns/list', { path: '/by-session' })).entries) {
      expect((await c.call('ns/list', { path: `/by-session/${sess.name}` })).entries.map((e) => e.name).every((x) => !x.includes(':'))).toBe(true);
    }
  });

  it('writes to a joined host, and a readOnly host refuses writes by name (shown r-- too)', async () => {
    await c.call('ns/write', { path: `/box:${n}/ctl`, data: 'name renamed-through-ns\n' });
    expect(remote.server.panes.get(n)?.tag.name).toBe('renamed-through-ns');
    await expect(c.call('ns/write', { path: `/ro:${n}/ctl`, data: 'name nope\n' })).rejects.toThrow(/denied: host ro is joined read-only \(readOnly in .*ro\.json\)/);
    await expect(c.call('ns/open', { path: `/ro:${n}/input`, mode: 'w' })).rejects.toThrow(/denied: host ro is joined read-only/);
    expect(remote.server.panes.get(n)?.tag.name).toBe('renamed-through-ns');
    const ctl = (await c.call('ns/list', { path: `/ro:${n}` })).entries.find((e) => e.name === 'ctl')!;
    expect(ctl.mode & 0o222).toBe(0);
    expect(text(await c.call('ns/read', { path: '/log', count: 1 << 20 }))).toMatch(/refused namespace of host ro: host ro is joined read-only/);
  });

  it("refuses an agent another host's files, and lists it none", async () => {
    const agent = await agentConnection(local.services, 'ada');
    await expect(agent.call('ns/read', { path: `/box:${n}/tag` })).rejects.toThrow(/denied: an agent's \.access names this server's panes only/);
    await expect(agent.call('ns/write', { path: `/box:${n}/input`, data: 'echo agent-was-here\n' })).rejects.toThrow(/denied: an agent's/);
    expect((await agent.call('ns/list', { path: '/' })).entries.map((e) => e.name)).not.toContain(`box:${n}`);
    expect(text(await agent.call('ns/read', { path: '/index', count: 1 << 20 }))).not.toMatch(/ box /);
    expect((await agent.call('ns/list', { path: '/by-sig/com.pane.terminal' })).entries.map((e) => e.name)).not.toContain(`box:${n}`);
    agent.close();
  });

  it('drops a remote answer larger than the read asked, naming the host', async () => {
    gates.get('box')!.lie = true;
    try {
      await expect(c.call('ns/read', { path: `/box:${n}/tag`, count: 8 })).rejects.toThrow(/host box answered 200 bytes .* to a read of at most 8/);
    } finally {
      gates.get('box')!.lie = false;
    }
  });

  it('answers for a stalled host within NS_REMOTE_TIMEOUT_MS, naming it', async () => {
    gates.get('box')!.stalled = true;
    const t0 = Date.now();
    try {
      await expect(c.call('ns/list', { path: `/box:${n}` })).rejects.toThrow(new RegExp(`host box \\((connected|stale)\\) did not answer ns/list within ${NS_REMOTE_TIMEOUT_MS} ms`));
      expect(Date.now() - t0).toBeLessThan(NS_REMOTE_TIMEOUT_MS + 2000);
    } finally {
      gates.get('box')!.stalled = false;
    }
    await c.call('host/disconnect', { name: 'box' });
    await expect(c.call('ns/read', { path: `/box:${n}/tag` })).rejects.toThrow(/host box is disconnected.*pane host connect box/);
    expect((await c.call('ns/list', { path: '/' })).entries.map((e) => e.name)).not.toContain(`box:${n}`);
  }, 20_000);
});
