// Whether a JSON frame fits the wire (MAX_JSON_FRAME), and what a peer says when
// one does not: a reply or event too large to send is refused with `too-large`
// naming the method, its size, the limit and what to do, never dropped unread.
// Zod-free, like binary.ts, so the server and every client use it alike.
import { MAX_JSON_FRAME } from './binary';

/**
 * The UTF-8 size of `text` when it is over `limit` (MAX_JSON_FRAME), else null. Cheap
 * for the common small frame: a UTF-16 unit is at most 3 UTF-8 bytes, so short text
 * is known to fit without counting.
 */
export function jsonFrameOver(text: string, limit = MAX_JSON_FRAME): number | null {
  if (text.length * 3 <= limit) return null;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      bytes += 4; // a surrogate pair is one 4-byte code point
      i++;
    } else bytes += 3;
  }
  return bytes > limit ? bytes : null;
}

/** What to do when a method's (or an event's) answer is too large, for those that list what files or panes hold. */
const WHAT_TO_DO: Record<string, string> = {
  'apps/list': 'shrink or remove app files (the largest argv, env or keywords) in ~/.config/pane/apps',
  'apps/changed': 'shrink or remove app files (the largest argv, env or keywords) in ~/.config/pane/apps',
  'keymap/get': 'shrink keymap.json (fewer or shorter bindings)',
  'keymap/changed': 'shrink keymap.json (fewer or shorter bindings)',
  'pty/read': 'ask for fewer bytes (maxBytes)',
  'pane/list': 'list one session at a time',
  'session/list': 'close some panes or sessions',
};

const mib = (n: number) => `${(n / (1 << 20)).toFixed(1)} MiB`;

/** The one-line refusal of a reply (or event) of `bytes` that does not fit a frame. */
export function tooLargeMessage(what: 'reply' | 'event', name: string, bytes: number): string {
  const todo = WHAT_TO_DO[name] ?? 'ask for less (a narrower request), or remove what makes it large';
  const subject = what === 'reply' ? `the reply to ${name}` : `the event ${name}`;
  return `${subject} is ${bytes} bytes (${mib(bytes)}), over the ${MAX_JSON_FRAME}-byte (${mib(MAX_JSON_FRAME)}) frame limit, so it was not sent; ${todo}`;
}

/** The frame of one event, as every subscriber gets it (see fitEvent); also for an event sent to one client alone. */
export function eventFrame(event: string, data: unknown, rev: number): string {
  return fitEvent(event, JSON.stringify({ t: 'evt', event, rev, data }));
}

/**
 * An event frame as sent, or, when it does not fit a frame, an error frame saying so
 * (every client drops a frame past MAX_JSON_FRAME unread; an error with no request
 * reaches its onError): the subscriber learns its copy of that state is stale.
 */
function fitEvent(event: string, frame: string): string {
  const over = jsonFrameOver(frame);
  if (over === null) return frame;
  return JSON.stringify({ t: 'res', id: null, ok: false, error: { code: 'too-large', message: tooLargeMessage('event', event, over), subject: event } });
}
