// The real malloc_trim through koffi: a heap left in holes by freed buffers between
// live ones keeps its pages resident until the trim gives them back.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { applyMallocSettings, loadGlibcHeap } from './glibcHeap';
import { DAEMON_ENV } from './daemonEnv';

const residentBytes = () => Number(fs.readFileSync('/proc/self/statm', 'utf8').split(' ')[1]) * 4096;

describe('loadGlibcHeap', () => {
  it('reaches glibc here, and its trim returns the pages of freed buffers between live ones', () => {
    const heap = loadGlibcHeap();
    if (typeof heap === 'string') throw new Error(`glibc's malloc_trim is not reachable on this Linux machine: ${heap}`);
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // 40,000 buffers of 1.5 KB (each its own malloc: under the 128 KiB mmap threshold), one in ten kept:
    // ~54 MB freed in gaps of three pages between survivors, which glibc keeps resident by itself.
    const all: (Uint8Array | null)[] = [];
    for (let i = 0; i < 40_000; i++) all.push(new Uint8Array(1500).fill(1));
    for (let i = 0; i < all.length; i++) if (i % 10 !== 0) all[i] = null;
    gc();
    gc();
    const before = residentBytes();
    expect(typeof heap.trim()).toBe('boolean');
    const after = residentBytes();
    expect(before - after).toBeGreaterThan(20 << 20);
    expect(all.filter((b) => b !== null && b[0] === 1)).toHaveLength(4_000); // the survivors are intact
  });
});

/** Whether address `at` lies in this process's brk heap (`[heap]` in /proc/self/maps), not in a mapping of its own. */
function inBrkHeap(at: bigint): boolean {
  const line = fs.readFileSync('/proc/self/maps', 'utf8').split('\n').find((l) => l.endsWith('[heap]'));
  if (!line) return false;
  const [lo, hi] = line.split(' ')[0]!.split('-').map((x) => BigInt(`0x${x}`)) as [bigint, bigint];
  return at >= lo && at < hi;
}

describe('applyMallocSettings', () => {
  it("sets the daemon's malloc settings in a running process: a freed 1 MiB block no longer sends the next ones into the heap", () => {
    for (const k of Object.keys(DAEMON_ENV)) if (process.env[k] !== undefined) throw new Error(`this test needs a process started without ${k} (it is ${process.env[k]})`);
    const koffi = createRequire(import.meta.url)('koffi') as { load(l: string): { func(s: string): (...a: unknown[]) => unknown }; address(p: unknown): bigint };
    const libc = koffi.load('libc.so.6');
    const malloc = libc.func('void* malloc(size_t size)');
    const free = libc.func('void free(void* ptr)');
    const MiB = 1 << 20;
    // glibc's own default: freeing a mapped 1 MiB block raises its mmap threshold past it, so the next 1 MiB comes from the heap (and stays there after a flood).
    free(malloc(MiB));
    const before = malloc(MiB);
    expect(inBrkHeap(koffi.address(before))).toBe(true);
    free(before);

    expect(applyMallocSettings(DAEMON_ENV)).toEqual(Object.keys(DAEMON_ENV));
    // The heap's free top still holds that block: the next one may come from it, and once it is freed the top
    // (over the trim threshold, now 128 KiB) goes back to the system.
    free(malloc(MiB));
    // Fixed at 128 KiB from here: every block that size or over is mapped, and given back when freed.
    for (const size of [MiB, 2 * MiB, 256 << 10]) {
      const p = malloc(size);
      expect(inBrkHeap(koffi.address(p))).toBe(false);
      free(p);
      const again = malloc(size);
      expect(inBrkHeap(koffi.address(again))).toBe(false);
      free(again);
    }
  });

  it('says why nothing was set where glibc cannot be reached, and refuses a value that is no number', () => {
    expect(applyMallocSettings(DAEMON_ENV, 'koffi did not load (Cannot find module)')).toBe('koffi did not load (Cannot find module)');
    const calls: [number, number][] = [];
    const heap = { trim: () => false, set: (p: number, v: number) => (calls.push([p, v]), p !== -8) };
    expect(applyMallocSettings({ MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072' }, heap)).toEqual(['MALLOC_TRIM_THRESHOLD_']);
    expect(calls).toEqual([[-8, 2], [-1, 131072]]);
    expect(() => applyMallocSettings({ MALLOC_ARENA_MAX: '-1' }, heap)).toThrow(/MALLOC_ARENA_MAX=-1 is no count/);
    expect(() => applyMallocSettings({ MALLOC_PERTURB_: '1' }, heap)).toThrow(/no mallopt parameter for MALLOC_PERTURB_/);
  });
});
