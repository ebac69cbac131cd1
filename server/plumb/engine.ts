// Matching a message against rules, first match wins (plumb(7)): each pattern
// line must hold in order; `matches` takes the match around the click (or the
// whole text when there is no click) and sets $0..$9; `isfile`/`isdir` set $file
// and $dir; `set` and `attr add` rewrite the message. Nothing here acts: the
// service (service.ts) does what the rule names, as the caller.
import path from 'node:path';
import { hasControls } from '../../kits/protocol/shown';
import { expandVars, type Action, type Rule, words } from './rules';

export interface Message {
  src: string;
  /** The port the message asks for (plumb(7)'s dst), if any. */
  dst?: string | undefined;
  wdir: string;
  type: string;
  data: string;
  click?: number | undefined;
  attrs: Record<string, string>;
}

/** The facts a rule may ask of the filesystem and git; the service gives the real ones, bounded. */
export interface Checks {
  kind(p: string): Promise<'file' | 'dir' | null>;
  isRev(wdir: string, rev: string): Promise<boolean>;
  home: string;
}

export interface Fired {
  rule: Rule;
  data: string;
  attrs: Record<string, string>;
  vars: Record<string, string>;
  /** The text the match came from verbatim (what the click was on). */
  matched: string;
}

/** A revision as a rule may name it: no option, no path trickery. */
const REV = /^[0-9A-Za-z][0-9A-Za-z._/^~-]{0,127}$/;

/** The first rule that fires for `msg`, or undefined; `tried` gets a line for each rule that did not. */
export async function firstMatch(rules: readonly Rule[], msg: Message, checks: Checks, tried?: string[]): Promise<Fired | undefined> {
  for (const rule of rules) {
    const to = rule.actions.find((a) => a.verb === 'to')?.words[0];
    if (msg.dst !== undefined && to !== msg.dst) {
      tried?.push(`${rule.file}:${rule.line}: the message asks for port ${msg.dst}; this rule sends ${to ? `to ${to}` : 'to no port'}`);
      continue;
    }
    const why = await attempt(rule, msg, checks);
    if (typeof why !== 'string') return why;
    tried?.push(`${rule.file}:${rule.line}: ${why}`);
  }
  return undefined;
}

function resolvePath(p: string, wdir: string, home: string): string {
  if (p === '~' || p.startsWith('~/')) return path.join(home, p.slice(1));
  return path.resolve(wdir, p);
}

async function attempt(rule: Rule, msg: Message, checks: Checks): Promise<Fired | string> {
  let data = msg.data;
  let matched = msg.data;
  let click = msg.click;
  const attrs = { ...msg.attrs };
  const vars: Record<string, string> = { src: msg.src, dst: msg.dst ?? '', wdir: msg.wdir, type: msg.type, data, ...attrs };
  const x = (s: string) => expandVars(s, vars);
  for (const p of rule.patterns) {
    const said = `${p.object} ${p.verb} ${p.arg}`;
    switch (`${p.object} ${p.verb}`) {
      case 'type is':
        if (msg.type !== x(p.arg)) return `${said}: the type is ${msg.type}`;
        break;
      case 'src is':
        if (msg.src !== x(p.arg)) return `${said}: src is ${msg.src}`;
        break;
      case 'src matches':
        if (!p.re!.matches(msg.src)) return `${said}: src is ${msg.src}`;
        break;
      case 'dst is':
        if ((msg.dst ?? '') !== x(p.arg)) return `${said}: the message asks for ${msg.dst ? `port ${msg.dst}` : 'no port'}`;
        break;
      case 'wdir is':
        if (msg.wdir !== x(p.arg)) return `${said}: wdir is ${msg.wdir}`;
        break;
      case 'wdir matches':
        if (!p.re!.matches(msg.wdir)) return `${said}: wdir is ${msg.wdir}`;
        break;
      case 'wdir isdir': {
        const d = resolvePath(x(p.arg), msg.wdir, checks.home);
        if ((await checks.kind(d)) !== 'dir') return `${said}: ${d} is not a directory`;
        vars.dir = d;
        break;
      }
      case 'data is':
        if (data !== x(p.arg)) return `${said}: the text is not that`;
        break;
      case 'data matches': {
        const m = around(p.re!, data, click);
        if (!m) return click === undefined ? `${said}: the whole text does not match` : `${said}: nothing matches around offset ${click}`;
        data = m.groups[0]!;
        matched = data;
        click = undefined;
        vars.data = data;
        m.groups.forEach((g, i) => {
          if (i <= 9) vars[String(i)] = g ?? '';
        });
        for (let i = m.groups.length; i <= 9; i++) vars[String(i)] = '';
        break;
      }
      case 'data set':
        data = x(p.arg);
        vars.data = data;
        break;
      case 'data isfile':
      case 'data isdir':
      case 'arg isfile':
      case 'arg isdir': {
        const v = p.object === 'data' ? data : x(p.arg);
        if (v === '') return `${said}: empty`;
        const abs = resolvePath(v, msg.wdir, checks.home);
        const want = p.verb === 'isfile' ? 'file' : 'dir';
        if ((await checks.kind(abs)) !== want) return `${said}: ${abs} is not a ${want === 'file' ? 'file' : 'directory'}`;
        if (want === 'file') {
          vars.file = abs;
          vars.dir = path.dirname(abs);
        } else vars.dir = abs;
        break;
      }
      case 'arg isrev': {
        const v = x(p.arg);
        if (!REV.test(v)) return `${said}: "${v}" is not a revision name`;
        if (!(await checks.isRev(msg.wdir, v))) return `${said}: ${v} is not a commit of the repository at ${msg.wdir}`;
        break;
      }
      case 'attr add': {
        const w = words(p.arg);
        for (const kv of typeof w === 'string' ? [] : w) {
          const eq = kv.indexOf('=');
          const k = kv.slice(0, eq);
          const v = x(kv.slice(eq + 1));
          if (v === '') delete attrs[k];
          else attrs[k] = v;
          vars[k] = v;
        }
        break;
      }
      case 'attr delete':
        delete attrs[x(p.arg)];
        break;
      default:
        return `${said}: not understood`;
    }
  }
  return { rule, data, attrs, vars, matched };
}

/** The match of `re` that holds offset `click` (or, with no click, one that spans the whole text). */
function around(re: import('re2js').RE2JS, text: string, click: number | undefined): { groups: (string | null)[] } | undefined {
  const m = re.matcher(text);
  const groups = () => Array.from({ length: re.groupCount() + 1 }, (_, i) => m.group(i));
  if (click === undefined) return m.matches() ? { groups: groups() } : undefined;
  // Every start position, so a match that begins inside an earlier one is found too.
  let from = 0;
  while (from <= text.length && m.find(from)) {
    const s = m.start(0);
    const e = m.end(0);
    if (s <= click && click < e) return { groups: groups() };
    if (s > click) return undefined;
    from = e > s && e <= click ? e : s + 1;
  }
  return undefined;
}

/**
 * A `plumb start` line's argv: each word one element, its variables filled in.
 * A value that came from the text is data: an element it made may not start
 * with "-" (it would be read as an option) nor hold a control character.
 */
export function argvOf(a: Action, vars: Record<string, string>): string[] | string {
  const out: string[] = [];
  for (const w of a.words) {
    const v = expandVars(w, vars);
    if (v !== w && v.startsWith('-') && !w.startsWith('-')) return `the value "${v}" would start an argument with "-" (read as an option): refused`;
    if (hasControls(v)) return `a value holds a control character: refused`;
    if (v === '' && w.startsWith('$')) continue;
    out.push(v);
  }
  return out;
}
