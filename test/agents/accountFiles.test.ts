// How fresh a listing's account files are (.plan, .project, .app, unread mail), and that a
// listing past their TTL does not read every agent's home in one piece: a board of 100
// agents lists them all on every change.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_FILES_STALE_MS, ACCOUNT_FILES_TTL_MS, ACCOUNT_REFRESH_BATCH } from '../../server/agents/service';
import { agentHarness, type AgentHarness } from './helpers';

let h: AgentHarness;
beforeEach(async () => {
  h = await agentHarness();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (bounded) until `f` holds. */
async function until(what: string, f: () => boolean, ms = 5000): Promise<void> {
  for (const end = Date.now() + ms; !f(); ) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const planOf = async (c: Awaited<ReturnType<AgentHarness['connect']>>, name: string) => (await c.call('agent/list', {})).agents.find((a) => a.name === name)?.plan;

describe('an agent’s account files in listings', () => {
  it('past the TTL: answered as last read, read again in the background and published; after a quiet spell: read at once', async () => {
    const c = await h.connect();
    const home = (await c.call('agent/add', { name: 'ada', plan: 'one\n' })).home!;
    expect(await planOf(c, 'ada')).toBe('one\n');
    // The agent edits its own plan; nothing of pane's is told.
    fs.writeFileSync(path.join(home, '.plan'), 'two\n');
    await sleep(ACCOUNT_FILES_TTL_MS + 100);
    const before = h.events.length;
    expect(await planOf(c, 'ada')).toBe('one\n');
    await until('agent/changed with the new plan', () => h.events.slice(before).some((e) => e.event === 'agent/changed' && (e.data.agent as { name: string; plan: string }).plan === 'two\n'));
    expect(await planOf(c, 'ada')).toBe('two\n');
    fs.writeFileSync(path.join(home, '.plan'), 'three\n');
    await sleep(ACCOUNT_FILES_STALE_MS + 100);
    expect(await planOf(c, 'ada')).toBe('three\n');
  });

  it('a listing past the TTL reads no home itself; the reads follow, a batch a turn', async () => {
    const c = await h.connect();
    const names = Array.from({ length: ACCOUNT_REFRESH_BATCH * 2 + 3 }, (_, i) => `a${i}`);
    for (const name of names) await c.call('agent/add', { name });
    // Every agent's files read at one time, by one listing: past the stale bound, it reads them all itself. (After the
    // adds alone, each agent's were read when it was added, and under load the adds can spread over more than the TTL:
    // a listing then has some read in the background, later than the rest, and those are not yet stale below.)
    await sleep(ACCOUNT_FILES_STALE_MS + 100);
    await c.call('agent/list', {});
    await sleep(ACCOUNT_FILES_TTL_MS + 100);
    const reads = vi.spyOn(h.svc.store, 'read');
    // In-process, the whole listing runs in this turn: what it read, it read itself.
    const listed = h.svc.list();
    expect(listed).toHaveLength(names.length);
    expect(reads).not.toHaveBeenCalled();
    await until('every stale agent read again', () => reads.mock.calls.filter(([, f]) => f === '.plan').length === names.length);
    expect(new Set(reads.mock.calls.filter(([, f]) => f === '.plan').map(([n]) => n))).toEqual(new Set(names));
  });
});
