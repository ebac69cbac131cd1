import { describe, expect, it } from 'vitest';
import { shownValue } from '../../../kits/protocol/widgetValues';
import { valueWithUnit, withUnit } from './units';

describe('withUnit', () => {
  it('shows bytes in binary prefixes, as a person reads memory', () => {
    expect(withUnit(101146624, 'bytes')).toBe('96.5 MiB');
    expect(withUnit(512, 'bytes')).toBe('512 bytes');
    expect(withUnit(2048, 'bytes')).toBe('2.0 KiB');
    expect(withUnit(3 * 1024 ** 3, 'bytes')).toBe('3.0 GiB');
    expect(withUnit(5 * 1024 ** 5, 'bytes')).toBe('5120.0 TiB');
    expect(withUnit(3 * 1024 ** 2, 'bytes/s')).toBe('3.0 MiB/s');
  });

  it('shows milliseconds and seconds as lengths of time', () => {
    expect(withUnit(42, 'ms')).toBe('42 ms');
    expect(withUnit(0.123456, 'ms')).toBe('0.12 ms');
    expect(withUnit(1500, 'ms')).toBe('1.5 s');
    expect(withUnit(474894, 'ms')).toBe('7m54s');
    expect(withUnit(0.19, 's')).toBe('0.19 s');
    expect(withUnit(3 * 3600 + 5 * 60 + 9, 's')).toBe('3h05m');
    expect(withUnit(2 * 86400 + 4 * 3600, 's')).toBe('2d04h');
  });

  it('puts any other unit after the number, a fraction to two places', () => {
    expect(withUnit(12.345, '%')).toBe('12.35 %');
    expect(withUnit(7, undefined)).toBe('7');
  });
});

describe('valueWithUnit', () => {
  it('reads a number written as text (a kv file) and leaves anything else as it is', () => {
    expect(valueWithUnit('474894', 'ms', shownValue)).toBe('7m54s');
    expect(valueWithUnit(87441408, 'bytes', shownValue)).toBe('83.4 MiB');
    expect(valueWithUnit('n/a', 'bytes', shownValue)).toBe('n/a');
    expect(valueWithUnit('', 'bytes', shownValue)).toBe('');
    expect(valueWithUnit(undefined, 'bytes', shownValue)).toBe('');
    expect(valueWithUnit(5, undefined, shownValue)).toBe('5');
  });
});
