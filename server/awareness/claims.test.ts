import { describe, expect, it } from 'vitest';
import { answer, claim, claimsOn, nextDeadline, release, sweep, type ClaimEnv, type ClaimsState } from './claims';
import { ManualClock } from './clock';
import { covers, globMatch, normalizeResource, overlaps } from './resources';

function setup() {
  const clock = new ManualClock();
  const stale = new Set<string>();
  let n = 0;
  const st: ClaimsState = { claims: [], log: [] };
  const env = (): ClaimEnv => ({ now: clock.now(), contestTimeoutMs: 120_000, maxLog: 100, isStale: (h) => stale.has(h), newId: () => `c${++n}` });
  const file = (p: string) => ({ kind: 'file' as const, path: p });
  return { clock, stale, st, env, file };
}

describe('claim lifecycle', () => {
  it('grants a claim, refuses an overlapping exclusive one, and releases', () => {
    const { st, env, file } = setup();
    expect(claim(st, env(), { ...file('/p/a.ts'), holder: 'ada', scope: 'exclusive', reason: 'refactor' }).status).toBe('granted');
    const r = claim(st, env(), { ...file('/p/a.ts'), holder: 'bob', scope: 'exclusive', reason: '' });
    expect(r.status).toBe('conflict');
    expect(r.status === 'conflict' && r.conflicts.map((c) => c.holder)).toEqual(['ada']);
    expect(release(st, env(), 'bob', { path: '/p/a.ts' })).toEqual([]);
    expect(release(st, env(), 'ada', { path: '/p/a.ts' })).toHaveLength(1);
    expect(claim(st, env(), { ...file('/p/a.ts'), holder: 'bob', scope: 'exclusive', reason: '' }).status).toBe('granted');
    expect(st.log.map((e) => e.action)).toEqual(['claimed', 'released', 'claimed']);
  });

  it('lets shared claims coexist but not beside an exclusive one', () => {
    const { st, env } = setup();
    const dir = { kind: 'dir' as const, path: '/p/auth/' };
    expect(claim(st, env(), { ...dir, holder: 'ada', scope: 'shared', reason: '' }).status).toBe('granted');
    expect(claim(st, env(), { ...dir, holder: 'bob', scope: 'shared', reason: '' }).status).toBe('granted');
    expect(claim(st, env(), { kind: 'file', path: '/p/auth/jwt.ts', holder: 'cy', scope: 'exclusive', reason: '' }).status).toBe('conflict');
  });

  it('force-releases a contested claim after the timeout and hands it to the contester', () => {
    const { st, env, file, clock } = setup();
    claim(st, env(), { ...file('/p/a.ts'), holder: 'ada', scope: 'exclusive', reason: 'refactor' });
    const r = claim(st, env(), { ...file('/p/a.ts'), holder: 'bob', scope: 'exclusive', reason: '', contest: true });
    expect(r.status === 'conflict' && r.contested.map((c) => c.contestedBy)).toEqual(['bob']);
    clock.advance(119_000);
    sweep(st, env());
    expect(st.claims.map((c) => c.holder)).toEqual(['ada']);
    clock.advance(1_000);
    const ch = sweep(st, env());
    expect(ch.removed.map((x) => x.action)).toEqual(['force-released']);
    expect(st.claims.map((c) => [c.holder, c.path])).toEqual([['bob', '/p/a.ts']]);
    expect(st.log.map((e) => e.action)).toEqual(['claimed', 'contested', 'force-released', 'transferred']);
  });

  it('hands the contester what it asked for, once, not the holder’s broader claims', () => {
    const { st, env, file, clock } = setup();
    claim(st, env(), { kind: 'dir', path: '/p/src/', holder: 'ada', scope: 'exclusive', reason: 'auth rewrite' });
    claim(st, env(), { kind: 'glob', path: '/p/src/**/*.ts', holder: 'ada', scope: 'exclusive', reason: 'types' });
    const r = claim(st, env(), { ...file('/p/src/a.ts'), holder: 'bob', scope: 'shared', reason: '', contest: true });
    expect(r.status === 'conflict' && r.contested).toHaveLength(2);
    expect(st.claims[0]!.contestFor).toEqual({ kind: 'file', path: '/p/src/a.ts', scope: 'shared' });
    expect(nextDeadline(st, 120_000)).toBe(clock.now() + 120_000);
    clock.advance(120_000);
    sweep(st, env());
    expect(st.claims.map((c) => [c.holder, c.kind, c.path, c.scope])).toEqual([['bob', 'file', '/p/src/a.ts', 'shared']]);
    expect(st.log.map((e) => e.action)).toEqual(['claimed', 'claimed', 'contested', 'contested', 'force-released', 'transferred', 'force-released']);
  });

  it('drops the contest when the holder answers the contester: the claim stays', () => {
    const { st, env, file, clock } = setup();
    claim(st, env(), { ...file('/p/a.ts'), holder: 'ada', scope: 'exclusive', reason: 'refactor' });
    claim(st, env(), { ...file('/p/a.ts'), holder: 'bob', scope: 'exclusive', reason: '', contest: true });
    // Someone else's answer does nothing.
    expect(answer(st, env(), 'cy', 'bob')).toEqual([]);
    expect(answer(st, env(), 'ada', 'bob').map((c) => [c.holder, c.contestedBy])).toEqual([['ada', null]]);
    expect(nextDeadline(st, 120_000)).toBeNull();
    clock.advance(200_000);
    sweep(st, env());
    expect(st.claims.map((c) => c.holder)).toEqual(['ada']);
    expect(st.log.map((e) => [e.action, e.by])).toEqual([['claimed', null], ['contested', 'bob'], ['kept', 'ada']]);
  });

  it('lets a claim of a stale holder be overridden at once', () => {
    const { st, env, file, stale } = setup();
    claim(st, env(), { ...file('/p/a.ts'), holder: 'ada', scope: 'exclusive', reason: '' });
    stale.add('ada');
    expect(claim(st, env(), { ...file('/p/a.ts'), holder: 'bob', scope: 'exclusive', reason: '' }).status).toBe('granted');
    expect(st.log.map((e) => e.action)).toEqual(['claimed', 'holder-stale', 'claimed']);
  });

  it('expires a claim when its TTL passes, at the next listing', () => {
    const { st, env, file, clock } = setup();
    claim(st, env(), { ...file('/p/a.ts'), holder: 'ada', scope: 'exclusive', reason: '', ttlMs: 60_000 });
    clock.advance(60_000);
    expect(sweep(st, env()).removed.map((x) => x.action)).toEqual(['expired']);
    expect(st.claims).toEqual([]);
  });

  it('refreshes a claim made again by its holder instead of doubling it', () => {
    const { st, env, file } = setup();
    claim(st, env(), { ...file('/p/a.ts'), holder: 'ada', scope: 'exclusive', reason: 'one' });
    claim(st, env(), { ...file('/p/a.ts'), holder: 'ada', scope: 'shared', reason: 'two' });
    expect(st.claims.map((c) => [c.scope, c.reason])).toEqual([['shared', 'two']]);
  });

  it('names the claims by others that cover a file about to be written', () => {
    const { st, env } = setup();
    claim(st, env(), { kind: 'glob', path: '/p/src/**/*.ts', holder: 'ada', scope: 'exclusive', reason: '' });
    expect(claimsOn(st, '/p/src/auth/jwt.ts', 'bob').map((c) => c.holder)).toEqual(['ada']);
    expect(claimsOn(st, '/p/src/auth/jwt.ts', 'ada')).toEqual([]);
    expect(claimsOn(st, '/p/src/auth/style.css', 'bob')).toEqual([]);
  });
});

describe('resources', () => {
  it('resolves relative paths against the cwd and marks directories', () => {
    expect(normalizeResource('file', 'src/../a.ts', '/p')).toEqual({ kind: 'file', path: '/p/a.ts' });
    expect(normalizeResource('dir', 'src', '/p')).toEqual({ kind: 'dir', path: '/p/src/' });
  });

  it('matches globs the usual way', () => {
    expect(globMatch('/p/**/*.ts', '/p/a.ts')).toBe(true);
    expect(globMatch('/p/**/*.ts', '/p/x/y/a.ts')).toBe(true);
    expect(globMatch('/p/*.ts', '/p/x/a.ts')).toBe(false);
    expect(globMatch('/p/a?.[jt]s', '/p/ab.js')).toBe(true);
    expect(globMatch('/p/a?.[!j]s', '/p/ab.js')).toBe(false);
    expect(globMatch('/p/[a-c]*.md', '/p/bee.md')).toBe(true);
    expect(globMatch('/p/src/**', '/p/src/x/y.ts')).toBe(true);
    expect(globMatch('/p/*', '/p/x/y.ts')).toBe(false);
  });

  it('answers a hostile glob (many ** and *) without exponential backtracking (a regex would hang this test)', () => {
    expect(globMatch(`/${'**/'.repeat(30)}${'*a'.repeat(30)}b`, `/${'x/'.repeat(50)}${'a'.repeat(2000)}`)).toBe(false);
  });

  it('does not let a directory cover a sibling with a longer name', () => {
    expect(covers({ kind: 'dir', path: '/p/src/a/' }, '/p/src/ab/x.ts')).toBe(false);
  });

  it('decides overlap between every pair of kinds', () => {
    const f = { kind: 'file' as const, path: '/p/src/a.ts' };
    const d = { kind: 'dir' as const, path: '/p/src/' };
    const g = { kind: 'glob' as const, path: '/p/src/**/*.ts' };
    const css = { kind: 'glob' as const, path: '/p/**/*.css' };
    expect([overlaps(f, d), overlaps(f, g), overlaps(d, g), overlaps(g, css), overlaps(d, { kind: 'dir', path: '/q/' })]).toEqual([true, true, true, false, false]);
  });
});
