// The dialing side of the stdio preamble (kits/protocol/stdio.ts): reads a child's
// stdout until the `ESC PANE-STDIO v1 VERSION` line, skipping what a login shell
// prints first, within MAX_STDIO_PREAMBLE_BYTES and STDIO_PREAMBLE_TIMEOUT_MS.
// Past either bound, or at the end of the stream, it fails naming what it saw.
import type { Readable } from 'node:stream';
import { MAX_STDIO_PREAMBLE_BYTES, MAX_STDIO_PREAMBLE_LINE, STDIO_MAGIC, STDIO_PREAMBLE_TIMEOUT_MS, STDIO_PREAMBLE_VERSION } from '../protocol/stdio';

/** Bytes of what came before a missing preamble shown in the error: enough to recognise a motd or an error line. */
const SHOWN_BYTES = 160;

export interface Preamble {
  /** The pane version the serving side announced. */
  version: string;
  /** Bytes skipped before the preamble (a motd). */
  skipped: number;
  /** Bytes read after the preamble line: the first frames' start, for the transport. */
  head: Buffer;
}

export interface PreambleOptions {
  /** How the stream is named in errors, e.g. "`ssh box pane serve --stdio`". */
  what: string;
  maxBytes?: number;
  timeoutMs?: number;
  /** Said after an early end, e.g. the child's exit status and stderr (once it has exited). */
  ended?: () => Promise<string>;
  /** The fix to name for an early end instead of "is pane installed there", if the end says another thing failed (ssh's own exit 255). */
  whyEnded?: (said: string) => string | undefined;
}

/** Readable text of bytes that may be binary: control characters as \xNN, cut to SHOWN_BYTES. */
export function shown(b: Buffer): string {
  const t = b.subarray(0, SHOWN_BYTES).toString('utf8');
  return JSON.stringify(t).slice(1, -1) + (b.byteLength > SHOWN_BYTES ? '…' : '');
}

/**
 * Waits for the preamble on `input`; resolves with what followed it, leaving `input`
 * paused (the caller attaches its reader, then resumes). Rejects with an Error
 * naming the stream, what it printed and the fix.
 */
export function awaitPreamble(input: Readable, o: PreambleOptions): Promise<Preamble> {
  const maxBytes = o.maxBytes ?? MAX_STDIO_PREAMBLE_BYTES;
  const timeoutMs = o.timeoutMs ?? STDIO_PREAMBLE_TIMEOUT_MS;
  const magic = Buffer.from(STDIO_MAGIC, 'latin1');
  const noPane = 'it is no `pane serve --stdio`: is pane installed there (`pane host install NAME` puts this pane there; `pane` on npm is another project), and does the command run `pane serve --stdio`?';
  return new Promise((resolve, reject) => {
    let seen: Buffer = Buffer.alloc(0);
    const done = (e: Error | null, p?: Preamble) => {
      clearTimeout(timer);
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.removeListener('error', onError);
      input.pause();
      if (e) reject(e);
      else resolve(p!);
    };
    const onData = (chunk: Buffer) => {
      seen = seen.byteLength === 0 ? chunk : Buffer.concat([seen, chunk]);
      const at = seen.indexOf(magic);
      if (at < 0) {
        // Keep only what is needed: the bound counts everything, the buffer the tail a magic may straddle.
        if (seen.byteLength > maxBytes) return done(new Error(`${o.what} printed ${seen.byteLength} bytes without the pane preamble (the bound is ${maxBytes}); ${noPane} It began: "${shown(seen)}"`));
        return;
      }
      if (at > maxBytes) return done(new Error(`${o.what} printed ${at} bytes before the pane preamble (the bound is ${maxBytes}): quiet the login shell's output (a motd, an echo in .bashrc) for non-interactive sessions. It began: "${shown(seen)}"`));
      const nl = seen.indexOf(0x0a, at);
      if (nl < 0) {
        if (seen.byteLength - at > MAX_STDIO_PREAMBLE_LINE) return done(new Error(`${o.what}: the pane preamble line runs past ${MAX_STDIO_PREAMBLE_LINE} bytes: "${shown(seen.subarray(at))}"`));
        return;
      }
      const line = seen.subarray(at + magic.byteLength, nl).toString('utf8').trim();
      const m = /^v(\d+) (\S+)$/.exec(line);
      if (!m) return done(new Error(`${o.what}: a malformed pane preamble "${shown(seen.subarray(at, nl))}"`));
      if (Number(m[1]) !== STDIO_PREAMBLE_VERSION) {
        return done(new Error(`${o.what} runs pane ${m[2]}, whose stdio preamble is v${m[1]}; this pane speaks v${STDIO_PREAMBLE_VERSION}: install the same pane on both ends (\`pane host install NAME\` puts this one there)`));
      }
      done(null, { version: m[2]!, skipped: at, head: Buffer.from(seen.subarray(nl + 1)) });
    };
    const onEnd = () => {
      clearTimeout(timer);
      void (o.ended?.() ?? Promise.resolve('')).then((said) =>
        done(new Error(`${o.what} ended before the pane preamble${said ? ` (${said})` : ''}; ${o.whyEnded?.(said) ?? noPane}${seen.byteLength > 0 ? ` It printed: "${shown(seen)}"` : ''}`)),
      );
    };
    const onError = (e: Error) => done(new Error(`${o.what}: ${e.message}`));
    const timer = setTimeout(() => done(new Error(`${o.what} gave no pane preamble within ${timeoutMs / 1000} s; ${noPane}${seen.byteLength > 0 ? ` It printed: "${shown(seen)}"` : ' It printed nothing.'}`)), timeoutMs);
    timer.unref();
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onError);
  });
}
