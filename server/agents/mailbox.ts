// A Maildir (new/, cur/, tmp/) per agent: delivery writes tmp/ then renames into
// new/, so a reader never sees half a message; reading moves it to cur/ with the
// S flag. Plain files, so any mail reader can open an agent's mailbox.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Mail } from '../../kits/protocol/agent';

let seq = 0;

export function ensureMaildir(dir: string): void {
  for (const sub of ['new', 'cur', 'tmp']) fs.mkdirSync(path.join(dir, sub), { recursive: true, mode: 0o700 });
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
  const tmp = path.join(dir, 'tmp', id);
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, path.join(dir, 'new', id));
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
  file: string;
  seen: boolean;
}

function entries(dir: string): Entry[] {
  const out: Entry[] = [];
  const scan = (sub: 'new' | 'cur') => {
    let names: string[] = [];
    try {
      names = fs.readdirSync(path.join(dir, sub));
    } catch {
      return;
    }
    for (const f of names) {
      if (f.startsWith('.')) continue;
      const [id = f, info = ''] = f.split(':2,');
      out.push({ id, file: path.join(dir, sub, f), seen: sub === 'cur' && info.includes('S') });
    }
  };
  scan('new');
  scan('cur');
  return out.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
}

/** The awareness message a mail file copies, from its header (null: ordinary mail, or unreadable). */
function refOf(file: string): string | null {
  let head: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(4096);
      head = buf.toString('utf8', 0, fs.readSync(fd, buf, 0, buf.length, 0));
    } finally {
      fs.closeSync(fd);
    }
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
export function unreadCount(dir: string, o: { copies?: boolean } = {}): number {
  return entries(dir).filter((e) => !e.seen && (o.copies || refOf(e.file) === null)).length;
}

/** Messages, oldest first: unseen ones only unless `all`; `markSeen` files them as read. */
export function readMail(dir: string, o: { all?: boolean; markSeen?: boolean } = {}): Mail[] {
  const out: Mail[] = [];
  for (const e of entries(dir)) {
    if (e.seen && !o.all) continue;
    let text: string;
    let mtime = 0;
    try {
      text = fs.readFileSync(e.file, 'utf8');
      mtime = fs.statSync(e.file).mtimeMs;
    } catch {
      continue; // taken by another reader meanwhile
    }
    out.push(parse(e.id, text, e.seen, mtime));
    if (o.markSeen && !e.seen) {
      try {
        fs.renameSync(e.file, path.join(dir, 'cur', `${e.id}:2,S`));
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
  for (const e of entries(dir)) {
    if (e.seen) continue;
    const ref = refOf(e.file);
    if (ref === null || !refs.has(ref)) continue;
    try {
      fs.renameSync(e.file, path.join(dir, 'cur', `${e.id}:2,S`));
      n++;
    } catch {
      // read meanwhile: fine
    }
  }
  return n;
}
