import { describe, expect, it } from 'vitest';
import { eventFixtures, methodFixtures } from '../../test/fixtures/protocol';
import { decodeBinary, encodeBinary, BinaryKind } from './envelope';
import { eventSchemas } from './events';
import { formatPaneRef, parsePaneRef, PaneRefSchema } from './ids';
import { methods } from './index';

describe('protocol schemas', () => {
  it('has a golden fixture for every method and event', () => {
    expect(Object.keys(methodFixtures).sort()).toEqual(Object.keys(methods).sort());
    expect(Object.keys(eventFixtures).sort()).toEqual(Object.keys(eventSchemas).sort());
  });

  for (const [name, fx] of Object.entries(methodFixtures)) {
    it(`round-trips ${name} params and result through JSON and the schema`, () => {
      const spec = methods[name as keyof typeof methods];
      const p = spec.params.parse(fx.params);
      expect(spec.params.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
      const r = spec.result.parse(fx.result);
      expect(spec.result.parse(JSON.parse(JSON.stringify(r)))).toEqual(r);
    });
  }

  for (const [name, data] of Object.entries(eventFixtures)) {
    it(`round-trips the ${name} event`, () => {
      const schema = eventSchemas[name as keyof typeof eventSchemas];
      const d = schema.parse(data);
      expect(schema.parse(JSON.parse(JSON.stringify(d)))).toEqual(d);
    });
  }

  it('rejects a split ratio that is not a number and names the field', () => {
    const r = methods['pane/split'].params.safeParse({ ratio: 'half' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(['ratio']);
  });

  it('accepts N and HOST:N as pane ids and rejects junk', () => {
    expect(PaneRefSchema.safeParse(3).success).toBe(true);
    expect(PaneRefSchema.safeParse('devbox:3').success).toBe(true);
    expect(PaneRefSchema.safeParse('3').success).toBe(true);
    expect(PaneRefSchema.safeParse('devbox:').success).toBe(false);
    expect(PaneRefSchema.safeParse(0).success).toBe(false);
    expect(PaneRefSchema.safeParse('a b:3').success).toBe(false);
    expect(parsePaneRef('vm.local:12')).toEqual({ host: 'vm.local', n: 12 });
    expect(formatPaneRef('vm', 4)).toBe('vm:4');
  });

  it('encodes and decodes binary output frames without touching the bytes', () => {
    const data = new Uint8Array([0, 255, 27, 91, 109, 10]);
    const f = decodeBinary(encodeBinary({ kind: BinaryKind.OUTPUT, pane: 7, offset: 2 ** 40, data }));
    expect(typeof f).not.toBe('string');
    const b = f as Exclude<typeof f, string>;
    expect([b.kind, b.pane, b.offset, [...b.data]]).toEqual([BinaryKind.OUTPUT, 7, 2 ** 40, [...data]]);
    expect(decodeBinary(new Uint8Array([1, 2]))).toMatch(/shorter than/);
    expect(decodeBinary(new Uint8Array(13).fill(9))).toMatch(/unknown binary frame kind 9/);
  });
});
