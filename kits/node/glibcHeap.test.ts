// The real malloc_trim through koffi: a heap left in holes by freed buffers between
// live ones keeps its pages resident until the trim gives them back.
import fs from 'node:fs';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { loadGlibcHeap } from './glibcHeap';

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
