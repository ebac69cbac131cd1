import { describe, expect, it } from 'vitest';
import { allowedHosts, csp, parseTarget, readCookie } from './httpRequest';

describe('parseTarget', () => {
  it('decodes and normalises a path, keeping the query', () => {
    const t = parseTarget('/a/./b/../c%20d?x=1&launch=T');
    expect(t).toMatchObject({ path: '/a/c d' });
    expect(typeof t !== 'string' && t.query.get('launch')).toBe('T');
  });

  it.each(['/%', '/%00', '/%E0%A4%A', 'http://[', '*', '//evil/x', '/..', '/a/../../b', '/a%5cb', '/a\\b', '/\u0001', `/${'a'.repeat(3000)}`])('refuses %j with a reason, never an exception', (raw) => {
    expect(typeof parseTarget(raw)).toBe('string');
  });

  it('never throws on a query with bad escapes', () => {
    expect(typeof parseTarget('/?a=%&b=%E0')).toBe('object');
  });
});

describe('readCookie', () => {
  it('finds one cookie among several and ignores look-alikes', () => {
    expect(readCookie('a=1; pane_80=v; pane_8=w', 'pane_80')).toBe('v');
    expect(readCookie('xpane_80=v', 'pane_80')).toBe(null);
    expect(readCookie(undefined, 'pane_80')).toBe(null);
  });
});

describe('allowedHosts and csp', () => {
  it('allow only the loopback names with this port', () => {
    expect([...allowedHosts(5)]).toEqual(['127.0.0.1:5', 'localhost:5', '[::1]:5']);
    expect(csp(5)).toMatch(/connect-src 'self' ws:\/\/127\.0\.0\.1:5 ws:\/\/localhost:5;.*frame-ancestors 'none'/);
  });
});
