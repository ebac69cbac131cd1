// Fuzzy matching for the pickers: tiers first (exact, prefix, word, substring,
// scattered), then runs and word starts within a tier.
import { describe, expect, it } from 'vitest';
import { fuzzy, rank } from './fuzzy';

describe('fuzzy', () => {
  it('matches characters in order, case-insensitively, and says where', () => {
    expect(fuzzy('spl', 'Split side by side')?.indices).toEqual([0, 1, 2]);
    expect(fuzzy('ssd', 'Split side by side')).not.toBeNull();
    expect(fuzzy('xyz', 'Split')).toBeNull();
  });

  it.each([
    ['top', 'top', 'exact'],
    ['to', 'top', 'prefix'],
    ['mon', 'System monitor', 'word'],
    ['onit', 'System monitor', 'substring'],
    ['smr', 'System monitor', 'scattered'],
  ] as const)('"%s" in "%s" is a %s match', (q, text, tier) => {
    expect(fuzzy(q, text)?.tier).toBe(tier);
  });

  it('lets text that is not a key (a description) reach at most the substring tier', () => {
    expect(fuzzy('top', 'top: processes', false)?.tier).toBe('substring');
    expect(fuzzy('top', 'top: processes', true)?.tier).toBe('prefix');
  });

  it('ranks a whole tier above any score inside a lower one', () => {
    const r = rank('top', ['a desktop for panes', 'top'], (s) => [s]).map((x) => x.item);
    expect(r).toEqual(['top', 'a desktop for panes']);
  });

  it('ranks runs and word starts above scattered matches', () => {
    const r = rank('term', ['System monitor', 'Terminal', 'pane.terminal.copy'], (s) => [s]).map((x) => x.item);
    expect(r[0]).toBe('Terminal');
    expect(r).not.toContain('System monitor');
  });

  it('leaves scattered letters out once anything holds the query as typed, and falls back to them otherwise', () => {
    const items = ['Split side by side', 'Snap the focused pane to the left half (floating it)', 'Swap with the pane to the right'];
    expect(rank('split', items, (s) => [s]).map((x) => x.item)).toEqual(['Split side by side']);
    expect(rank('sfp', items, (s) => [s]).map((x) => x.item)).toEqual(['Snap the focused pane to the left half (floating it)']);
  });

  it('keeps the given order for an empty query', () => {
    expect(rank('', ['b', 'a'], (s) => [s]).map((x) => x.item)).toEqual(['b', 'a']);
  });
});
