import { describe, expect, it } from 'vitest';
import { makeConfig } from './config';
import { extractTopics, hashText, pathTopics, singular, tokenize, vocabOf } from './topics';

const v = vocabOf(makeConfig({ identityNoise: ['ada', 'devbox-7'] }));

describe('topics', () => {
  it('reads a path typed in a prompt by its name, never its fragments (src, ts) as topics', () => {
    const v = vocabOf(makeConfig());
    const t = extractTopics('write tests for the expired session token handling in src/auth/login.ts refreshToken', v);
    expect(t).not.toContain('src');
    expect(t).not.toContain('ts');
    expect(t).toEqual(expect.arrayContaining(['auth', 'login', 'token']));
    expect(extractTopics('fix the crash at lib/parser/index.js:42 and ./util/io.ts', v)).not.toEqual(expect.arrayContaining(['lib']));
    expect(extractTopics('look at main.go', v)).not.toContain('go');
  });

  it('splits identifiers the way code names things', () => {
    expect(tokenize('handleAuthLogin jwt_verify refresh-token HTTPServer')).toEqual(['handle', 'auth', 'login', 'jwt', 'verify', 'refresh', 'token', 'http', 'server']);
  });

  it('folds plurals without mangling words that end in s', () => {
    expect(['tokens', 'queries', 'classes', 'databases', 'status', 'process', 'analysis', 'cases'].map(singular)).toEqual([
      'token', 'query', 'class', 'database', 'status', 'process', 'analysis', 'case',
    ]);
  });

  it('drops stop words, convergence noise and identity noise', () => {
    expect(extractTopics('Please fix the failing test in the auth module for ada on devbox-7', v)).toEqual(['failing', 'auth', 'module']);
  });

  it('drops stop words even after plural folding ("does" is not the topic "doe")', () => {
    expect(extractTopics('does this work', v)).toEqual([]);
  });

  it('keeps the top N by frequency, ties in order of first appearance', () => {
    const small = vocabOf(makeConfig({ topN: 3 }));
    expect(extractTopics('cache redis eviction cache redis cache metrics', small)).toEqual(['cache', 'redis', 'eviction']);
  });

  it('takes topics from the last path segments, not from where the project lives', () => {
    expect(pathTopics('/home/ada/work/shop/src/auth/jwtVerify.ts', v)).toEqual(['auth', 'jwt', 'verify']);
  });

  it('leaves the project’s own name out of a file’s topics', () => {
    expect(pathTopics('/home/ada/shop/checkout/cartTotals.ts', v, '/home/ada/shop')).toEqual(['checkout', 'cart', 'total']);
    expect(pathTopics('/home/ada/shop/checkout/cartTotals.ts', v)).toEqual(['shop', 'checkout', 'cart', 'total']);
  });

  it('hashes prompts stably', () => {
    expect(hashText('fix auth')).toBe(hashText('fix auth'));
    expect(hashText('fix auth')).not.toBe(hashText('fix auth!'));
  });
});
