// A joined host's agents' records are untrusted input (issue 26): the local server
// mirrors them into its awareness engine as NAME@HOST. A remote that lies — records
// past the bounds of server/hosts/remoteAwareness.ts, or of the wrong shape — is
// refused whole into /pane/log (client/refused), nothing of it is mirrored, and the
// local agents' awareness is unchanged. Two real in-process servers; the remote's
// answers are rewritten on the wire by a transport the test controls.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryPair } from '../../kits/client/memoryTransport';
import { BaseTransport, type Transport, type WireFrame } from '../../kits/client/transport';
import { attachHosts } from '../../server/hosts/index';
import type { HostService } from '../../server/hosts/hostService';
import { MAX_REMOTE_AWARENESS_AGENTS, MAX_REMOTE_TOPICS, REMOTE_AWARENESS_POLL_MS } from '../../server/hosts/remoteAwareness';
import { ClientConn } from '../../server/transport/clientConn';
import { agentHarness, type AgentHarness } from '../agents/helpers';

type Lie = 'honest' | 'topics' | 'agents' | 'shape';

/** Rewrites every agent record (an object with keyTopics and window) the remote sends, as `lie` says. */
class Liar extends BaseTransport {
  readonly kind = 'liar';
  lie: Lie = 'honest';
  constructor(private readonly inner: Transport) {
    super();
    inner.onFrame((f) => this.deliver(this.rewrite(f)));
    inner.onClose((r) => this.closedBy(r));
  }
  private rewrite(f: WireFrame): WireFrame {
    if (typeof f !== 'string' || this.lie === 'honest' || !f.includes('"keyTopics"')) return f;
    const msg = JSON.parse(f) as { result?: { agents?: Record<string, unknown>[] } };
    const agents = msg.result?.agents;
    if (!Array.isArray(agents) || agents.length === 0) return f;
    if (this.lie === 'topics') for (const a of agents) a.keyTopics = Array.from({ length: MAX_REMOTE_TOPICS + 1 }, (_, i) => `jwt${i}`);
    if (this.lie === 'agents') msg.result!.agents = Array.from({ length: MAX_REMOTE_AWARENESS_AGENTS + 1 }, (_, i) => ({ ...agents[0], name: `a${i}` }));
    if (this.lie === 'shape') for (const a of agents) a.keyTopics = 42;
    return JSON.stringify(msg);
  }
  send(f: WireFrame): void {
    this.inner.send(f);
  }
  close(reason?: string): void {
    this.inner.close(reason);
    this.closedBy(reason ?? 'closed');
  }
}

let far: AgentHarness;
let near: AgentHarness;
let hosts: HostService;
let liar: Liar;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mirrored = () => near.running.services.awareness!.aw.all().filter((a) => a.name.includes('@')).map((a) => a.name);

beforeAll(async () => {
  far = await agentHarness({ host: 'far' });
  near = await agentHarness({ host: 'near' });
  fs.mkdirSync(path.join(near.dir, 'cfg', 'hosts'), { recursive: true });
  fs.writeFileSync(path.join(near.dir, 'cfg', 'hosts', 'box.json'), JSON.stringify({ how: { via: 'command', argv: ['unused'] } }));
  hosts = attachHosts(near.running.services, {
    configDir: path.join(near.dir, 'cfg'),
    dial: async () => {
      const [a, b] = memoryPair();
      new ClientConn(far.running.services, b, (h) => ({ capabilities: h.capabilities }));
      liar = new Liar(a);
      return { transport: liar };
    },
  });
  const fc = await far.connect();
  await fc.call('agent/add', { name: 'ada' });
  await fc.call('awareness/prompt', { agent: 'ada', text: 'refresh the jwt auth token on login' });
  const nc = await near.connect();
  await nc.call('agent/add', { name: 'bob' });
  await nc.call('awareness/prompt', { agent: 'bob', text: 'review the jwt auth token on login' });
  expect((await nc.call('host/connect', { name: 'box' })).state).toBe('connected');
}, 30_000);

afterAll(async () => {
  hosts?.stop();
  await near?.close();
  await far?.close();
});

describe("a joined host's agents' records", () => {
  for (const lie of ['topics', 'agents', 'shape'] as const) {
    it(`are refused whole when the remote lies (${lie}), and local awareness is unchanged`, async () => {
      const aw = near.running.services.awareness!.aw;
      aw.mirror('box', []);
      const bobBefore = JSON.stringify(aw.agent('bob'));
      liar.lie = lie;
      const from = near.events.length;
      await sleep(REMOTE_AWARENESS_POLL_MS * 2 + 500);
      expect(mirrored()).toEqual([]);
      expect(JSON.stringify(aw.agent('bob'))).toBe(bobBefore);
      if (lie !== 'shape') {
        // Named in /pane/log with the bound it broke; a wrong shape is refused by the link's schema check.
        const refused = near.events.slice(from).filter((e) => e.event === 'client/refused' && e.data.door === 'host box awareness');
        expect(refused.length).toBeGreaterThan(0);
        expect(String(refused[0]!.data.reason)).toMatch(lie === 'topics' ? /MAX_REMOTE_TOPICS/ : /MAX_REMOTE_AWARENESS_AGENTS/);
      }
      // The link itself and local answers go on.
      expect((await (await near.connect()).call('agent/get', { name: 'bob' })).name).toBe('bob');
    }, 20_000);
  }

  it('are mirrored as NAME@HOST once the remote answers within bounds (the tests above can fail)', async () => {
    liar.lie = 'honest';
    const deadline = Date.now() + REMOTE_AWARENESS_POLL_MS * 4;
    while (mirrored().length === 0 && Date.now() < deadline) await sleep(100);
    expect(mirrored()).toEqual(['ada@box']);
    // No pane, no cwd: a remote's pane number and paths name another machine's.
    const ada = near.running.services.awareness!.aw.agent('ada@box')!;
    expect([ada.pane, ada.cwd]).toEqual([null, null]);
  }, 20_000);
});
