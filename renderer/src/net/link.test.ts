// A link measured slow is measured again (net/link.ts): the first fast round trip
// settles it; a link slow every time stays slow; a closed connection or a failed
// probe stops it without a verdict.
import { describe, expect, it } from 'vitest';
import { judgeLink, linkSaid, LINK_RECHECK_FIRST_MS, LINK_RECHECKS, recheckLink, SLOW_LINK_RTT_MS } from './link';

function probes(rtts: number[]) {
  const waits: number[] = [];
  let asked = 0;
  return {
    waits,
    asked: () => asked,
    probe: async () => rtts[asked++] ?? Number.NaN,
    wait: async (ms: number) => void waits.push(ms),
  };
}

describe('a link measured again after it was judged slow', () => {
  it('stops at the first round trip under the line and says the least seen', async () => {
    const p = probes([180, 35, 20]);
    expect(await recheckLink(p.probe, p.wait, () => true)).toBe(35);
    expect(p.asked()).toBe(2);
    expect(p.waits).toEqual([LINK_RECHECK_FIRST_MS, LINK_RECHECK_FIRST_MS * 2]);
    expect(judgeLink(35, '').slow).toBe(false);
  });

  it('asks LINK_RECHECKS times, doubling its waits, and a link slow every time stays slow', async () => {
    const p = probes(Array(LINK_RECHECKS).fill(0).map((_, i) => 120 - i));
    const best = await recheckLink(p.probe, p.wait, () => true);
    expect(best).toBe(120 - (LINK_RECHECKS - 1));
    expect(best!).toBeGreaterThan(SLOW_LINK_RTT_MS);
    expect(p.asked()).toBe(LINK_RECHECKS);
    expect(p.waits).toEqual(Array(LINK_RECHECKS).fill(0).map((_, i) => LINK_RECHECK_FIRST_MS * 2 ** i));
    expect(judgeLink(best!, '').slow).toBe(true);
  });

  it('gives no verdict once its connection is gone or a probe fails', async () => {
    let open = true;
    const p = probes([90, 90, 10]);
    const gone = recheckLink(p.probe, async (ms) => {
      await p.wait(ms);
      if (p.waits.length === 2) open = false;
    }, () => open);
    expect(await gone).toBeNull();
    expect(p.asked()).toBe(1);
    const failing = recheckLink(async () => Promise.reject(new Error('socket closed')), async () => undefined, () => true);
    expect(await failing).toBeNull();
  });

  it('is not measured again where the address says which link it is', () => {
    expect(linkSaid('?link=slow')).toBe('slow');
    expect(linkSaid('?link=fast&x=1')).toBe('fast');
    expect(linkSaid('?link=sideways')).toBeNull();
    expect(linkSaid('')).toBeNull();
  });
});
