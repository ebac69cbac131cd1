// The text of the namespace's small files: index and ctl lines, the tag line,
// attrs as key=value, commands. Pure functions of protocol data, so each format
// is written once here and its doc in the table says the same thing.
import { shownKeepingTabs } from '../../kits/protocol/shown';
import type { Pane, PaneCommand, Rect } from '../../kits/protocol/model';
import { usage } from '../model/commandLine';

/** A field of a space-separated line: never empty, never containing blanks. */
export function field(s: string | number | null | undefined): string {
  const t = s === null || s === undefined ? '' : String(s);
  return t === '' ? '-' : t.replace(/\s+/g, '_');
}

/** Names in paths: "/" and "%" escaped as %2F and %25, so any session or owner name is one path element. */
export function encodeName(s: string): string {
  return s.replace(/%/g, '%25').replace(/\//g, '%2F').replace(/\0/g, '%00');
}

export function decodeName(s: string): string {
  return s.replace(/%(2F|2f|25|00)/g, (m) => (m.toUpperCase() === '%2F' ? '/' : m === '%25' ? '%' : '\0'));
}

/** acme's tag: the name, the command words, a bar, then the user's text. */
export function tagLine(p: Pick<Pane, 'tag'>): string {
  const head = [p.tag.name, ...p.tag.commands].filter((w) => w !== '').join(' ');
  // A name or user text may be a host's or a program's words: escaped, one line.
  return shownKeepingTabs(`${head} | ${p.tag.user}`.replace(/[\r\n]+/g, ' ')).trimEnd();
}

export function stateWord(p: Pick<Pane, 'state' | 'exit'>): string {
  if (p.state !== 'exited' || p.exit === null) return p.state;
  return p.exit.signal !== null ? `killed(${p.exit.signalName ?? `sig${p.exit.signal}`})` : `exited(${p.exit.code ?? '?'})`;
}

/** Widths of index fields, acme-style fixed columns; a longer value widens its row, it is never cut. */
const INDEX_WIDTHS = [6, 12, 12, 24, 10, 12, 12] as const;

/** One index line: id, host, session, signature, owner, quadrant, state, cwd (blanks as _), then the tag. */
export function indexLine(p: Pane, sessionName: string): string {
  const cells = [p.n, p.host, sessionName, p.signature, p.owner, p.attrs.quadrant, stateWord(p), p.cwd].map(field);
  return cells.map((c, i) => c.padEnd(INDEX_WIDTHS[i] ?? 0)).join(' ') + ' ' + tagLine(p);
}

export function geometryText(r: Rect | undefined): string {
  return r === undefined ? '-' : `${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.w)},${Math.round(r.h)}`;
}

/** The ctl status line: id, session, signature, state, cols×rows, geometry x,y,w,h (or -), quadrant. */
export function ctlLine(p: Pane, sessionName: string, rect: Rect | undefined): string {
  return [p.n, sessionName, p.signature, stateWord(p), `${p.cols}x${p.rows}`, geometryText(rect), p.attrs.quadrant].map(field).join(' ');
}

/** Keys the attrs file computes from the pane model; writes to them are refused. */
export const COMPUTED_ATTRS = ['id', 'sig', 'kind', 'owner', 'session', 'cwd', 'pid', 'quadrant', 'geometry', 'state', 'exit', 'size'] as const;

function exitText(p: Pane): string {
  if (p.exit === null) return '-';
  return p.exit.signal !== null ? `signal ${p.exit.signalName ?? p.exit.signal}` : `code ${p.exit.code ?? '?'}`;
}

/** attrs: the computed keys first, in a fixed order, then the pane's own attrs sorted. Values on one line. */
export function attrsText(p: Pane, sessionName: string, hostAddress: string, rect: Rect | undefined): string {
  const computed: [string, string][] = [
    ['id', hostAddress],
    ['sig', p.signature],
    ['kind', p.kind],
    ['owner', p.owner],
    ['session', sessionName],
    ['cwd', p.cwd],
    ['pid', p.pid === null ? '-' : String(p.pid)],
    ['quadrant', p.attrs.quadrant ?? '-'],
    ['geometry', p.attrs.geometry ?? geometryText(rect)],
    ['state', p.state],
    ['exit', exitText(p)],
    ['size', `${p.cols}x${p.rows}`],
  ];
  const taken = new Set<string>(COMPUTED_ATTRS);
  const own = Object.entries(p.attrs)
    .filter(([k]) => !taken.has(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [...computed, ...own].map(([k, v]) => `${k}=${v.replace(/\n/g, '\\n')}\n`).join('');
}

/** commands: one word per line — its usage (args as the parser reads them), a tab, its doc. */
export function commandsText(vocab: readonly PaneCommand[]): string {
  // A doc may be a host's words (a stand-in's borrowed words): escaped, one line each.
  return vocab.map((c) => `${usage(c)}\t${shownKeepingTabs(c.doc)}\n`).join('');
}

/**
 * A program line of new/ctl as argv: words split on blanks, '…' and "…" group,
 * backslash escapes the next character. No variables, globs or pipes: it is
 * never given to a shell (the runtime contract launches argv only).
 */
export function splitProgramLine(line: string): string[] | string {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) return `unclosed ${quote} in program line`;
  if (inWord) out.push(cur);
  return out;
}
