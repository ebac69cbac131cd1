// `pane wait --since-input` (and MCP wait_pane's sinceInput) looks after the caller's
// own last key. An agent that sent its command and waits for its answer is not moved
// past that answer by the person typing into the pane meanwhile, and the person's wait
// is not moved by the agent's keys. pty/read's `inputAt` is the caller's, by principal.
import { describe, expect, it } from 'vitest';
import { personAndAgent } from '../agents/helpers';
import { waitForOutput } from '../server/harness';

describe('whose last key --since-input looks after', () => {
  const world = personAndAgent('ann');
  const cat = { program: '/bin/cat', args: [] as string[] };

  const inputAt = async (c: typeof world.person, pane: number) => (await c.call('pty/read', { pane, from: Number.MAX_SAFE_INTEGER, maxBytes: 1 })).inputAt;
  const textFrom = async (c: typeof world.person, pane: number, from: number) => (await c.call('pty/read', { pane, from, maxBytes: 4096 })).data;
  /** Waits (bounded) until `line` is in the pane twice: the terminal's echo of the keys and cat's copy, which comes when cat is next scheduled (late on a loaded machine). */
  const echoedAndCopied = (pane: number, line: string) => waitForOutput(world.person, pane, new RegExp(`${line}\\r\\n[\\s\\S]*${line}\\r\\n`));

  it("gives each principal the stream's end at their own last key, not at anyone's", async () => {
    const pane = (await world.agent.call('pane/split', { launch: cat })).pane;
    expect(await inputAt(world.agent, pane)).toBeUndefined();
    await world.agent.call('pane/input', { pane, data: 'agent-line\n' });
    await echoedAndCopied(pane, 'agent-line');
    const agentAt = await inputAt(world.agent, pane);
    expect(agentAt).toBeDefined();
    // The person types after it; the agent's place does not move, and the person has one of their own.
    expect(await inputAt(world.person, pane)).toBeUndefined();
    await world.person.call('pane/input', { pane, data: 'person-line\n' });
    await echoedAndCopied(pane, 'person-line');
    const personAt = await inputAt(world.person, pane);
    expect(await inputAt(world.agent, pane)).toBe(agentAt);
    expect(personAt!).toBeGreaterThan(agentAt!);
    expect(await textFrom(world.agent, pane, agentAt!)).toMatch(/^(?:agent-line\r\n)+person-line/);
    expect(await textFrom(world.person, pane, personAt!)).toMatch(/^(?:person-line\r\n)+$/);
    // Keys by binary frame (a window's) count as the person's too.
    world.person.sendInput(pane, new TextEncoder().encode('window-line\n'));
    await echoedAndCopied(pane, 'window-line');
    expect(await inputAt(world.person, pane)).toBeGreaterThan(personAt!);
    expect(await inputAt(world.agent, pane)).toBe(agentAt);
  });
});
