import { describe, expect, it } from 'vitest';
import { requalify } from './hostService';

describe('requalify: a remote answer named as this server names it', () => {
  it('renames host fields and qualifies ids at any depth, leaving the rest as it was', () => {
    const answer = {
      n: 3,
      host: 'far-box',
      id: 'far-box:3',
      tag: { text: 'id host', dirty: false },
      vocabulary: [{ id: 'build', label: 'Build', args: ['-v', 2, null] }, 'plain', 7, null],
      attrs: { note: 'x' },
      nested: [[{ id: '9' }]],
      exit: null,
    };
    const before = JSON.stringify(answer);
    const out = requalify(answer, 'far-box', 'box');
    expect(out).toEqual({
      n: 3,
      host: 'box',
      id: 'box:3',
      tag: { text: 'id host', dirty: false },
      vocabulary: [{ id: 'box:build', label: 'Build', args: ['-v', 2, null] }, 'plain', 7, null],
      attrs: { note: 'x' },
      nested: [[{ id: 'box:9' }]],
      exit: null,
    });
    // A new value: the remote's answer itself is not changed.
    expect(JSON.stringify(answer)).toBe(before);
    expect(out).not.toBe(answer);
    expect(out.vocabulary).not.toBe(answer.vocabulary);
  });

  it('qualifies an id the remote gave with another host name by its last part', () => {
    expect(requalify({ id: 'other:12' }, 'far-box', 'box')).toEqual({ id: 'box:12' });
    expect(requalify({ id: 'a:b:5' }, 'a:b', 'box')).toEqual({ id: 'box:5' });
  });

  it('keeps primitives, skips inherited properties, and stops at its depth bound', () => {
    expect(requalify(5, 'r', 'a')).toBe(5);
    expect(requalify(null, 'r', 'a')).toBeNull();
    const proto = { host: 'inherited' };
    const child = Object.create(proto) as Record<string, unknown>;
    child.own = 1;
    expect(requalify(child, 'r', 'a')).toEqual({ own: 1 });
    // A host's answer with a __proto__ key (JSON.parse makes it an own key) gives the copy no prototype of its choosing.
    const sly = requalify(JSON.parse('{"n":1,"__proto__":{"readOnly":false,"host":"x"}}') as Record<string, unknown>, 'r', 'a');
    expect(Object.getPrototypeOf(sly)).toBe(Object.prototype);
    expect([sly.readOnly, Object.keys(sly)]).toEqual([undefined, ['n']]);
    let deep: Record<string, unknown> = { host: 'deepest' };
    for (let i = 0; i < 12; i++) deep = { inner: deep };
    let walked = requalify(deep, 'r', 'a') as Record<string, unknown>;
    for (let i = 0; i < 12; i++) walked = walked.inner as Record<string, unknown>;
    expect(walked.host).toBe('deepest'); // past MAX_REQUALIFY_DEPTH the value is passed on unrenamed
  });
});
