// pane/wait holds a request open (server/model/paneWait.ts): an agent waits only on
// panes its .access lets it read, every wait ends with its connection (nothing is
// left behind by a client that went away), and no more than MAX_PANE_WAITS are held
// at once, the next refused as busy by name. In-process server, real shells.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { MAX_PANE_WAITS } from '../../server/model/paneWait';
import { agentHarness, type AgentHarness } from '../agents/helpers';

let h: AgentHarness;
beforeEach(async () => {
  h = await agentHarness();
});
afterEach(async () => {
  await h.close();
});

const DAY = 86_400_000;

describe('pane/wait', () => {
  it('an agent waits only on panes its .access lets it read', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'ada' });
    fs.writeFileSync(path.join(h.svc.store.home('ada'), '.access'), JSON.stringify({ panes: { read: ['self'] } }));
    const mine = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'ada' }, launch: { program: '/bin/cat', args: [] } });
    const human = (await c.call('pane/list', {})).panes.find((p) => p.signature === 'com.pane.terminal')!;
    await new Promise((r) => setTimeout(r, 600));
    const ada = await h.as('ada');
    await expect(ada.call('pane/wait', { pane: human.n, until: 'exit', timeoutMs: DAY })).rejects.toThrow(new RegExp(`agent ada may not read pane ${human.n}`));
    expect((await ada.call('pane/wait', { pane: mine.pane, until: 'quiet', quietMs: 200 })).met).toBe(true);
    expect(h.running.services.waits.held).toBe(0);
  });

  it('ends every wait with its connection, and holds no more than MAX_PANE_WAITS', async () => {
    const c = await h.connect();
    const pane = (await c.call('pane/list', {})).panes[0]!.n;
    const gone = await h.connect();
    const held = Array.from({ length: MAX_PANE_WAITS }, () => gone.call('pane/wait', { pane, until: 'exit', timeoutMs: DAY }).catch((e: Error) => e.message));
    for (let i = 0; i < 100 && h.running.services.waits.held < MAX_PANE_WAITS; i++) await new Promise((r) => setTimeout(r, 20));
    expect(h.running.services.waits.held).toBe(MAX_PANE_WAITS);
    await expect(c.call('pane/wait', { pane, until: 'exit', timeoutMs: DAY })).rejects.toThrow(/256 waits are held already \(MAX_PANE_WAITS\)/);
    gone.close();
    for (let i = 0; i < 100 && h.running.services.waits.held > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(h.running.services.waits.held).toBe(0);
    expect(new Set(await Promise.all(held)).size).toBe(1);
    // The server serves on: a new wait is held and met.
    expect((await c.call('pane/wait', { pane, until: 'quiet', quietMs: 200 })).met).toBe(true);
  });
});
