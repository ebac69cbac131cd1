import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { isolateCollector } from './isolateGc';

const external = () => v8.getHeapStatistics().external_memory;

describe('isolateCollector', () => {
  it('has freed the dead ArrayBuffers by the time it returns, so a trim after it finds their memory free', () => {
    const collect = isolateCollector();
    let rows: Uint32Array[] | null = Array.from({ length: 400 }, () => new Uint32Array(400 * 3).fill(7)); // 400 xterm-like rows, 1.9 MB
    collect();
    const live = external();
    expect(rows.length).toBe(400); // still held across that collection
    rows = null;
    collect();
    // One gc() leaves these to a background thread and external_memory unchanged until the next collection.
    expect(external()).toBeLessThan(live - 1_500_000);
  });
});
