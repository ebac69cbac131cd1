// A Maildir (new/, cur/, tmp/) per agent: delivery writes tmp/ then renames into
// new/, so a reader never sees half a message; reading moves it to cur/ with the
// S flag. Plain files, so any mail reader can open an agent's mailbox.
// The Maildir is in the agent's home: every file is reached below the home without
// following links (kits/node/safeFile.ts), so no link planted there redirects a
// delivery or hands out a file; such a mail is skipped, and the refusal thrown or told.
import os from 'node:os';
import path from 'node:path';
import type { Mail } from '../../kits/protocol/agent';
import { listBelow, lstatBelow, mkdirBelow, PathRefused, readBytesBelow, renameBelow, writeBelow } from '../../kits/node/safeFile';

let seq = 0;

const WHERE = "an agent's Maildir";
/** A mail's body is at most 1 Mi characters (agent/mail's schema), so 4 MiB of UTF-8, plus headers. */
export const MAX_MAIL_BYTES = 4 * 1024 * 1024 + 64 * 1024;
/** How much of a mail is read for its headers (the reference of an awareness copy). */
const HEAD_BYTES = 4096;

/** A Maildir `dir` is reached below its parent (the agent's home): root and the name under it. */
const split = (dir: string) => ({ root: path.dirname(dir), base: path.basename(dir) });

export function ensureMaildir(dir: string): void {
  const { root, base } = split(dir);
  for (const sub of ['new', 'cur', 'tmp']) mkdirBelow(root, `${base}/${sub}`, { where: WHERE });
}

/** Header values are one line: a newline in a subject must not forge headers. */
const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();

/** The header naming the awareness message a mail copies (see `markSeenByRef`). */
const REF_HEADER = 'X-Pane-Message';
const REF_LINE = new RegExp(`^${REF_HEADER}: (.+)$`, 'im');

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  body: string;
  /** The awareness message this mail is a copy of. */
  ref?: string;
}

export function deliver(dir: string, m: OutgoingMail, now = Date.now()): string {
  ensureMaildir(dir);
  const id = `${now}.P${process.pid}Q${++seq}.${os.hostname().replace(/[/:]/g, '_')}`;
  const text =
    `From: ${oneLine(m.from)}\nTo: ${oneLine(m.to)}\nSubject: ${oneLine(m.subject)}\n` +
    `Date: ${new Date(now).toUTCString()}\nMessage-ID: <${id}@pane>\n` +
    (m.ref ? `${REF_HEADER}: ${oneLine(m.ref)}\n` : '') +
    `\n${m.body}${m.body.endsWith('\n') ? '' : '\n'}`;
  // Written whole in tmp/ (a fresh O_EXCL|O_NOFOLLOW temp file, renamed to its id), then moved into new/.
  const { root, base } = split(dir);
  writeBelow(root, `${base}/tmp/${id}`, text, { where: WHERE, mode: 0o600 });
  renameBelow(root, `${base}/tmp/${id}`, `${base}/new/${id}`, { where: WHERE });
  return id;
}

function parse(id: string, text: string, seen: boolean, mtime: number): Mail {
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  const body = split < 0 ? '' : text.slice(split + 2);
  const h = new Map<string, string>();
  for (const line of head.split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) h.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
  }
  const date = Date.parse(h.get('date') ?? '');
  const ref = h.get(REF_HEADER.toLowerCase());
  return { id, from: h.get('from') ?? '?', to: h.get('to') ?? '?', subject: h.get('subject') ?? '', date: Number.isFinite(date) ? date : mtime, body, seen, ...(ref ? { ref } : {}) };
}

interface Entry {
  id: string;
  /** Below the Maildir's parent: `Maildir/new/ID`. */
  rel: string;
  seen: boolean;
}

/** Told a mail file that was refused (a link, FIFO, oversize) instead of read; the mail is skipped. */
export type OnRefused = (e: PathRefused) => void;

function entries(dir: string, refused: OnRefused): Entry[] {
  const out: Entry[] = [];
  const { root, base } = split(dir);
  const scan = (sub: 'new' | 'cur') => {
    let names: string[] = [];
    try {
      names = listBelow(root, `${base}/${sub}`, { where: WHERE });
    } catch (e) {
      if (e instanceof PathRefused) refused(e);
      return;
    }
    for (const f of names) {
      if (f.startsWith('.') || f.includes('/')) continue;
      const [id = f, info = ''] = f.split(':2,');
      out.push({ id, rel: `${base}/${sub}/${f}`, seen: sub === 'cur' && info.includes('S') });
    }
  };
  scan('new');
  scan('cur');
  return out.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
}

/** The awareness message a mail file copies, from its header (null: ordinary mail, or unreadable). */
function refOf(root: string, e: Entry): string | null {
  let head: string;
  try {
    const buf = readBytesBelow(root, e.rel, { where: WHERE, head: HEAD_BYTES });
    if (buf === null) return null;
    head = buf.toString('utf8');
  } catch {
    return null;
  }
  const end = head.indexOf('\n\n');
  const m = REF_LINE.exec(end < 0 ? head : head.slice(0, end));
  return m ? m[1]!.trim() : null;
}

/**
 * Unread mail. Copies of awareness messages are left out unless `copies`: the tag
 * counts those as pending messages already, and one message is not two badges.
 */
export function unreadCount(dir: string, o: { copies?: boolean; refused?: OnRefused } = {}): number {
  const { root } = split(dir);
  return entries(dir, o.refused ?? (() => undefined)).filter((e) => !e.seen && (o.copies || refOf(root, e) === null)).length;
}

/** Messages, oldest first: unseen ones only unless `all`; `markSeen` files them as read. A refused file is skipped and told `refused`. */
export function readMail(dir: string, o: { all?: boolean; markSeen?: boolean; refused?: OnRefused } = {}): Mail[] {
  const out: Mail[] = [];
  const { root, base } = split(dir);
  const refused = o.refused ?? (() => undefined);
  for (const e of entries(dir, refused)) {
    if (e.seen && !o.all) continue;
    let text: string;
    let mtime = 0;
    try {
      const buf = readBytesBelow(root, e.rel, { where: WHERE, maxBytes: MAX_MAIL_BYTES });
      if (buf === null) continue; // taken by another reader meanwhile
      text = buf.toString('utf8');
      // The date header is the mail's date; mtime stands in only for a mail without one.
      mtime = lstatBelow(root, e.rel, { where: WHERE })?.mtimeMs ?? 0;
    } catch (err) {
      if (err instanceof PathRefused) refused(err);
      continue;
    }
    out.push(parse(e.id, text, e.seen, mtime));
    if (o.markSeen && !e.seen) {
      try {
        renameBelow(root, e.rel, `${base}/cur/${e.id}:2,S`, { where: WHERE });
      } catch {
        // already moved: fine
      }
    }
  }
  return out;
}

/**
 * Files as read the unseen copies of these awareness messages (they were handed
 * over as hook context): the same words are not "new" twice. Returns how many.
 */
export function markSeenByRef(dir: string, refs: ReadonlySet<string>): number {
  let n = 0;
  const { root, base } = split(dir);
  for (const e of entries(dir, () => undefined)) {
    if (e.seen) continue;
    const ref = refOf(root, e);
    if (ref === null || !refs.has(ref)) continue;
    try {
      renameBelow(root, e.rel, `${base}/cur/${e.id}:2,S`, { where: WHERE });
      n++;
    } catch {
      // read meanwhile: fine
    }
  }
  return n;
}
