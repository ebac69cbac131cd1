// How `pane attach` reads the person's keys: mouse reports and Shift+PgUp/PgDn cut out
// of a read in order, a pager's keys while scrolled back, the wheel's direction.
import { describe, expect, it } from 'vitest';
import { firstKey, piecesOf, scrollMoveOf, wheelOf } from './attachKeys';

describe('attach keys', () => {
  it('cuts a read into keys, mouse reports and Shift+PgUp/PgDn, in order', () => {
    expect(piecesOf('ls\r')).toEqual([{ kind: 'keys', text: 'ls\r' }]);
    expect(piecesOf('a\x1b[<64;5;3Mb\x1b[5;2~\x1b[6;2~c')).toEqual([
      { kind: 'keys', text: 'a' },
      { kind: 'mouse', cb: 64, cx: 5, cy: 3, final: 'M' },
      { kind: 'keys', text: 'b' },
      { kind: 'page', by: -1 },
      { kind: 'page', by: 1 },
      { kind: 'keys', text: 'c' },
    ]);
    // PgUp without Shift, and other modifiers' PgUp, are keys.
    expect(piecesOf('\x1b[5~\x1b[5;5~')).toEqual([{ kind: 'keys', text: '\x1b[5~\x1b[5;5~' }]);
    expect(piecesOf('')).toEqual([]);
  });

  it('reads a pager’s keys while scrolled back, and leaves every other key to the program', () => {
    expect(scrollMoveOf('\x1b[A')).toEqual({ rows: -1 });
    expect(scrollMoveOf('\x1bOB')).toEqual({ rows: 1 });
    expect(scrollMoveOf('\x1b[5~')).toEqual({ pages: -1 });
    expect(scrollMoveOf(' ')).toEqual({ pages: 1 });
    expect(scrollMoveOf('g')).toBe('top');
    for (const k of ['G', '\x1b[F']) expect(scrollMoveOf(k)).toBe('bottom');
    expect([scrollMoveOf('?'), scrollMoveOf('/'), scrollMoveOf('n'), scrollMoveOf('N')]).toEqual([{ search: -1 }, { search: 1 }, { again: 1 }, { again: -1 }]);
    for (const k of ['q', '\x1b']) expect(scrollMoveOf(k)).toBe('live');
    // Typing (a word, Enter, Ctrl-C, a key held so two arrive in one read) is the program's.
    for (const k of ['ls', '\r', '\x03', 'x', '\x1b[A\x1b[A']) expect(scrollMoveOf(k)).toBeUndefined();
  });

  it('takes a read’s first key: a sequence whole, a lone Esc, one character', () => {
    expect(firstKey('/beta\r')).toBe('/');
    expect(firstKey('\x1b[5~x')).toBe('\x1b[5~');
    expect(firstKey('\x1bOAq')).toBe('\x1bOA');
    expect(firstKey('\x1b[1;5Dz')).toBe('\x1b[1;5D');
    expect(firstKey('\x1b')).toBe('\x1b');
    expect(firstKey('\x1bx')).toBe('\x1b');
    expect(firstKey('😀!')).toBe('😀');
    expect(firstKey('')).toBe('');
  });

  it('tells the wheel’s direction from its SGR button, and nothing else as a wheel', () => {
    expect(wheelOf(64)).toBe(-1);
    expect(wheelOf(65)).toBe(1);
    // With Shift or Ctrl held, still the wheel.
    expect(wheelOf(64 | 4)).toBe(-1);
    expect(wheelOf(65 | 16)).toBe(1);
    // Sideways, a click, a drag: not a scroll.
    for (const cb of [66, 67, 0, 1, 32, 96]) expect(wheelOf(cb)).toBeUndefined();
  });
});
