// What each file of /pane/<n>/ does on read and write: the functions the table
// rows point at. Reads are computed from the live pane; writes become protocol
// requests (pane/tag, pane/attrs, pane/input, pane/exec) through dispatch.
import { PaneFault } from '../../kits/protocol/error';
import { paneExitLine } from '../../kits/protocol/exitLabel';
import type { CommandArg, Pane, PaneCommand } from '../../kits/protocol/model';
import { hasControls } from '../../kits/protocol/shown';
import { setReaderWords } from '../model/appWords';
import { bodyOf } from '../model/bodies/registry';
import type { BodyIO } from '../model/bodies/provider';
import { parseCommandLine } from '../model/commandLine';
import { execDefault } from '../model/execLine';
import { atLine, nsFaults, rectOf, rpc, writtenLines, writtenText } from './call';
import { attrsText, COMPUTED_ATTRS, commandsText, ctlLine, tagLine } from './lines';
import { TEXT_MAX } from './namespace';
import type { Call, Target, WriteOutcome } from './types';

/**
 * A read of a terminal body that starts past 0 may reuse the text built for the
 * read that started it, for this long, even if output moved on: one `cat` then
 * sees one version, and a 10,000-line screen is rendered once, not once per piece.
 */
export const BODY_REUSE_MS = 10_000;

/** Bytes of one bound file a widget's body text reads: its tables show the first rows, its log the last of these. */
export const WIDGET_READ_BYTES = 256 << 10;

const utf8 = (s: string) => Buffer.from(s, 'utf8');

function paneOf(t: Target): Pane {
  // The resolver only hands pane rows a target with its pane.
  return t.pane!;
}

export async function tagRead(_c: Call, t: Target): Promise<Buffer> {
  return utf8(tagLine(paneOf(t)) + '\n');
}

/** acme appends tag writes; here to the user text, with a blank kept between words. */
export async function tagWrite(c: Call, t: Target, data: Buffer): Promise<WriteOutcome> {
  const p = paneOf(t);
  const text = writtenText(data).replace(/[\r\n]+/g, ' ');
  if (text === '') return {};
  const join = p.tag.user !== '' && !/\s$/.test(p.tag.user) && !/^\s/.test(text) ? ' ' : '';
  await rpc(c, 'pane/tag', { pane: p.n, append: join + text });
  return {};
}

/** /pane/<n>/body: whatever the pane's body provider serves (server/model/bodies/). */
export async function bodyRead(c: Call, t: Target, offset: number): Promise<Buffer> {
  const p = paneOf(t);
  return bodyOf(p.kind).read(bodyIO(c, t), p, offset);
}

/** A text body appends; a terminal's body is its screen, and typing goes to input. */
export async function bodyWrite(c: Call, t: Target, data: Buffer): Promise<WriteOutcome> {
  const p = paneOf(t);
  await bodyOf(p.kind).write(bodyIO(c, t), p, data);
  return {};
}

/** What a body provider may ask of this namespace call. */
function bodyIO(c: Call, t: Target): BodyIO {
  return {
    screen: (p, offset) => screenText(c, p, offset),
    text: (p) => c.ns.texts.get(p.n) ?? Buffer.alloc(0),
    appendText: (p, data) => {
      // Capability: appending to a body changes the pane, as pane/tag does.
      if (!c.ctx.client.capabilities.has('write')) throw nsFaults.notPermitted(t.path, 'this client has no write capability');
      const old = c.ns.texts.get(p.n) ?? Buffer.alloc(0);
      if (old.byteLength + data.byteLength > TEXT_MAX) throw nsFaults.bad(t.path, `a text body holds at most ${TEXT_MAX} bytes`);
      c.ns.texts.set(p.n, Buffer.concat([old, data]));
    },
    refuse: (hint) => {
      throw nsFaults.notPermitted(t.path, hint);
    },
    widget: (p) => (p.attrs['app'] === undefined ? undefined : c.ctx.services.config.apps.apps.find((a) => a.id === p.attrs['app'])?.widget),
    readPath: async (path) => {
      // Through the dispatcher as the body's reader: what they may not read, the widget's text shows refused.
      const r = await c.ctx.dispatch('ns/read', { path, count: WIDGET_READ_BYTES });
      return r.encoding === 'base64' ? Buffer.from(r.data, 'base64').toString('utf8') : r.data;
    },
  };
}

/** A terminal body's text: the screen and, once the program has ended, its exit line. */
async function screenText(c: Call, p: Pane, offset: number): Promise<Buffer> {
  const term = c.ns.server.terminals.get(p.n);
  // The body ends with the exit line once the program has ended: a reused text must have been made in the same state.
  const ended = paneExitLine(p);
  const shape = `${p.cols}x${p.rows}${ended === null ? '' : ` ${ended}`}`;
  const cached = c.ns.bodies.get(p.n);
  if (cached) {
    const current = term !== undefined && cached.end === term.streamEnd && cached.shape === shape;
    if (current || (offset > 0 && Date.now() - cached.at < BODY_REUSE_MS)) return cached.text;
  }
  const snap = await rpc(c, 'pty/screen', { pane: p.n, form: 'text' });
  const text = utf8((snap.text === '' ? '' : snap.text + '\n') + (ended === null ? '' : ended + '\n'));
  c.ns.bodies.set(p.n, { end: snap.offset, shape, text, at: Date.now() });
  return text;
}

export async function inputWrite(c: Call, t: Target, data: Buffer): Promise<WriteOutcome> {
  const p = paneOf(t);
  await rpc(c, 'pane/input', { pane: p.n, data: data.toString('base64'), encoding: 'base64' });
  return {};
}

export async function ctlRead(c: Call, t: Target): Promise<Buffer> {
  const p = paneOf(t);
  return utf8(ctlLine(p, c.ns.sessionName(p.session), await rectOf(c, p)) + '\n');
}

/**
 * ctl: one command per line, each run as pane/exec (origin "ctl"), so it is
 * parsed by parseCommandLine, shows on the event file and can be intercepted.
 * Without an interceptor every line is checked first: a bad line fails the
 * write before anything is done. A line that fails when run stops the rest.
 */
export async function ctlWrite(c: Call, t: Target, data: Buffer): Promise<WriteOutcome> {
  const p = paneOf(t);
  return runCtl(c, t.path, p, writtenLines(data));
}

export async function runCtl(c: Call, path: string, p: Pane, lines: string[]): Promise<WriteOutcome> {
  if (lines.length === 0) throw nsFaults.bad(path, 'empty write: give a command, e.g. zoom (the words are in commands)');
  if (!c.ns.interceptorOf(p.n)) {
    lines.forEach((line, i) => {
      const r = parseCommandLine(p, line);
      if (!r.ok) throw atLine(new PaneFault('bad-request', r.message), path, i, line);
    });
  }
  for (const [i, line] of lines.entries()) {
    try {
      await rpc(c, 'pane/exec', { pane: p.n, line, origin: 'ctl' });
    } catch (e) {
      throw atLine(e, path, i, line);
    }
  }
  return {};
}

export async function commandsRead(_c: Call, t: Target): Promise<Buffer> {
  return utf8(commandsText(paneOf(t).vocabulary));
}

export async function attrsRead(c: Call, t: Target): Promise<Buffer> {
  const p = paneOf(t);
  return utf8(attrsText(p, c.ns.sessionName(p.session), c.ns.server.address(p.n), await rectOf(c, p)));
}

/** key=value sets, key= deletes; all lines or none (one pane/attrs request). */
export async function attrsWrite(c: Call, t: Target, data: Buffer): Promise<WriteOutcome> {
  const p = paneOf(t);
  const set: Record<string, string | null> = {};
  const computed = new Set<string>(COMPUTED_ATTRS);
  for (const [i, line] of writtenLines(data).entries()) {
    const eq = line.indexOf('=');
    if (eq <= 0) throw atLine(new PaneFault('bad-request', 'expected key=value (key= deletes the key)'), t.path, i, line);
    const key = line.slice(0, eq).trim();
    if (computed.has(key)) throw atLine(new PaneFault('not-permitted', `${key} is computed by the server; only user-defined keys can be written`), t.path, i, line);
    const value = line.slice(eq + 1);
    set[key] = value === '' ? null : value;
  }
  if (Object.keys(set).length === 0) throw nsFaults.bad(t.path, 'empty write: give key=value lines');
  await rpc(c, 'pane/attrs', { pane: p.n, set });
  return {};
}

/** One argument of a `word` line: <name> required, [name] optional, :a|b its values, :int a number, ... the rest of the line. */
function argOf(spec: string): CommandArg | string {
  const m = /^([<[])([A-Za-z][A-Za-z0-9_-]*)(\.\.\.)?(?::([^>\]]+))?([>\]])$/.exec(spec);
  if (!m || (m[1] === '<') !== (m[5] === '>')) return `"${spec}" is not an argument: write <name>, [name], <name:a|b>, <name:int> or <name...>`;
  const [, open, name, rest, kind] = m as unknown as [string, string, string, string | undefined, string | undefined];
  const base = { name: name, ...(open === '[' ? { optional: true } : {}) };
  if (rest) return { ...base, type: 'text' };
  if (kind === 'int') return { ...base, type: 'int' };
  if (kind !== undefined) return { ...base, type: 'enum', values: kind.split('|').filter((v) => v !== '') };
  return { ...base, type: 'string' };
}

/**
 * `word NAME [ARG...] [-- DOC]` and `unword NAME`, written by the reader holding the
 * event file open read-write: words of the pane's vocabulary while it holds the file,
 * offered to it (an "offered" line) when someone runs them.
 */
function readerWordLine(c: Call, p: Pane, line: string, at: (e: unknown) => unknown): void {
  if (c.fid?.intercepting !== p.n) throw at(new PaneFault('not-permitted', `only the reader holding /${p.n}/event open read-write adds words to pane ${p.n}, and they last while it holds it`));
  const live = c.ns.server.panes.get(p.n);
  if (!live) throw at(nsFaults.bad(`/${p.n}/event`, `pane ${p.n} is gone`));
  const now = live.vocabulary.filter((w) => w.reader);
  const [head, doc] = line.split(/\s--(?:\s|$)/, 2) as [string, string | undefined];
  const [verb, name, ...specs] = head.trim().split(/\s+/);
  if (!name || !/^[A-Za-z][A-Za-z0-9_-]{0,31}$/.test(name)) throw at(new PaneFault('bad-request', `${verb} needs a word: a letter, then letters, digits, - and _ (at most 32)`));
  let next: PaneCommand[];
  if (verb === 'unword') {
    if (!now.some((w) => w.name === name)) throw at(new PaneFault('bad-request', `pane ${p.n} has no word "${name}" of this reader's`));
    next = now.filter((w) => w.name !== name);
  } else {
    const args: CommandArg[] = [];
    for (const spec of specs) {
      const a = argOf(spec);
      if (typeof a === 'string') throw at(new PaneFault('bad-request', a));
      args.push(a);
    }
    if (args.some((a, k) => a.type === 'text' && k < args.length - 1)) throw at(new PaneFault('bad-request', 'an argument with ... takes the rest of the line: it comes last'));
    const text = (doc ?? '').trim();
    if (hasControls(text) || text.length > MAX_WORD_DOC) throw at(new PaneFault('bad-request', `a word's doc is text of at most ${MAX_WORD_DOC} characters`));
    const word: PaneCommand = { name, doc: text || `${name} (added by the reader of /${p.n}/event)`, args, inTag: true, reader: true };
    next = [...now.filter((w) => w.name !== name), word];
  }
  const refused = setReaderWords(c.ns.server, live, next);
  if (refused) throw at(new PaneFault('bad-request', refused));
}

/** A reader's word's doc: one line of the palette. */
const MAX_WORD_DOC = 200;

/**
 * event write-back: each line names an offered execution by its number (the
 * first field of its "offered" line; the whole line may be echoed back), which
 * is then performed by default with its original origin and user.
 */
export async function eventWrite(c: Call, t: Target, data: Buffer): Promise<WriteOutcome> {
  const p = paneOf(t);
  for (const [i, line] of writtenLines(data).entries()) {
    if (/^(?:word|unword)(?:\s|$)/.test(line)) {
      readerWordLine(c, p, line, (e) => atLine(e, t.path, i, line));
      continue;
    }
    const m = /^(\d+)(?:\s|$)/.exec(line);
    if (!m) throw atLine(new PaneFault('bad-request', 'write back the number of an "offered" line to have it performed by default'), t.path, i, line);
    const seq = Number(m[1]);
    const offer = c.ns.offers.get(p.n)?.get(seq);
    if (!offer) throw atLine(new PaneFault('bad-request', `no offered command ${seq} on pane ${p.n} (performed already, or never offered)`), t.path, i, line);
    c.ns.offers.get(p.n)?.delete(seq);
    try {
      await execDefault(c.ctx, p, offer.line, offer.origin, offer.by);
    } catch (e) {
      throw atLine(e, t.path, i, line);
    }
  }
  return {};
}

/** /<n>/diff: what an agent pane's worktree changed since its branch's base (agent/diff as the reader). */
export async function diffRead(c: Call, t: Target): Promise<Buffer> {
  return utf8((await rpc(c, 'agent/diff', { pane: paneOf(t).n })).diff);
}

/** /<n>/review: one line per changed file, `STATUS PATH` (git's letters; ? for a file git does not track). */
export async function reviewRead(c: Call, t: Target): Promise<Buffer> {
  const d = await rpc(c, 'agent/diff', { pane: paneOf(t).n });
  return utf8(d.files.map((f) => `${f.status} ${f.path}\n`).join(''));
}

/**
 * /<n>/review write, one per line, each as the writer: `accept [FILE]` or `reject
 * [FILE]`, or `open FILE` — a changed file of the worktree in an editor pane beside the
 * agent's ($VISUAL/$EDITOR): each an agent/review.
 */
export async function reviewWrite(c: Call, t: Target, data: Buffer): Promise<WriteOutcome> {
  for (const [i, line] of writtenLines(data).entries()) {
    const m = /^(accept|reject|open)(?:\s+(.+))?$/.exec(line);
    if (!m || (m[1] === 'open' && m[2] === undefined)) throw nsFaults.bad(t.path, `line ${i + 1}: "${line}" is not accept [FILE], reject [FILE] or open FILE`);
    try {
      await rpc(c, 'agent/review', { pane: paneOf(t).n, verdict: m[1] as 'accept' | 'reject' | 'open', ...(m[2] !== undefined ? { file: m[2] } : {}) });
    } catch (e) {
      throw atLine(e, t.path, i, line);
    }
  }
  return {};
}
