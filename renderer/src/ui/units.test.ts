import { describe, expect, it } from 'vitest';
import { withUnit } from './units';

describe('withUnit', () => {
  it('shows bytes in binary prefixes, as a person reads memory', () => {
    expect(withUnit(101146624, 'bytes')).toBe('96.5 MiB');
    expect(withUnit(512, 'bytes')).toBe('512 bytes');
    expect(withUnit(2048, 'bytes')).toBe('2.0 KiB');
    expect(withUnit(3 * 1024 ** 3, 'bytes')).toBe('3.0 GiB');
    expect(withUnit(5 * 1024 ** 5, 'bytes')).toBe('5120.0 TiB');
  });

  it('puts any other unit after the number, a fraction to two places', () => {
    expect(withUnit(42, 'ms')).toBe('42 ms');
    expect(withUnit(0.123456, 'ms')).toBe('0.12 ms');
    expect(withUnit(7, undefined)).toBe('7');
  });
});
