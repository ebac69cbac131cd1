// The rule file language: sets, quoting, variables, errors by file and line (the
// set with an error left out, the rest kept), a project's starts confined to the
// person's, and the argv a `plumb start` makes of matched values.
import { describe, expect, it } from 'vitest';
import { argvOf, firstMatch, type Checks } from './engine';
import { confineProject, parseRules, startKey, words } from './rules';
import { SHIPPED_FILE, SHIPPED_RULES } from './shipped';
import { vimEscape } from './service';

const none: Checks = { home: '/home/ada', kind: async () => null, isRev: async () => false };

describe('plumbing rule files', () => {
  it('the shipped rules parse without an error', () => {
    const r = parseRules(SHIPPED_RULES, SHIPPED_FILE, 'shipped');
    expect(r.errors).toEqual([]);
    expect(r.rules.length).toBeGreaterThanOrEqual(8);
    expect(r.rules.every((x) => x.actions.length > 0)).toBe(true);
  });

  it("splits words with plumb(7)'s quotes ('' is a quote inside)", () => {
    expect(words(`git show 'a b' 'it''s'`)).toEqual(['git', 'show', 'a b', "it's"]);
    expect(words(`'open`)).toBe('a quote is not closed');
  });

  it('reports an error by file and line, leaves that set out and keeps the others', () => {
    const text = [
      '# two good sets around a bad one',
      'data matches \'TICKET-([0-9]+)\'',
      'plumb to tickets',
      '',
      'data matches \'(unclosed\'',
      'plumb to nowhere',
      '',
      'data frobs x',
      'plumb to x',
      '',
      'type is text',
      'plumb to Bad Port',
      '',
      'data matches \'^done$\'',
      'plumb to done',
      '',
      'data is x',
      '',
      'plumb start',
    ].join('\n');
    const r = parseRules(text, '/home/ada/.config/pane/plumbing', 'user');
    expect(r.rules.map((x) => x.line)).toEqual([2, 14]);
    expect(r.errors.map((e) => [e.line, e.message.split(':')[0]])).toEqual([
      [5, 'bad pattern "(unclosed"'],
      [8, 'data frobs'],
      [12, 'plumb to Bad Port'],
      [17, 'a rule set ends with a plumb action (plumb to PORT, plumb client NAME or plumb start PROGRAM ...)'],
      [19, 'plumb start needs a program'],
    ]);
    expect(r.errors.every((e) => e.file === '/home/ada/.config/pane/plumbing')).toBe(true);
  });

  it('variables defined between sets are used by later patterns and may be redefined', () => {
    const r = parseRules("ticket='[A-Z]+-[0-9]+'\n\ndata matches '$ticket'\nplumb to tickets\n", 'f', 'user', { other: 'x' });
    expect(r.rules[0]!.patterns[0]!.arg).toBe('[A-Z]+-[0-9]+');
    expect(r.vars).toEqual({ other: 'x', ticket: '[A-Z]+-[0-9]+' });
  });

  it('refuses a program that is a matched value, and patterns after an action', () => {
    expect(parseRules('data matches x\nplumb start $0\n', 'f', 'user').errors[0]!.message).toMatch(/never a matched value/);
    expect(parseRules('plumb to a\ndata is x\n', 'f', 'user').errors[0]!.message).toMatch(/patterns come first/);
  });

  it("a project's rules start only what the person's or the shipped rules start, word for word", () => {
    const person = parseRules(SHIPPED_RULES, SHIPPED_FILE, 'shipped').rules;
    const starts = new Set(person.flatMap((r) => r.actions.filter((a) => a.verb === 'start').map(startKey)));
    const project = parseRules(
      ["data matches '[0-9a-f]{7}'", 'plumb start git show $0', '', "data matches 'x'", "plumb start git -c core.pager=sh show $0", '', "data matches 'y'", "plumb start sh -c 'touch /tmp/pwned'", '', "data matches 'z'", 'plumb to notes'].join('\n'),
      '/p/.pane/plumbing',
      'project',
    );
    const c = confineProject(project.rules, starts);
    expect(c.rules.map((r) => r.line)).toEqual([1, 10]);
    expect(c.errors.map((e) => e.line)).toEqual([5, 8]);
    expect(c.errors[1]!.message).toMatch(/start only what the person's own or the shipped rules start/);
  });

  it('a matched value never becomes an option or a control character in argv', () => {
    const [rule] = parseRules("data matches '(\\S+)'\nplumb start touch $1\n", 'f', 'user').rules;
    const a = rule!.actions[0]!;
    expect(argvOf(a, { '1': 'notes.txt' })).toEqual(['touch', 'notes.txt']);
    expect(argvOf(a, { '1': '--output=/etc/x' })).toMatch(/start an argument with "-"/);
    expect(argvOf(a, { '1': 'a\x1b]0;x\x07' })).toMatch(/control character/);
  });

  it('with no click the whole text must match; with one, the match around it is taken', async () => {
    const rules = parseRules("data matches '[A-Z]+-([0-9]+)'\nattr add id=$1\nplumb to tickets\n", 'f', 'user').rules;
    const msg = { src: 'pane 1', wdir: '/', type: 'text', attrs: {} };
    expect(await firstMatch(rules, { ...msg, data: 'see ABC-12 and XY-7' }, none)).toBeUndefined();
    const at = (click: number) => firstMatch(rules, { ...msg, data: 'see ABC-12 and XY-7', click }, none);
    expect((await at(5))?.attrs).toEqual({ id: '12' });
    expect((await at(16))?.attrs).toEqual({ id: '7' });
    expect(await at(11)).toBeUndefined();
    expect((await firstMatch(rules, { ...msg, data: 'XY-7' }, none))?.data).toBe('XY-7');
  });

  it('a message that asks for a port fires only rules that send to it', async () => {
    const rules = parseRules("data matches '.*'\nplumb to a\n\ndata matches '.*'\nplumb to b\n", 'f', 'user').rules;
    const tried: string[] = [];
    const f = await firstMatch(rules, { src: 's', wdir: '/', type: 'text', attrs: {}, data: 'x', dst: 'b' }, none, tried);
    expect(f?.rule.line).toBe(4);
    expect(tried).toEqual(['f:1: the message asks for port b; this rule sends to a']);
  });

  it("escapes a file name as vim's :edit reads it", () => {
    expect(vimEscape('/p/my file%#|.ts')).toBe('/p/my\\ file\\%\\#\\|.ts');
  });
});
