import { describe, expect, it } from 'vitest';
import { clip, clipMiddle, clipTail, hasControls, shown, shownKeepingTabs, tildePath } from './shown';

describe('shown', () => {
  it('escapes every control and invisible format character, and nothing else', () => {
    expect(shown('a\x1b]52;c;aGk=\x07b')).toBe('a\\e]52;c;aGk=\\x07b');
    expect(shown('x\ny\rz\t\x9b\u202e')).toBe('x\\ny\\rz\\t\\x9b\\u202e');
    expect(shown('héllo 🙂 wörld')).toBe('héllo 🙂 wörld');
    expect(shownKeepingTabs('a\tb\nc')).toBe('a\tb\\nc');
    expect(hasControls('plain')).toBe(false);
    expect(hasControls('a\x1bb')).toBe(true);
  });
});

describe('the ellipses', () => {
  it('leave text that fits as it is', () => {
    for (const f of [clip, clipTail, clipMiddle]) {
      expect(f('abcdef', 6)).toBe('abcdef');
      expect(f('', 3)).toBe('');
    }
  });

  it('keep the start, the end or both, in exactly n characters', () => {
    expect(clip('abcdefgh', 5)).toBe('abcd…');
    expect(clipTail('/home/me/src/pane', 8)).toBe('…rc/pane');
    expect(clipMiddle('refactor-the-recovery', 9)).toBe('refa…very');
    expect(clipMiddle('abcdefghij', 8)).toBe('abcd…hij');
  });

  it('count characters, never cutting an emoji into a lone surrogate', () => {
    // Each 🙂 is two UTF-16 units: a cut by units would leave half of one.
    const s = '🙂🙂🙂🙂🙂🙂';
    for (const out of [clip(s, 4), clipTail(s, 4), clipMiddle(s, 4)]) {
      expect([...out]).toHaveLength(4);
      expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
    expect(clip(s, 6)).toBe(s); // 12 units but 6 characters: it fits
    expect(clip('ab🙂cd', 4)).toBe('ab🙂…');
  });
});

describe('tildePath', () => {
  it('writes a path under home with ~, and leaves others and a home of / alone', () => {
    expect(tildePath('/home/me', '/home/me')).toBe('~');
    expect(tildePath('/home/me/src', '/home/me')).toBe('~/src');
    expect(tildePath('/home/meow/src', '/home/me')).toBe('/home/meow/src');
    expect(tildePath('/etc', '/')).toBe('/etc');
    expect(tildePath('/etc', undefined)).toBe('/etc');
  });
});
