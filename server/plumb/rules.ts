// Plumbing rule files (plumb(7)'s shape): rule sets separated by blank lines, each
// line `object verb argument`; patterns first, then `plumb` actions. `name=value`
// lines between rule sets define variables the later patterns use. A line with an
// error drops its rule set (reported by file and line); the other sets keep working.
// Patterns are RE2 (re2js): linear time, so a rule a project or an agent wrote
// cannot stall the server on a long line (decision 045).
import { RE2JS } from 're2js';
import type { PlumbError } from '../../kits/protocol/plumb';
import { PortNameSchema } from '../../kits/protocol/plumb';

/** Rule sets one file may hold: well past any hand-written file; a generated one that passes is cut and said. */
export const MAX_RULES_PER_FILE = 2000;
/** A pattern's length: patterns are read for every click, and a long one is a mistake or an attack. */
export const MAX_PATTERN = 1024;
/** A rule file's size: read on every click's first use after it changes. */
export const MAX_RULE_FILE_BYTES = 256 * 1024;

export type Origin = 'shipped' | 'user' | 'project';

export type PatternVerb = 'is' | 'matches' | 'isfile' | 'isdir' | 'isrev' | 'set' | 'add' | 'delete';
export interface Pattern {
  object: 'type' | 'src' | 'dst' | 'wdir' | 'data' | 'arg' | 'attr';
  verb: PatternVerb;
  arg: string;
  /** `matches`: the compiled pattern. */
  re?: RE2JS;
  line: number;
}
export interface Action {
  verb: 'to' | 'start' | 'client';
  words: string[];
  line: number;
}
export interface Rule {
  file: string;
  line: number;
  origin: Origin;
  patterns: Pattern[];
  actions: Action[];
}

/** The clients pane itself provides for `plumb client NAME`. */
export const CLIENTS = ['editor', 'browser'] as const;

const VERBS: Record<Pattern['object'], readonly PatternVerb[]> = {
  type: ['is'],
  src: ['is', 'matches'],
  dst: ['is'],
  wdir: ['is', 'matches', 'isdir'],
  data: ['is', 'matches', 'isfile', 'isdir', 'set'],
  arg: ['isfile', 'isdir', 'isrev'],
  attr: ['add', 'delete'],
};

/** Splits a rest-of-line into words; '...' quotes (with '' for a quote inside), as plumb(7). */
export function words(text: string): string[] | string {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    let w = '';
    while (i < text.length && !/\s/.test(text[i]!)) {
      if (text[i] === "'") {
        i++;
        for (;;) {
          if (i >= text.length) return 'a quote is not closed';
          if (text[i] === "'") {
            if (text[i + 1] === "'") {
              w += "'";
              i += 2;
              continue;
            }
            i++;
            break;
          }
          w += text[i++];
        }
      } else w += text[i++];
    }
    out.push(w);
  }
  return out;
}

/** `$name` replaced from `vars` (a name not there is left as written: `$` ends a pattern too). */
export function expandVars(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(/\$([A-Za-z_][A-Za-z0-9_]*|[0-9])/g, (all, name: string) => (Object.hasOwn(vars, name) ? vars[name]! : all));
}

export interface Parsed {
  rules: Rule[];
  errors: PlumbError[];
  /** `name=value` lines, in order. */
  vars: Record<string, string>;
}

/**
 * Parses one rule file. `vars` holds variables from files read before (the
 * shipped file's `editor=` and the like), which this file may use and redefine.
 */
export function parseRules(text: string, file: string, origin: Origin, vars: Record<string, string> = {}): Parsed {
  const rules: Rule[] = [];
  const errors: PlumbError[] = [];
  const own = { ...vars };
  const lines = text.split('\n');
  let block: { start: number; lines: { n: number; text: string }[] } | null = null;
  const flush = () => {
    if (!block) return;
    const b = block;
    block = null;
    if (rules.length >= MAX_RULES_PER_FILE) {
      if (rules.length === MAX_RULES_PER_FILE) errors.push({ file, line: b.start, message: `more than ${MAX_RULES_PER_FILE} rule sets: the rest of the file is left out` });
      return;
    }
    const r = parseSet(b.lines, file, origin, own);
    if ('error' in r) errors.push(r.error);
    else rules.push(r.rule);
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '');
    const t = raw.trim();
    if (t.startsWith('#')) continue;
    if (t === '') {
      flush();
      continue;
    }
    const assign = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(t);
    if (assign && !block) {
      const w = words(assign[2]!);
      if (typeof w === 'string') errors.push({ file, line: i + 1, message: `${assign[1]}=: ${w}` });
      else own[assign[1]!] = expandVars(w.join(' '), own);
      continue;
    }
    block ??= { start: i + 1, lines: [] };
    block.lines.push({ n: i + 1, text: t });
  }
  flush();
  return { rules, errors, vars: own };
}

function parseSet(lines: { n: number; text: string }[], file: string, origin: Origin, vars: Record<string, string>): { rule: Rule } | { error: PlumbError } {
  const rule: Rule = { file, line: lines[0]!.n, origin, patterns: [], actions: [] };
  const err = (n: number, message: string) => ({ error: { file, line: n, message } });
  for (const { n, text } of lines) {
    const m = /^(\S+)\s+(\S+)\s*(.*)$/.exec(text);
    if (!m) return err(n, `"${text}" is not "object verb argument"`);
    const [, object, verb, rest] = m as unknown as [string, string, string, string];
    if (object === 'plumb') {
      if (verb !== 'to' && verb !== 'start' && verb !== 'client') return err(n, `plumb ${verb}: the verbs of plumb are to, start and client`);
      const w = words(expandVars(rest, vars));
      if (typeof w === 'string') return err(n, w);
      if (w.length === 0) return err(n, `plumb ${verb} needs ${verb === 'to' ? 'a port' : verb === 'start' ? 'a program' : 'a client'}`);
      if (verb === 'to' && (w.length > 1 || !PortNameSchema.safeParse(w[0]).success)) return err(n, `plumb to ${rest}: a port is one lowercase word (letters, digits, - and _)`);
      if (verb === 'client' && (w.length > 1 || !(CLIENTS as readonly string[]).includes(w[0]!))) return err(n, `plumb client ${rest}: pane's clients are ${CLIENTS.join(' and ')}`);
      if (verb === 'start' && (w[0]!.startsWith('-') || w[0]!.startsWith('$'))) return err(n, `plumb start ${rest}: the program is a name the rule writes, never a matched value`);
      rule.actions.push({ verb, words: w, line: n });
      continue;
    }
    if (rule.actions.length > 0) return err(n, `"${object} ${verb}" after a plumb action: patterns come first`);
    if (!Object.hasOwn(VERBS, object)) return err(n, `unknown object "${object}" (objects: ${Object.keys(VERBS).join(' ')} and plumb)`);
    const o = object as Pattern['object'];
    if (!VERBS[o].includes(verb as PatternVerb)) return err(n, `${object} ${verb}: the verbs of ${object} are ${VERBS[o].join(', ')}`);
    const w = words(rest);
    if (typeof w === 'string') return err(n, w);
    // One argument; unquoted, it is the rest of the line as written.
    const arg = w.length === 1 ? w[0]! : rest.trim();
    if (arg === '' && verb !== 'delete') return err(n, `${object} ${verb} needs an argument`);
    const p: Pattern = { object: o, verb: verb as PatternVerb, arg, line: n };
    if (verb === 'matches') {
      const source = expandVars(arg, vars);
      if (source.length > MAX_PATTERN) return err(n, `the pattern is ${source.length} characters; at most ${MAX_PATTERN}`);
      try {
        p.re = RE2JS.compile(source);
      } catch (e) {
        return err(n, `bad pattern ${JSON.stringify(source)}: ${(e as Error).message}`);
      }
      p.arg = source;
    }
    if (verb === 'add' && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) return err(n, `attr add ${arg}: give name=value`);
    rule.patterns.push(p);
  }
  if (rule.actions.length === 0) return err(lines[lines.length - 1]!.n, 'a rule set ends with a plumb action (plumb to PORT, plumb client NAME or plumb start PROGRAM ...)');
  return { rule };
}

/** What a rule does, in its own words: `to edit, client editor`. */
export function describeActions(r: Rule): string {
  return r.actions.map((a) => `${a.verb} ${a.words.join(' ')}`).join(', ');
}

/** The rule's `data matches` pattern, the one the window underlines on hover. */
export function dataPattern(r: Rule): string | undefined {
  return r.patterns.find((p) => p.object === 'data' && p.verb === 'matches')?.arg;
}

/**
 * A project's rules (a .pane/ directory an agent can write) may send to ports and
 * hand to pane's clients, but start only what the person's own rules or the shipped
 * ones start, word for word: its `plumb start` lines must equal one of theirs (the
 * values a match fills in are checked at run time). Returns the errors for the
 * sets it leaves out.
 */
export function confineProject(project: Rule[], allowedStarts: ReadonlySet<string>): { rules: Rule[]; errors: PlumbError[] } {
  const rules: Rule[] = [];
  const errors: PlumbError[] = [];
  for (const r of project) {
    const bad = r.actions.find((a) => a.verb === 'start' && !allowedStarts.has(startKey(a)));
    if (bad) errors.push({ file: r.file, line: bad.line, message: `plumb start ${bad.words.join(' ')}: a project's rules start only what the person's own or the shipped rules start, word for word (${[...allowedStarts].join('; ') || 'none'}); the rule is left out` });
    else rules.push(r);
  }
  return { rules, errors };
}

export function startKey(a: Action): string {
  return a.words.join(' ');
}
