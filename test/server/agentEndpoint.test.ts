// The `agent` endpoint: dialing an agent by name reaches its own socket (pane.sock in
// its home), which speaks as that agent whatever the hello asks, through the same
// dial() and CLI connection as every other endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectCli } from '../../kits/node/cli/connect';
import { agentSocketPath } from '../../kits/node/endpoint';
import { ensureEndpoint } from '../../server/transport/agentSocket';
import { agentHarness, type AgentHarness } from '../agents/helpers';
import { NO_SERVER_HINT } from '../../kits/node/cli/errors';

let h: AgentHarness;
beforeAll(async () => {
  h = await agentHarness({ shell: '/bin/cat' });
});
afterAll(() => h?.close());

describe('the agent endpoint', () => {
  it("reaches agent ada's own socket by her name, and speaks as ada", async () => {
    await (await h.connect()).call('agent/add', { name: 'ada' });
    const file = ensureEndpoint(h.running.services, h.svc, 'ada');
    expect(agentSocketPath('ada', h.svc.store.root)).toBe(file);
    const c = await connectCli({ kind: 'agent', agent: 'ada', root: h.svc.store.root }, { client: { name: 'agent endpoint test', kind: 'test' } });
    expect(c.welcome?.user).toBe('ada');
    const me = (await c.call('client/list', {})).clients.find((k) => k.id === c.welcome?.client);
    expect(me?.transport).toBe('unix');
    c.close();
  });

  it('names the agent when nothing listens for it', async () => {
    const e = await connectCli({ kind: 'agent', agent: 'nobody', root: h.svc.store.root }).catch((x: unknown) => x);
    expect((e as Error).name).toBe('NoServerError');
    expect((e as Error).message).toBe(`no pane server at agent nobody's socket; ${NO_SERVER_HINT}`);
  });
});
