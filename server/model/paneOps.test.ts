// The pane operations keep their one rule each: a change is written and said
// once, no change says nothing, and a client's attrs stay within their bound.
import { describe, expect, it } from 'vitest';
import type { Pane } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';
import { attrsRemoval, MAX_CLIENT_ATTRS, setAttrs, setTag, syncFloatWord } from './paneOps';

const pane = (): Pane => ({
  n: 4, uuid: '00000000-0000-4000-8000-000000000004', host: 'h', session: '00000000-0000-4000-8000-000000000000', signature: 'com.pane.terminal',
  kind: 'terminal', tag: { name: 'sh', commands: ['close', 'float'], user: '' }, vocabulary: [],
  owner: 'u', cwd: '/', launch: null, pid: null, pgid: null, state: 'running', exit: null, cols: 80, rows: 24, attrs: { a: '1' }, createdAt: 0,
});

/** A server that only records what is published (the operations need nothing else of it). */
function recorder() {
  const said: { event: string; data: unknown }[] = [];
  const server = { publish: (event: string, data: unknown) => void said.push({ event, data }) } as unknown as PaneServer;
  return { server, said };
}

describe('pane operations', () => {
  it('merges attrs (null removes a key) and says pane/attrs-changed once, with the new attrs', () => {
    const { server, said } = recorder();
    const p = pane();
    const before = p.attrs;
    expect(setAttrs(server, p, { b: '2', a: null })).toBe(true);
    expect(p.attrs).toEqual({ b: '2' });
    expect(before).toEqual({ a: '1' }); // replaced, never mutated: a reader holding the old object keeps it
    expect(said).toEqual([{ event: 'pane/attrs-changed', data: { pane: 4, attrs: { b: '2' } } }]);
  });

  it('says nothing when the attrs would not change, removing an absent key included', () => {
    const { server, said } = recorder();
    const p = pane();
    expect(setAttrs(server, p, { a: '1', gone: null })).toBe(false);
    expect(said).toEqual([]);
  });

  it('refuses a client merge past the bound, naming it, and leaves the attrs as they were', () => {
    const { server, said } = recorder();
    const p = pane();
    const many = Object.fromEntries(Array.from({ length: MAX_CLIENT_ATTRS }, (_, i) => [`k${i}`, 'v']));
    expect(() => setAttrs(server, p, many, MAX_CLIENT_ATTRS)).toThrow(`pane 4 would have more than ${MAX_CLIENT_ATTRS} attrs (MAX_CLIENT_ATTRS)`);
    expect(p.attrs).toEqual({ a: '1' });
    expect(said).toEqual([]);
  });

  it('removes the keys a predicate picks', () => {
    const p = { ...pane(), attrs: { agent: 'ada', 'agent.state': 'idle', title: 't' } };
    expect(attrsRemoval(p, (k) => k === 'agent' || k.startsWith('agent.'))).toEqual({ agent: null, 'agent.state': null });
  });

  it('changes the tag and says pane/tag-changed only when it changed; the float word follows the pane', () => {
    const { server, said } = recorder();
    const p = pane();
    expect(setTag(server, p, { name: 'sh' })).toBe(false);
    syncFloatWord(server, p, true);
    expect(p.tag.commands).toEqual(['close', 'tile']);
    syncFloatWord(server, p, true); // already says tile
    expect(said.map((s) => s.event)).toEqual(['pane/tag-changed']);
  });
});
