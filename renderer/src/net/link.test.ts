// A link measured slow is measured again (net/link.ts): the first fast round trip
// settles it; a link slow every time stays slow; a closed connection or a failed
// probe stops it without a verdict.
import { describe, expect, it } from 'vitest';
import { judgeLink, linkSaid, LINK_DEAD_MS, LINK_PROBE_MS, LINK_RECHECK_FIRST_MS, LINK_RECHECKS, LINK_SILENT_MS, LINK_SLOW_PROBES, LINK_TICK_MS, LinkWatch, recheckLink, SLOW_LINK_RTT_MS } from './link';

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

/** A LinkWatch on a manual clock: each tick() is LINK_TICK_MS later; probes answer when the test says. */
function watched(link: { rttMs: number; slow: boolean }, search = '') {
  let now = 0;
  let heard = 0;
  const pending: ((rtt: number) => void)[] = [];
  const said = { judged: [] as { rttMs: number; slow: boolean }[], silent: [] as (number | null)[], dead: [] as string[], probes: 0 };
  const w = new LinkWatch(
    link,
    {
      probe: () => {
        said.probes++;
        return new Promise<number>((r) => pending.push(r));
      },
      now: () => now,
      heardAt: () => heard,
      judged: (l) => said.judged.push(l),
      silent: (ms) => said.silent.push(ms),
      dead: (why) => said.dead.push(why),
    },
    search,
  );
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return {
    w,
    said,
    /** Advances the clock by `ms` in ticks, as setInterval would. */
    async run(ms: number) {
      for (let t = 0; t < ms; t += LINK_TICK_MS) {
        now += LINK_TICK_MS;
        w.tick();
        await flush();
      }
    },
    async answer(rtt: number) {
      pending.shift()!(rtt);
      await flush();
    },
    hear() {
      heard = now;
    },
    /** The page stood still for `ms` (a long task, a laptop asleep): the next tick comes that much later. */
    stall(ms: number) {
      now += ms;
    },
  };
}

describe('a link watched while the window is open', () => {
  it('asks every LINK_PROBE_MS and judges a fast link slow after LINK_SLOW_PROBES slow answers in a row, not one', async () => {
    const x = watched({ rttMs: 2, slow: false });
    await x.run(LINK_PROBE_MS);
    expect(x.said.probes).toBe(1);
    await x.answer(400); // one answer behind a flood's output
    await x.run(LINK_PROBE_MS);
    await x.answer(3);
    expect(x.said.judged).toEqual([]);
    for (let i = 0; i < LINK_SLOW_PROBES; i++) {
      await x.run(LINK_PROBE_MS);
      await x.answer(180 - i);
    }
    expect(x.said.probes).toBe(2 + LINK_SLOW_PROBES);
    expect(x.said.judged).toEqual([{ rttMs: 180 - (LINK_SLOW_PROBES - 1), slow: true }]);
    // And back: the first answer under the line (a queue never makes a slow link fast).
    await x.run(LINK_PROBE_MS);
    await x.answer(4);
    expect(x.said.judged.at(-1)).toEqual({ rttMs: 4, slow: false });
    expect(x.said.silent).toEqual([]);
  });

  it('says the server is silent once a question goes unanswered for LINK_SILENT_MS, and drops the socket at LINK_DEAD_MS', async () => {
    const x = watched({ rttMs: 2, slow: false });
    await x.run(LINK_PROBE_MS); // asked
    await x.run(LINK_SILENT_MS - LINK_TICK_MS);
    expect(x.said.silent).toEqual([]);
    await x.run(LINK_TICK_MS);
    expect(x.said.silent).toEqual([LINK_SILENT_MS]);
    // Output heard meanwhile is proof of life: not silent, though the question is still out.
    x.hear();
    await x.run(LINK_TICK_MS);
    expect(x.said.silent.at(-1)).toBeNull();
    // Counted from the last thing heard, then.
    await x.run(LINK_DEAD_MS - 2 * LINK_TICK_MS);
    expect(x.said.dead).toEqual([]);
    await x.run(LINK_TICK_MS);
    expect(x.said.dead).toEqual([`the server has not answered for ${LINK_DEAD_MS / 1000} s`]);
    // Stopped: no more questions, no second verdict.
    await x.run(LINK_PROBE_MS * 2);
    expect(x.said.probes).toBe(1);
    expect(x.said.dead).toHaveLength(1);
  });

  it('an answer ends the silence; a page that stood still does not count its own pause against the server', async () => {
    const x = watched({ rttMs: 2, slow: false });
    await x.run(LINK_PROBE_MS);
    await x.run(LINK_SILENT_MS);
    expect(x.said.silent.at(-1)).not.toBeNull();
    await x.answer(7);
    expect(x.said.silent.at(-1)).toBeNull();
    // Asked again, then the machine sleeps for a minute with the question out: on waking, the silence starts over.
    await x.run(LINK_PROBE_MS);
    x.stall(60_000);
    await x.run(LINK_TICK_MS);
    expect(x.said.dead).toEqual([]);
    await x.run(LINK_DEAD_MS - LINK_TICK_MS);
    expect(x.said.dead).toEqual([]);
    await x.run(LINK_TICK_MS);
    expect(x.said.dead).toHaveLength(1);
  });

  it('leaves the judgement to the address where it says which link it is, and still watches for silence', async () => {
    const x = watched({ rttMs: 2, slow: false }, '?link=fast');
    for (let i = 0; i < LINK_SLOW_PROBES + 1; i++) {
      await x.run(LINK_PROBE_MS);
      await x.answer(500);
    }
    expect(x.said.judged).toEqual([]);
    await x.run(LINK_PROBE_MS + LINK_DEAD_MS);
    expect(x.said.dead).toHaveLength(1);
  });
});
