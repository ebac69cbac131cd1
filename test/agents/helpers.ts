// Helpers for agent tests: a real server (harness) with its agent service, and
// connections that say hello with an agent's token, as an agent pane's `pane` does.
import fs from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { checkResults, Connection } from '../../kits/client/index';
import { memoryPair } from '../../kits/client/memoryTransport';
import type { Capability } from '../../kits/protocol/method';
import type { StartOptions } from '../../server/main';
import type { AgentService } from '../../server/agents/service';
import { ClientConn } from '../../server/transport/clientConn';
import { harness, type Harness } from '../server/harness';

export interface AgentHarness extends Harness {
  svc: AgentService;
  /** A connection acting as agent `name` (its token in hello). */
  as(name: string, caps?: Capability[]): Promise<Connection>;
  /** Every event published, in order, for assertions. */
  events: { event: string; data: Record<string, unknown> }[];
}

export async function agentHarness(o: Partial<StartOptions> = {}): Promise<AgentHarness> {
  const h = await harness({ initialSession: true, ...o });
  const server = h.running.server;
  const svc = h.running.services.agents!;
  const events: AgentHarness['events'] = [];
  server.listen((event, data) => events.push({ event, data: data as Record<string, unknown> }));
  const conns: Connection[] = [];
  return {
    ...h,
    svc,
    events,
    async as(name, caps = ['read', 'write', 'attach', 'admin']) {
      const [a, b] = memoryPair();
      new ClientConn(h.running.services, b, (hello) => ({ capabilities: hello.capabilities }));
      const c = new Connection(a, { checkResult: checkResults });
      await c.hello({ client: { name: `agent-${name}`, kind: 'agent' }, capabilities: caps, token: svc.store.token(name) });
      conns.push(c);
      return c;
    },
    async close() {
      for (const c of conns) c.close();
      await quietly(() => h.close(), h.dir);
    },
  };
}

/**
 * A server whose shell is /bin/cat, the person's connection, and agent `name` (every
 * capability in its .access) with its own: the set-up of tests that pit an agent's
 * requests against what the person sees. Call it inside a describe; read the fields
 * once the suite runs.
 */
export function personAndAgent(name: string): { h: AgentHarness; person: Connection; agent: Connection } {
  const out = {} as { h: AgentHarness; person: Connection; agent: Connection };
  beforeAll(async () => {
    out.h = await agentHarness({ shell: '/bin/cat' });
    out.person = await out.h.connect();
    await out.person.call('agent/add', { name, access: { capabilities: ['read', 'write', 'attach', 'admin'] } });
    out.agent = await out.h.as(name);
  }, 60_000);
  afterAll(async () => out.h?.close());
  return out;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stops a harness whose temp dir a dying shell may still be writing to (bash saves
 * its history on SIGHUP): removal racing that write is retried, then ignored.
 */
export async function quietly(stop: () => Promise<void>, dir: string): Promise<void> {
  try {
    await stop();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw e;
    await sleep(300);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}
