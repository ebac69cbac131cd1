// "Needs you" from a terminal notification (issue 25, item 5): an agent CLI without
// hooks that prints OSC 9, OSC 99, OSC 777 notify or a bare BEL in a real PTY is
// marked waiting, observed (not reported), with what it asked; the redraw right after
// does not take it back (SCREEN_STATE_DEBOUNCE_MS); ConEmu's OSC 9;4 progress is no
// notification.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCREEN_STATE_DEBOUNCE_MS } from '../../server/agents/observer';
import { until } from '../server/harness';
import { agentHarness, type AgentHarness } from './helpers';

let h: AgentHarness;
beforeEach(async () => {
  h = await agentHarness();
});
afterEach(async () => {
  await h.close();
});

/** A program that works (output), then asks for the person with `seq`, redraws once, and waits. */
const asks = (seq: string) => ({ program: '/bin/sh', args: ['-c', `printf 'thinking...\\n'; sleep 0.3; printf '${seq}'; printf 'prompt> '; exec cat`] });

describe('needs you from terminal notifications', () => {
  for (const [via, seq, said] of [
    ['OSC 9', '\\033]9;Approve the edit to auth.ts?\\007', /OSC 9\): Approve the edit to auth.ts\?/],
    ['OSC 99', '\\033]99;i=1:d=0;Codex needs approval\\033\\\\', /OSC 99\): Codex needs approval/],
    ['OSC 777', '\\033]777;notify;Gemini;Waiting for your input\\007', /OSC 777\): Gemini: Waiting for your input/],
    ['BEL', '\\007', /rang the bell \(BEL\)/],
  ] as const) {
    it(`marks an agent that sends ${via} as waiting for the person, observed`, async () => {
      const c = await h.connect();
      await c.call('agent/add', { name: 'ada' });
      const { pane } = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'ada' }, launch: asks(seq) });
      const wait = await until(`ada waiting after ${via}`, () => h.events.find((e) => e.event === 'agent/state-changed' && e.data.name === 'ada' && e.data.state === 'waiting'));
      expect(String(wait.data.reason)).toMatch(/^observed: /);
      expect(String(wait.data.reason)).toMatch(said);
      const info = await c.call('agent/get', { name: 'ada' });
      expect(info.state).toBe('waiting');
      expect(info.source).toBe('observed');
      const p = await c.call('pane/get', { pane });
      expect(p.attrs['agent.state']).toBe('waiting');
    });
  }

  it('keeps "needs you" through the redraws right after the notification (SCREEN_STATE_DEBOUNCE_MS)', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'cy' });
    // Notifies, then redraws a clock line every 100 ms for a second: output, but not work.
    const redraw = `printf 'thinking...\\n'; sleep 0.3; printf '\\033]9;Approve?\\007'; for i in 1 2 3 4 5 6 7 8 9 10; do printf '\\r%s' "$i"; sleep 0.1; done; exec cat`;
    await c.call('pane/split', { kind: 'agent', attrs: { agent: 'cy' }, launch: { program: '/bin/sh', args: ['-c', redraw] } });
    const changes = () => h.events.filter((e) => e.event === 'agent/state-changed' && e.data.name === 'cy');
    await until('cy needs you', () => changes().some((e) => e.data.state === 'waiting'));
    const at = Date.now();
    await until('the redraws over', () => Date.now() - at > 1500);
    const after = changes().slice(changes().findIndex((e) => e.data.state === 'waiting') + 1);
    expect(SCREEN_STATE_DEBOUNCE_MS).toBeGreaterThan(1500);
    expect(after.map((e) => e.data.state)).toEqual([]);
    expect((await c.call('agent/get', { name: 'cy' })).state).toBe('waiting');
  });

  it('does not take ConEmu’s OSC 9;4 progress for a notification', async () => {
    const c = await h.connect();
    await c.call('agent/add', { name: 'bob' });
    const { pane } = await c.call('pane/split', { kind: 'agent', attrs: { agent: 'bob' }, launch: asks('\\033]9;4;1;50\\007') });
    // The observer reads the screen once output falls silent: by then the sequence was long parsed.
    await until('bob’s screen read after the silence', () => h.events.find((e) => e.event === 'agent/state-changed' && e.data.name === 'bob' && /screen|silent/.test(String(e.data.reason))));
    const p = await c.call('pane/get', { pane });
    expect(p.attrs['bell.via']).toBeUndefined();
    expect(h.events.some((e) => e.event === 'agent/state-changed' && e.data.name === 'bob' && String(e.data.reason).startsWith('observed:'))).toBe(false);
  });
});
