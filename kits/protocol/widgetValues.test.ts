// A widget's values and templates: parsing a bound file each way, and an action's
// {field}s filled as data — one word where one belongs, never a line, a key or an option.
import { describe, expect, it } from 'vitest';
import { BindingSchema, WidgetActionSchema } from './widget';
import { actionRequest, boundPath, parseBound, rowsOf, shownValue } from './widgetValues';

const bind = (b: object) => BindingSchema.parse(b);
const act = (a: object) => WidgetActionSchema.parse(a);

describe('bound values', () => {
  it('picks one field of one line', () => {
    expect(parseBound(BindingSchema.parse({ path: '/3/tag', as: 'lines', fields: ['name', 'words'], pick: '0.name' }), 'ada close zoom | notes\n')).toEqual({ ok: true, value: 'ada' });
  });

  it('parses a file as text, kv, number, lines with fields, json with a pick, and jsonl', () => {
    expect(parseBound(bind({ path: '/3/tag' }), 'sh close |\n')).toEqual({ ok: true, value: 'sh close |' });
    expect(parseBound(bind({ path: '/log' }), 'a\nb\n')).toEqual({ ok: true, value: 'a\nb\n' });
    const metrics = 'panes 3\nclients 1\nrss_bytes 123456\n';
    expect(parseBound(bind({ path: '/server/stats', as: 'kv', pick: 'clients' }), metrics)).toEqual({ ok: true, value: '1' });
    expect(parseBound(bind({ path: '/server/stats', as: 'number', pick: 'rss_bytes' }), metrics)).toEqual({ ok: true, value: 123456 });
    expect(parseBound(bind({ path: '/server/stats', as: 'number', pick: 'nope' }), metrics)).toEqual({ ok: false, error: '/server/stats: no number for nope' });
    expect(parseBound(bind({ path: '/index', as: 'lines', fields: ['id', 'host', 'rest'] }), '  1 box  a b c\n\n')).toEqual({ ok: true, value: [{ line: '  1 box  a b c', id: '1', host: 'box', rest: 'a b c' }] });
    expect(parseBound(bind({ path: '/x', as: 'json', pick: 'a.0.b' }), '{"a":[{"b":7}]}')).toEqual({ ok: true, value: 7 });
    expect(parseBound(bind({ path: '/agents', as: 'jsonl' }), '{"name":"ada"}\n{"name":"bo"}\n')).toEqual({ ok: true, value: [{ name: 'ada' }, { name: 'bo' }] });
    const bad = parseBound(bind({ path: '/agents', as: 'jsonl' }), '{"name":\n');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^\/agents: not jsonl \(/);
  });

  it('picks only own fields: a prototype name is no field', () => {
    expect(parseBound(bind({ path: '/x', as: 'json', pick: '__proto__' }), '{}')).toEqual({ ok: true, value: undefined });
    expect(parseBound(bind({ path: '/x', as: 'json', pick: 'constructor' }), '{}')).toEqual({ ok: true, value: undefined });
  });

  it('makes rows of arrays and objects, and shows values as one line', () => {
    expect(rowsOf({ a: 1 })).toEqual([{ name: 'a', value: 1 }]);
    expect(rowsOf([1, { x: 2 }])).toEqual([{ value: 1 }, { x: 2 }]);
    expect(shownValue(['a', 'b'])).toBe('a, b');
    expect(shownValue({ a: 1 })).toBe('{"a":1}');
    expect(shownValue(null)).toBe('');
  });

  it("fills a bound path's {ATTR} from the widget pane's own attributes, one path segment each", () => {
    expect(boundPath('/{review.pane}/diff', { 'review.pane': '7' })).toEqual({ ok: true, path: '/7/diff' });
    expect(boundPath('/{review.pane}/diff', {})).toEqual({ ok: false, error: '/{review.pane}/diff: this pane has no attribute review.pane' });
    expect(boundPath('/{p}/diff', { p: '../server' })).toEqual({ ok: false, error: '/{p}/diff: p ("../server") is not one path segment' });
    expect(boundPath('/{p}/diff', { p: '7\n' }).ok).toBe(false);
    expect(boundPath('/{p}/diff', { p: 'toString' })).toEqual({ ok: true, path: '/toString/diff' });
    expect(boundPath('/{constructor}/diff', {}).ok).toBe(false);
  });

  it('refuses a bound path that is not absolute, and a timer faster than a second', () => {
    expect(BindingSchema.safeParse({ path: 'index' }).success).toBe(false);
    expect(BindingSchema.safeParse({ path: '/server/stats', every: 0.1 }).success).toBe(false);
  });
});

describe('action templates', () => {
  it('fills a word line and a ctl path from the row', () => {
    expect(actionRequest(act({ run: 'focus', pane: '{pane}' }), { pane: 4 })).toEqual({ ok: true, method: 'pane/exec', pane: 4, line: 'focus' });
    expect(actionRequest(act({ run: 'name', args: ['{value}'] }), { value: 'two words ok' })).toEqual({ ok: true, method: 'pane/exec', pane: undefined, line: 'name two words ok' });
    expect(actionRequest(act({ write: '/{n}/ctl', data: 'zoom' }), { n: 3 })).toEqual({ ok: true, method: 'ns/write', path: '/3/ctl', data: 'zoom' });
  });

  it('refuses a value that would be a second line, a key, two arguments, an option or another path', () => {
    const no = (a: object, row: Record<string, unknown>, why: RegExp) => {
      const r = actionRequest(act(a), row);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toMatch(why);
    };
    no({ write: '/3/ctl', data: 'name {v}' }, { v: 'x\nclose' }, /v holds a control character/);
    no({ run: 'send', args: ['{v}'] }, { v: 'ls\r' }, /control character/);
    no({ run: 'resize', args: ['{dir}', '{n}'] }, { dir: 'left 5', n: 1 }, /dir \("left 5"\) has a blank where one word belongs/);
    no({ run: 'name', args: ['{v}'] }, { v: '-rf' }, /starts with "-"/);
    no({ write: '/{n}/ctl', data: 'close' }, { n: '../server' }, /is not one path segment/);
    no({ write: '/{n}/ctl', data: 'close' }, { n: '..' }, /is not one path segment/);
    no({ write: '/{n}/ctl', data: 'close' }, { n: '' }, /n is empty/);
    no({ run: 'focus', pane: '{pane}' }, { pane: 'x1' }, /pane "x1" is not a pane number/);
    no({ run: 'focus', pane: '{pane}' }, {}, /pane is empty/);
  });
});
