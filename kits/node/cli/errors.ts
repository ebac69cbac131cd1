// The CLI's three kinds of failure and their exit codes (0 ok, 1 operation error,
// 2 usage error, 3 no server). Zod-free: this file is on every CLI start-up path.

/** Exit codes of `pane`, as documented in `pane help`. */
/** timedOut: what timeout(1) exits with (pane wait --timeout). */
export const EXIT = { ok: 0, failed: 1, usage: 2, noServer: 3, timedOut: 124 } as const;

/** A mistake in the command line: exit 2, with the usage of the command it concerns. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage to show (e.g. "split", "session new"); none for top-level mistakes. */
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * What to run when nothing answers. The daemon first: it keeps panes across windows, crashes and
 * reboots (`pane start`, or `npm start` in a checkout); `pane serve` is a server in that terminal
 * that keeps no state (issue 34: the hint named only it).
 */
export const NO_SERVER_HINT = 'start pane with `pane start` (its daemon keeps your panes), or `pane serve` for a server in this terminal that keeps no state';

/** Nothing answers at the socket: exit 3. */
export class NoServerError extends Error {
  constructor(
    readonly socketPath: string,
    /** Why, in a few words, when it is not simply "nothing listens there". */
    readonly why?: string,
  ) {
    super(`no pane server at ${socketPath}${why === undefined ? '' : ` (${why})`}; ${NO_SERVER_HINT}`);
    this.name = 'NoServerError';
  }
}

/** An operation that failed on the client side for a reason worth one line: exit 1. */
export class OpError extends Error {
  override name = 'OpError';
}

/** Server error codes that mean "the request itself was malformed": reported as usage errors. */
const USAGE_CODES = new Set(['bad-request']);

/** Maps any thrown value to an exit code. */
export function exitCodeOf(e: unknown): number {
  if (e instanceof UsageError) return EXIT.usage;
  // By name too: the FUSE and MCP parts run from their own bundle (decision 020), with their own copy of this class.
  if (e instanceof NoServerError || (e instanceof Error && e.name === 'NoServerError')) return EXIT.noServer;
  if (isCoded(e) && USAGE_CODES.has(e.code)) return EXIT.usage;
  return EXIT.failed;
}

/** True for errors carrying a protocol error code (a PaneFault from the server). */
export function isCoded(e: unknown): e is Error & { code: string } {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string' && !('errno' in e);
}

/** The one line printed for an error (without the "pane: " prefix). */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message.split('\n')[0] ?? e.message;
  return String(e);
}

/**
 * Why a live stream (watch, follow) ended under its reader, in words. A connection
 * that timed out (TCP keepalive or retransmission gave up: TLS_KEEPALIVE_MS) means the
 * server's machine, or the network to it, went without a word; the socket's own
 * "read ETIMEDOUT" says nothing of that.
 */
export function streamEnded(reason: string): string {
  if (/\bETIMEDOUT\b/.test(reason)) return `pane: the server stopped answering: its machine, or the network to it, is gone (${reason})`;
  return `pane: ${reason}`;
}
