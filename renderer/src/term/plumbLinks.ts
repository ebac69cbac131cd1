// The window's side of plumbing: the rules' `data matches` patterns (plumb/rules,
// for the pane's cwd) underline what they match on hover, and a click sends the
// whole logical line with the click's offset to the server (plumb/send), which
// decides, as the person, what it means. Patterns run in re2js, as on the server:
// a project's pattern cannot stall the window on a long line. A window whose
// server plumbs nothing for it (a guest's) keeps plain web links.
import type { IBufferLine, ILink, ILinkProvider, Terminal } from '@xterm/xterm';
import type { RE2JS } from 're2js';

/** How long a pane's patterns are used before asking again (rule files are edited live). */
export const PATTERNS_TTL_MS = 5_000;
/** Rows of one wrapped line looked at: a longer logical line is plumbed by its nearest rows. */
const MAX_WRAPPED_ROWS = 64;
/** Candidates asked of the server per row hovered: a line of many words is checked at its first few. */
const MAX_CHECKS_PER_ROW = 12;
/** How long a candidate's answer is kept (a file made later is found after this). */
const CHECK_TTL_MS = 5_000;

export interface PlumbHost {
  /** The patterns for the pane's rules, or null when this window plumbs nothing (a guest; an old server). */
  patterns(pane: number): Promise<string[] | null>;
  /** Whether a click at `click` in `text` would fire a rule (plumb/test): a pattern alone underlines every word a bare-path rule could take. */
  fires(pane: number, text: string, click: number): Promise<boolean>;
  /** A click on the text at `click`. */
  plumb(pane: number, text: string, click: number | undefined): void;
}

let re2: Promise<typeof import('re2js')> | null = null;
const compiled = new Map<string, RE2JS | null>();

async function compile(sources: readonly string[]): Promise<RE2JS[]> {
  re2 ??= import('re2js');
  const { RE2JS: R } = await re2;
  const out: RE2JS[] = [];
  for (const s of sources) {
    if (!compiled.has(s)) {
      try {
        compiled.set(s, R.compile(s));
      } catch {
        compiled.set(s, null); // the server reports the rule's error by file and line
      }
    }
    const c = compiled.get(s);
    if (c) out.push(c);
  }
  return out;
}

/** A logical line: the rows it spans, its text, and where each row starts in it. */
function logicalLine(term: Terminal, y: number): { first: number; text: string; starts: number[] } {
  const buf = term.buffer.active;
  let first = y;
  while (first > 0 && y - first < MAX_WRAPPED_ROWS && buf.getLine(first)?.isWrapped) first--;
  let text = '';
  const starts: number[] = [];
  for (let r = first; r - first < MAX_WRAPPED_ROWS; r++) {
    const line: IBufferLine | undefined = buf.getLine(r);
    if (!line || (r > first && !line.isWrapped)) break;
    starts.push(text.length);
    const next = buf.getLine(r + 1);
    text += line.translateToString(!next?.isWrapped);
  }
  return { first, text, starts };
}

/** Offset in the logical line → a cell (1-based x, y): one column per UTF-16 unit of the row's text, which holds for the paths and URLs rules match. */
function cellOf(first: number, starts: number[], offset: number): { x: number; y: number } {
  let row = 0;
  while (row + 1 < starts.length && starts[row + 1]! <= offset) row++;
  return { x: offset - starts[row]! + 1, y: first + row + 1 };
}

export class PlumbLinks implements ILinkProvider {
  private patterns: { at: number; list: RE2JS[] | null } | null = null;
  private loading: Promise<void> | null = null;

  constructor(
    private readonly term: Terminal,
    private readonly pane: number,
    private readonly host: PlumbHost,
    /** Called when the server plumbs nothing for this window: fall back to plain web links. */
    private readonly fallback: () => void,
  ) {}

  private refresh(): Promise<void> {
    this.loading ??= this.host
      .patterns(this.pane)
      .then(async (sources) => {
        this.patterns = { at: Date.now(), list: sources ? await compile(sources) : null };
        if (!sources) this.fallback();
      })
      .catch(() => {
        this.patterns = { at: Date.now(), list: [] };
      })
      .finally(() => (this.loading = null));
    return this.loading;
  }

  private readonly checked = new Map<string, { at: number; fires: Promise<boolean> }>();

  provideLinks(bufferLineNumber: number, callback: (links: ILink[] | undefined) => void): void {
    const fresh = this.patterns && Date.now() - this.patterns.at < PATTERNS_TTL_MS;
    const go = () => void this.linksAt(bufferLineNumber - 1).then(callback, () => callback(undefined));
    if (fresh) go();
    else void this.refresh().then(go);
  }

  /** Whether the server would fire a rule there, asked once a candidate (and again after CHECK_TTL_MS). */
  private fires(text: string, click: number): Promise<boolean> {
    const key = `${click}\0${text}`;
    const now = Date.now();
    const hit = this.checked.get(key);
    if (hit && now - hit.at < CHECK_TTL_MS) return hit.fires;
    if (this.checked.size > 500) this.checked.clear();
    const fires = this.host.fires(this.pane, text, click).catch(() => false);
    this.checked.set(key, { at: now, fires });
    return fires;
  }

  private async linksAt(y: number): Promise<ILink[] | undefined> {
    const list = this.patterns?.list;
    if (!list || list.length === 0) return undefined;
    const { first, text, starts } = logicalLine(this.term, y);
    if (text.trim() === '') return undefined;
    const rowStart = starts[y - first] ?? 0;
    const rowEnd = starts[y - first + 1] ?? text.length;
    const spans: { s: number; e: number }[] = [];
    for (const re of list) {
      const m = re.matcher(text);
      let from = 0;
      while (from <= text.length && m.find(from)) {
        const s = m.start(0);
        const e = m.end(0);
        if (e > s && s < rowEnd && e > rowStart && !spans.some((o) => o.s <= s && e <= o.e)) spans.push({ s, e });
        from = e > s ? e : s + 1;
      }
    }
    if (spans.length === 0) return undefined;
    // Only what a rule really takes is a link: a bare-path pattern matches every word, the server knows which are files.
    const checked = spans.slice(0, MAX_CHECKS_PER_ROW);
    const ok = await Promise.all(checked.map(({ s }) => this.fires(text, s)));
    const live = checked.filter((_, i) => ok[i]);
    if (live.length === 0) return undefined;
    return live.map(({ s, e }) => ({
      range: { start: cellOf(first, starts, s), end: cellOf(first, starts, e - 1) },
      text: text.slice(s, e),
      decorations: { underline: true, pointerCursor: true },
      activate: () => this.host.plumb(this.pane, text, s),
    }));
  }
}
