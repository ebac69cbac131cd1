import { describe, expect, it } from 'vitest';
import type { Pane } from '../../kits/protocol/model';
import { commandAllowed, globRe, NOTHING, paneMatches, parseAccessText, pathMatches, summarize } from './access';
import { namespacePath } from './accessCheck';

const pane = (n: number, signature: string, owner = 'me', attrs: Record<string, string> = {}) => ({ n, signature, owner, attrs, session: 's-uuid' }) as unknown as Pane;

describe('.access parsing', () => {
  it('fills every default from an empty object and from an empty file', () => {
    for (const text of ['{}', '', '  \n']) {
      const r = parseAccessText(text);
      expect(r.errors).toEqual([]);
      expect(r.access.panes).toEqual({ read: ['*'], write: ['self'] });
      expect(r.access.commands.deny).toContain('server/stop');
    }
  });

  it('grants nothing and names the problem when the file is not JSON', () => {
    const r = parseAccessText('{ "panes": ');
    expect(r.access).toEqual(NOTHING);
    expect(r.errors[0]).toMatch(/^\(json\): not valid JSON/);
  });

  it('grants nothing and names each bad field (typos, bad selectors, bad capabilities)', () => {
    const r = parseAccessText(JSON.stringify({ panes: { write: ['self', 'everything'] }, capabilites: ['read'], capabilities: ['root'] }));
    expect(r.access).toEqual(NOTHING);
    expect(r.errors.some((e) => e.startsWith('panes.write.1:'))).toBe(true);
    expect(r.errors.some((e) => e.startsWith('capabilities.0:'))).toBe(true);
    expect(r.errors.some((e) => e.includes('capabilites'))).toBe(true);
  });

  it('refuses a version it does not know', () => {
    expect(parseAccessText('{"version": 2}').errors[0]).toMatch(/^version:/);
  });

  it('says in words what an invalid file means', () => {
    const r = parseAccessText('[]');
    expect(summarize(r.access, r.errors)[0]).toMatch(/INVALID .access .*everything is refused/);
  });
});

describe('matchers', () => {
  it('matches pane selectors: *, self, N, HOST:N, sig:GLOB, session:NAME, agent:NAME', () => {
    const mine = pane(3, 'com.pane.ai.agent.ada');
    const made = pane(4, 'com.pane.terminal', 'ada');
    const other = pane(5, 'com.pane.terminal');
    const bob = pane(6, 'com.pane.ai.agent.bob');
    // Ownership is the server's record (here: signature for agent panes, owner for made ones).
    const owns = (agent: string, p: Pane) => p.signature === `com.pane.ai.agent.${agent}` || p.owner === agent;
    const m = (sel: string[], p: Pane) => paneMatches(sel, 'ada', p, 'main', 'devbox', owns);
    expect(m(['*'], other)).toBe(true);
    expect([m(['self'], mine), m(['self'], made), m(['self'], other)]).toEqual([true, true, false]);
    expect([m(['5'], other), m(['devbox:5'], other), m(['elsewhere:5'], other)]).toEqual([true, true, false]);
    expect([m(['sig:com.pane.ai.agent.*'], bob), m(['sig:com.pane.ai.*'], bob), m(['sig:com.pane.*'], bob)]).toEqual([true, false, false]);
    expect(m(['sig:com.pane.**'], bob)).toBe(true);
    expect([m(['session:main'], other), m(['session:other'], other)]).toEqual([true, false]);
    expect([m(['agent:bob'], bob), m(['agent:bob'], mine)]).toEqual([true, false]);
    expect(m([], other)).toBe(false);
  });

  it('matches namespace globs, with /pane/self standing for the agent’s own pane numbers', () => {
    expect(pathMatches(['/pane/**'], '/pane/3/body', [])).toBe(true);
    expect(pathMatches(['/pane/*/body'], '/pane/3/body', [])).toBe(true);
    expect(pathMatches(['/pane/*/body'], '/pane/3/ctl', [])).toBe(false);
    expect(pathMatches(['/pane/self/**'], '/pane/7/ctl', [7])).toBe(true);
    expect(pathMatches(['/pane/self/**'], '/pane/8/ctl', [7])).toBe(false);
  });

  it('maps namespace requests onto /pane paths, views onto the pane they name', () => {
    expect(namespacePath('ns/read', { path: '/3/body' })).toBe('/pane/3/body');
    expect(namespacePath('ns/list', { path: '/' })).toBe('/pane');
    // Judged as the resolver walks it: `..` climbs before the globs see the path.
    expect(namespacePath('ns/open', { path: '/new/../1/event' })).toBe('/pane/1/event');
    expect(namespacePath('ns/open', { path: '/new/../../../1/./event' })).toBe('/pane/1/event');
    expect(namespacePath('ns/write', { path: '/by-sig/com.pane.ai.agent.ada/7/ctl' })).toBe('/pane/7/ctl');
    expect(namespacePath('pane/list', {})).toBeNull();
    expect(pathMatches(parseAccessText('{}').access.namespace.write, '/pane/new/ctl', [])).toBe(true);
  });

  it('lets deny win over allow for commands, with globs', () => {
    const a = parseAccessText(JSON.stringify({ commands: { allow: ['pane/*', 'agent/mail'], deny: ['pane/close'] } })).access;
    expect(['pane/list', 'agent/mail', 'pane/close', 'session/kill'].map((m) => commandAllowed(a, m))).toEqual([true, true, false, false]);
    expect(globRe('pane/*').test('pane/x/y')).toBe(false);
  });
});
