import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors';
import { localTime } from '../../localTime';
import { parseWhen } from './durable';

describe('restore --at', () => {
  const now = new Date(2026, 11, 6, 9, 45, 0).getTime();

  it('takes a generation number', () => {
    expect(parseWhen('12', now)).toEqual({ gen: 12 });
  });

  it('takes a time as the list shows it, meaning the end of that second or minute', () => {
    const saved = new Date(2026, 11, 6, 9, 43, 11, 500).getTime();
    expect(localTime(saved)).toBe('2026-12-06 09:43:11');
    // The generation listed at 09:43:11 is saved at or before the time given back.
    expect(parseWhen(localTime(saved), now)).toEqual({ at: new Date(2026, 11, 6, 9, 43, 11, 999).getTime() });
    expect(parseWhen('2026-12-06 09:43', now)).toEqual({ at: new Date(2026, 11, 6, 9, 43, 59, 999).getTime() });
    expect(parseWhen('2026-12-06T09:43', now)).toEqual({ at: new Date(2026, 11, 6, 9, 43, 59, 999).getTime() });
  });

  it('takes a clock time alone: today, or yesterday when today’s is still to come', () => {
    expect(parseWhen('09:30', now)).toEqual({ at: new Date(2026, 11, 6, 9, 30, 59, 999).getTime() });
    expect(parseWhen('9:45', now)).toEqual({ at: new Date(2026, 11, 6, 9, 45, 59, 999).getTime() });
    expect(parseWhen('09:45:01', now)).toEqual({ at: new Date(2026, 11, 5, 9, 45, 1, 999).getTime() });
    expect(parseWhen('23:00', now)).toEqual({ at: new Date(2026, 11, 5, 23, 0, 59, 999).getTime() });
  });

  it('takes an ISO time with its zone as given, and refuses what is no time, saying what it takes', () => {
    expect(parseWhen('2026-11-23T18:04:00Z', now)).toEqual({ at: Date.UTC(2026, 10, 23, 18, 4, 0) });
    expect(() => parseWhen('25:00', now)).toThrow(UsageError);
    expect(() => parseWhen('25:00', now)).toThrow('--at 25:00: not a time of day');
    expect(() => parseWhen('yesterday', now)).toThrow(/as restore --list shows it, 18:04 today/);
  });
});
