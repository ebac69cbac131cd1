import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HeapTrimmer, QUIET_BYTES_PER_CHECK, TRIM_AFTER_BYTES, TRIM_CHECK_MS, TRIM_PASSES, TRIM_QUIET_MS, bytesReadSoFar } from './heapTrimmer';

/** A trimmer on a hand-moved clock and byte count, with a counting heap. */
function rig(heap: 'ok' | string = 'ok') {
  let now = 0;
  let read = 0;
  let trims = 0;
  let loads = 0;
  const order: string[] = [];
  const warned: string[] = [];
  const t = new HeapTrimmer({
    timer: false,
    now: () => now,
    readBytes: () => read,
    warn: (m) => warned.push(m),
    heap: () => {
      loads++;
      return heap === 'ok' ? { trim: () => (order.push('trim'), trims++, true) } : heap;
    },
    collector: () => () => void order.push('collect'),
  });
  /** `bytes` read over the next check's interval, then the check. */
  const tick = (bytes = 0) => {
    read += bytes;
    now += TRIM_CHECK_MS;
    t.check();
  };
  return { t, tick, warned, order, trims: () => trims, loads: () => loads };
}

const quietChecks = Math.ceil(TRIM_QUIET_MS / TRIM_CHECK_MS);

describe('HeapTrimmer', () => {
  it('trims once the daemon went quiet after a flood, again each time the quiet doubled, and then not until more work', () => {
    const r = rig();
    for (let i = 0; i < 5; i++) r.tick(2 << 20); // 10 MiB of output
    for (let i = 0; i < quietChecks - 1; i++) r.tick();
    expect(r.trims()).toBe(0); // quiet, but not yet for TRIM_QUIET_MS
    r.tick();
    expect(r.trims()).toBe(1);
    expect(r.order).toEqual(['collect', 'trim']); // what the isolate holds dead is freed first
    const at: number[] = [];
    for (let i = 1; i <= 20 * quietChecks; i++) {
      const before = r.trims();
      r.tick();
      if (r.trims() > before) at.push(quietChecks + i);
    }
    // The later passes, at twice, four and eight times the first's quiet (in checks), and no more.
    expect(r.trims()).toBe(TRIM_PASSES);
    expect(at).toEqual([2, 4, 8].map((k) => Math.ceil((k * TRIM_QUIET_MS) / TRIM_CHECK_MS)));
    expect(r.loads()).toBe(1);
    // A new flood starts the passes over.
    r.tick(TRIM_AFTER_BYTES);
    for (let i = 0; i < quietChecks; i++) r.tick();
    expect(r.trims()).toBe(TRIM_PASSES + 1);
  });

  it('does not start the passes over for a burst too small to be worth a trim', () => {
    const r = rig();
    r.tick(TRIM_AFTER_BYTES);
    for (let i = 0; i < quietChecks; i++) r.tick();
    expect(r.trims()).toBe(1);
    r.tick(QUIET_BYTES_PER_CHECK + 1); // a burst: busy again, but little freed
    for (let i = 0; i < 20 * quietChecks; i++) r.tick();
    expect(r.trims()).toBe(1);
  });

  it('does not trim while output keeps coming, however long', () => {
    const r = rig();
    for (let i = 0; i < 10 * quietChecks; i++) r.tick(QUIET_BYTES_PER_CHECK + 1);
    expect(r.trims()).toBe(0);
  });

  it('counts a trickle (a clock, a prompt) as quiet, and trims once it adds up to a flood', () => {
    const r = rig();
    const trickle = QUIET_BYTES_PER_CHECK - 1;
    const checks = Math.ceil(TRIM_AFTER_BYTES / trickle);
    for (let i = 0; i < checks - 1; i++) r.tick(trickle);
    expect(r.trims()).toBe(0); // quiet all along, but too little freed to be worth a walk of the heap
    r.tick(trickle);
    expect(r.trims()).toBe(1);
  });

  it('does not trim for less work than TRIM_AFTER_BYTES', () => {
    const r = rig();
    r.tick(TRIM_AFTER_BYTES - 1);
    for (let i = 0; i < 3 * quietChecks; i++) r.tick();
    expect(r.trims()).toBe(0);
    expect(r.loads()).toBe(0); // koffi is not even loaded
  });

  it('says once why it cannot trim here, and stops looking', () => {
    const r = rig('koffi did not load (Cannot find module)');
    r.tick(TRIM_AFTER_BYTES);
    for (let i = 0; i < 3 * quietChecks; i++) r.tick();
    for (let i = 0; i < 3; i++) r.tick(TRIM_AFTER_BYTES);
    for (let i = 0; i < 3 * quietChecks; i++) r.tick();
    expect(r.warned).toEqual(['memory freed after a flood stays with the daemon until it is reused: koffi did not load (Cannot find module)']);
    expect(r.loads()).toBe(1);
  });

  it('collects this isolate for real before trimming: a dead 32 MiB buffer is freed by it', async () => {
    let freed = false;
    const registry = new FinalizationRegistry(() => (freed = true));
    (() => registry.register(new Uint8Array(32 << 20), 'big'))();
    let [read, now] = [0, 0];
    const t = new HeapTrimmer({ timer: false, readBytes: () => read, now: () => now, heap: () => ({ trim: () => true }) });
    read = TRIM_AFTER_BYTES;
    t.check();
    now += TRIM_QUIET_MS;
    t.check();
    expect(t.trims).toBe(1);
    await new Promise((r) => setTimeout(r, 10)); // finalizers run after the collection, in a task of their own
    expect(freed).toBe(true);
  });

  it('counts the resident bytes each trim gave back, a trim that gave none back as nothing', () => {
    let [read, now, rss] = [0, 0, 200 << 20];
    // Each trim (with its collection) takes 30 MiB, then 0; RSS read before and after.
    const falls = [30 << 20, 0];
    const t = new HeapTrimmer({
      timer: false,
      readBytes: () => read,
      now: () => now,
      residentBytes: () => rss,
      heap: () => ({ trim: () => ((rss -= falls.shift() ?? 0), true) }),
      collector: () => () => void (rss += 1 << 20), // a collection that grew RSS a little (a page touched) still nets the fall
    });
    read = TRIM_AFTER_BYTES;
    t.check();
    now += TRIM_QUIET_MS;
    t.check();
    expect(t).toMatchObject({ trims: 1, freedBytes: 29 << 20 });
    now += TRIM_QUIET_MS * 2;
    t.check();
    expect(t).toMatchObject({ trims: 2, freedBytes: 29 << 20 }); // grew 1 MiB, fell 0: counted as none, never negative
  });

  it('waits for the other isolates to collect before it collects and trims, and trims once however many checks pass meanwhile', async () => {
    let [read, now] = [0, 0];
    const order: string[] = [];
    let release: (() => void) | null = null;
    let othersFail = false;
    const t = new HeapTrimmer({
      timer: false,
      readBytes: () => read,
      now: () => now,
      heap: () => ({ trim: () => (order.push('trim'), true) }),
      collector: () => () => void order.push('collect'),
      others: () => {
        order.push('others');
        return othersFail ? Promise.reject(new Error('screen worker failed')) : new Promise<void>((r) => (release = r));
      },
    });
    read = TRIM_AFTER_BYTES;
    t.check();
    now += TRIM_QUIET_MS;
    t.check();
    for (let i = 0; i < 5; i++) (now += TRIM_CHECK_MS), t.check(); // the worker still collecting
    expect(order).toEqual(['others']);
    expect(t.trims).toBe(0);
    release!();
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(['others', 'collect', 'trim']);
    expect(t.trims).toBe(1);
    // A worker that failed meanwhile does not stop the trim: it has nothing left to collect.
    othersFail = true;
    now += TRIM_QUIET_MS * 2;
    t.check();
    await new Promise((r) => setTimeout(r, 0));
    expect(order.slice(3)).toEqual(['others', 'collect', 'trim']);
    expect(t.trims).toBe(2);
  });

  it('reads the bytes this process read from /proc/self/io', () => {
    const a = bytesReadSoFar();
    expect(a).toBeGreaterThan(0);
    fs.readFileSync('/proc/self/status');
    expect(bytesReadSoFar()!).toBeGreaterThan(a!);
  });
});

describe('HeapTrimmer on its own timer', () => {
  it('checks only while a pass may be due: it stops after the last pass of a quiet spell, and work poked in starts it again', async () => {
    const { vi } = await import('vitest');
    vi.useFakeTimers();
    try {
      let read = 0;
      let trims = 0;
      const t = new HeapTrimmer({ now: () => performance.now(), readBytes: () => read, heap: () => ({ trim: () => (trims++, true) }), collector: () => () => undefined });
      read += 2 * TRIM_AFTER_BYTES; // a flood
      // Every pass of the quiet spell (the last at 8 × TRIM_QUIET_MS), then no timer left at all.
      await vi.advanceTimersByTimeAsync(10 * TRIM_QUIET_MS);
      expect(trims).toBe(TRIM_PASSES);
      expect(vi.getTimerCount()).toBe(0);
      // Idle: nothing wakes it.
      await vi.advanceTimersByTimeAsync(20 * TRIM_QUIET_MS);
      expect(trims).toBe(TRIM_PASSES);
      // A new flood, told by a poke: checks resume, and its quiet gets its trim.
      read += 2 * TRIM_AFTER_BYTES;
      t.poke();
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(2 * TRIM_QUIET_MS);
      expect(trims).toBe(TRIM_PASSES + 1);
      t.stop();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
