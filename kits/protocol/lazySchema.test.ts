import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from './lazySchema';

/** Counts every zod schema made from here on (zod calls its postProcessor for each). */
function counting(): { built: () => number; stop: () => void } {
  let n = 0;
  z.config({ postProcessor: () => void n++ });
  return { built: () => n, stop: () => z.config({ postProcessor: undefined }) };
}

describe('lazySchema', () => {
  it('builds its schema at the first use, once', () => {
    const c = counting();
    try {
      let makes = 0;
      const A = lazySchema(() => {
        makes++;
        return z.object({ n: z.number().int().min(1), s: z.string() });
      });
      const B = lazySchema(() => z.object({ a: A, list: z.array(A).max(2) }));
      expect(c.built()).toBe(0);
      expect(makes).toBe(0);
      expect(B.parse({ a: { n: 1, s: 'x' }, list: [] })).toEqual({ a: { n: 1, s: 'x' }, list: [] });
      expect(makes).toBe(1);
      const after = c.built();
      expect(after).toBeGreaterThan(0);
      A.parse({ n: 2, s: 'y' });
      B.parse({ a: { n: 1, s: 'x' }, list: [] });
      expect(makes).toBe(1);
      expect(c.built()).toBe(after);
    } finally {
      c.stop();
    }
  });

  it('is the schema it stands for: errors and their paths, instanceof, shape, extend, pick, optional, unions', () => {
    const A = lazySchema(() => z.object({ n: z.number().int().min(1), s: z.string() }));
    const B = lazySchema(() => z.object({ a: A, list: z.array(A).max(2), opt: A.optional() }));
    const bad = B.safeParse({ a: { n: 0, s: 1 }, list: [{}, {}, {}] });
    expect(bad.success).toBe(false);
    const said = bad.error!.issues.map((i) => `${i.path.join('.')}: ${i.code}`);
    expect(said).toContain('a.n: too_small');
    expect(said).toContain('a.s: invalid_type');
    expect(said).toContain('list: too_big');
    expect(A instanceof z.ZodObject).toBe(true);
    expect(A instanceof z.ZodType).toBe(true);
    expect(Object.keys(A.shape)).toEqual(['n', 's']);
    expect(A.extend({ more: z.boolean() }).parse({ n: 1, s: '', more: true })).toEqual({ n: 1, s: '', more: true });
    expect(A.pick({ n: true }).parse({ n: 3 })).toEqual({ n: 3 });
    expect(A.partial().parse({})).toEqual({});
    expect(A.optional().parse(undefined)).toBeUndefined();
    const U = lazySchema(() => z.discriminatedUnion('kind', [z.object({ kind: z.literal('x'), a: A }), z.object({ kind: z.literal('y') })]));
    expect(U.parse({ kind: 'x', a: { n: 1, s: 'q' } })).toEqual({ kind: 'x', a: { n: 1, s: 'q' } });
    expect(U.safeParse({ kind: 'z' }).success).toBe(false);
    const S = lazySchema(() => z.string().max(3));
    expect(S.safeParse('four').success).toBe(false);
    expect(z.object({ s: S }).parse({ s: 'abc' })).toEqual({ s: 'abc' });
  });

  it('leaves no trap behind once built, and carries the schema’s metadata', () => {
    const D = lazySchema(() => z.string().describe('a name'));
    expect(D.description).toBe('a name');
    const real = z.string();
    expect(Object.getPrototypeOf(D)).toBe(Object.getPrototypeOf(real));
    expect(z.globalRegistry.get(D)).toEqual({ description: 'a name' });
    const json = z.toJSONSchema(lazySchema(() => z.object({ d: D })));
    expect(json).toMatchObject({ type: 'object', properties: { d: { type: 'string', description: 'a name' } } });
  });

  it('is a schema of its own to zod’s internals: wrappers that look themselves up by identity work on it', () => {
    // toJSONSchema's optional, default, nullable and lazy steps find their own entry by the
    // instance their internals were made for: a copy of another schema's internals found none.
    const O = lazySchema(() => z.string().optional());
    const Dflt = lazySchema(() => z.number().default(1));
    const N = lazySchema(() => z.string().nullable());
    const L = lazySchema(() => z.lazy(() => z.boolean()));
    const json = z.toJSONSchema(z.object({ o: O, d: Dflt, n: N, l: L }));
    expect(json).toEqual(z.toJSONSchema(z.object({ o: z.string().optional(), d: z.number().default(1), n: z.string().nullable(), l: z.lazy(() => z.boolean()) })));
    expect(json).toMatchObject({ properties: { o: { type: 'string' }, d: { type: 'number', default: 1 }, l: { type: 'boolean' } }, required: ['d', 'n', 'l'] });
    expect(z.toJSONSchema(O)).toMatchObject({ type: 'string' });
    expect((O as unknown as { _zod: { def: unknown } })._zod.def).toBeDefined();
  });
});

describe('the protocol', () => {
  it('builds no schema when its modules load: each is built at its first use (decision 056)', async () => {
    const c = counting();
    try {
      const p = await import('./index');
      // A schema written without lazySchema at a module's top level is built here, by every window and daemon at start.
      expect(c.built()).toBe(0);
      expect(Object.keys(p.methods).length).toBeGreaterThan(100);
      p.methods['pane/get'].result.parse;
      expect(c.built()).toBeGreaterThan(0);
    } finally {
      c.stop();
    }
  });
});
