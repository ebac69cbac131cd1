// The protocol over a child's stdio (`pane serve --stdio`, reached by ssh, docker exec,
// kubectl exec…): the serving side writes one preamble line before the first frame,
// and the dialing side skips whatever comes before it (a login shell's motd, a
// "Last login" line), up to a bound. After the line, the stream is framed as any
// other (kits/node/framing.ts).

/** Leads the preamble line. ESC first: no motd or shell prompt prints it by chance. */
export const STDIO_MAGIC = '\x1bPANE-STDIO';
/** The preamble's own version: the line format, not the protocol's (that is hello's). */
export const STDIO_PREAMBLE_VERSION = 1;
/** The line `pane serve --stdio` writes: `ESC PANE-STDIO v1 <pane version>\n`. */
export function stdioPreamble(paneVersion: string): string {
  return `${STDIO_MAGIC} v${STDIO_PREAMBLE_VERSION} ${paneVersion}\n`;
}
/** What the stdio door says to a stream that broke the framing, before it closes it: `problem` names how. */
export function stdioFramingRefusal(problem: string): string {
  return `pane serve --stdio: ${problem}; the connection is closed — a client of another pane version, or a stream that is no pane protocol`;
}
/**
 * Bytes the dialing side reads looking for the preamble before it gives up. A motd
 * with a banner and a few notices is a few KiB; 64 KiB is many of them, and a remote
 * that prints without end (a shell that is no pane) is cut off there.
 */
export const MAX_STDIO_PREAMBLE_BYTES = 64 << 10;
/** Time from spawning the command to the preamble: ssh's own connect, a password-less login and a node start on a slow VM fit in 10 s (ssh's ConnectTimeout is separate). */
export const STDIO_PREAMBLE_TIMEOUT_MS = 10_000;
/** Longest preamble line once the magic is found (the version string is short). */
export const MAX_STDIO_PREAMBLE_LINE = 200;
