// The first line a pane prints that matches a pattern, read by stream offset through
// pty/read and woken by its output events: `pane wait --match` and MCP's wait_pane. The
// pattern runs here, in the caller's process, never in the daemon (a pattern that
// backtracks for minutes costs its own process alone).
import { StringDecoder } from 'node:string_decoder';
import type { Connection } from '../../client/index';
import type { PaneRef } from '../../protocol/ids';
import type { ExitStatus } from '../../protocol/model';
import { plainText } from './commands/agentsWrite';

/** A line longer than this is matched in pieces of this size (a progress bar redrawn with \r for an hour is one "line"). */
export const MATCH_LINE_MAX = 64 << 10;
/** Bytes read per pty/read while matching. */
const MATCH_READ = 256 << 10;
/** The longest sleep between looks when no output event came (a missed event costs at most this). */
const MATCH_LOOK_MS = 1_000;

export type MatchEnd =
  | { kind: 'found'; pane: number; line: string; offset: number; waitedMs: number }
  | { kind: 'timeout'; pane: number }
  | { kind: 'ended'; pane: number; exit: ExitStatus | null }
  | { kind: 'closed'; pane: number }
  /** `from: 'input'` for a pane no key has reached since it started. */
  | { kind: 'no-input'; pane: number };

/**
 * Reads pane `ref`'s output from `from` (`now`: its end now; `input`: where the last key
 * reached it; a number: that offset) until a line whose plain text matches `re`, the
 * timeout, or the pane's end. Lines are cut at \n or a lone \r (a redrawn progress
 * line), escape sequences taken out; the unfinished last line is tried too, so a prompt
 * with no newline ("Password: ") matches. From the last key, the rest of the line it was
 * typed on is left out: a shell echoes the command there, and a pattern the command
 * itself holds would match its own echo. The caller has subscribed the connection to
 * the output and pane event families; `onGap` hears of output that left the ring unread.
 */
export async function matchOutput(c: Connection, ref: PaneRef, re: RegExp, from: number | 'input' | 'now', timeoutMs: number, onGap?: (message: string) => void): Promise<MatchEnd> {
  const p0 = await c.call('pane/get', { pane: ref });
  const n = p0.n;
  const start = Date.now();
  let next: number;
  if (typeof from === 'number') next = from;
  else {
    const at = await c.call('pty/read', { pane: ref, from: 0, maxBytes: 1 });
    if (from === 'input' && at.inputAt === undefined) return { kind: 'no-input', pane: n };
    next = from === 'input' ? at.inputAt! : at.streamEnd;
  }
  const decoder = new StringDecoder('utf8');
  let carry = '';
  /** Still on the line the last key was typed on (from: input): its rest is the echo, not output. */
  let typedLine = from === 'input';
  let wake: (() => void) | null = null;
  // A program already ended prints nothing more: what it printed is read, then that is said.
  let ended = p0.state === 'exited';
  let closed = false;
  const kick = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const off = c.onEvent((event, _rev, data) => {
    const d = data as { pane?: number | { n: number } };
    const p = typeof d.pane === 'number' ? d.pane : d.pane?.n;
    if (p !== n) return;
    if (event === 'pane/exited') ended = true;
    if (event === 'pane/closed') closed = true;
    kick();
  });
  const deadline = start + timeoutMs;
  const found = (line: string): MatchEnd => ({ kind: 'found', pane: n, line, offset: next, waitedMs: Date.now() - start });
  try {
    for (;;) {
      // Everything printed up to the end now, in batches.
      for (;;) {
        const b = await c.call('pty/read', { pane: ref, from: next, maxBytes: MATCH_READ, encoding: 'base64' }).catch((e: unknown) => {
          if (closed) return null;
          throw e;
        });
        if (b === null) break;
        if (b.gap) onGap?.(`pane ${n}: output from offset ${next} to ${b.streamStart} had left the ring before it was read; looking from ${b.streamStart}`);
        if (b.to > next) {
          next = b.to;
          carry += decoder.write(Buffer.from(b.data, 'base64'));
          const lines = carry.split(/\r\n|\n|\r(?!$)/);
          carry = lines.pop() ?? '';
          if (typedLine && lines.length > 0) {
            lines.shift();
            typedLine = false;
          }
          for (const line of lines) {
            const text = plainText(line);
            if (re.test(text)) return found(text);
          }
          if (typedLine) {
            // The typed line goes on (a long paste): nothing of it is looked at, nor held past MATCH_LINE_MAX.
            if (carry.length > MATCH_LINE_MAX) carry = carry.slice(-MATCH_LINE_MAX);
          } else {
            while (carry.length > MATCH_LINE_MAX) {
              const piece = plainText(carry.slice(0, MATCH_LINE_MAX));
              if (re.test(piece)) return found(piece);
              carry = carry.slice(MATCH_LINE_MAX);
            }
            const partial = plainText(carry);
            if (partial !== '' && re.test(partial)) return found(partial);
          }
        }
        if (b.to >= b.streamEnd) break;
      }
      if (closed) return { kind: 'closed', pane: n };
      if (ended) return { kind: 'ended', pane: n, exit: (await c.call('pane/get', { pane: ref }).catch(() => null))?.exit ?? null };
      const left = deadline - Date.now();
      if (left <= 0) return { kind: 'timeout', pane: n };
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, MATCH_LOOK_MS));
        wake = () => (clearTimeout(t), resolve());
      });
    }
  } finally {
    off();
    wake = null;
  }
}
