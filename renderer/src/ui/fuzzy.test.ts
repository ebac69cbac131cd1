// Fuzzy matching for the pickers.
import { describe, expect, it } from 'vitest';
import { fuzzy, rank } from './fuzzy';

describe('fuzzy', () => {
  it('matches characters in order, case-insensitively, and says where', () => {
    expect(fuzzy('spl', 'Split side by side')?.indices).toEqual([0, 1, 2]);
    expect(fuzzy('ssd', 'Split side by side')).not.toBeNull();
    expect(fuzzy('xyz', 'Split')).toBeNull();
  });

  it('ranks runs and word starts above scattered matches', () => {
    const r = rank('term', ['System monitor', 'Terminal', 'pane.terminal.copy'], (s) => [s]).map((x) => x.item);
    expect(r[0]).toBe('Terminal');
    expect(r).not.toContain('System monitor');
  });

  it('keeps the given order for an empty query', () => {
    expect(rank('', ['b', 'a'], (s) => [s]).map((x) => x.item)).toEqual(['b', 'a']);
  });
});
