// The protocol over a child's stdio (`pane serve --stdio`, reached by ssh, docker exec,
// kubectl exec…): the serving side writes one preamble line before the first frame,
// and the dialing side skips whatever comes before it (a login shell's motd, a
// "Last login" line), up to a bound. After the line, the stream is framed as any
// other (kits/node/framing.ts).
import { z } from 'zod';
import { method } from './method';

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

/**
 * One end of a pipe, as fstat names it: device and inode, in decimal (an inode is a
 * 64-bit number, past what a JSON number holds exactly).
 */
export const PipeIdentitySchema = z
  .object({
    dev: z.string().regex(/^\d{1,20}$/, 'a device number in decimal'),
    ino: z.string().regex(/^\d{1,20}$/, 'an inode number in decimal'),
  })
  .strict();
export type PipeIdentity = z.infer<typeof PipeIdentitySchema>;

export const stdioMethods = {
  'stdio/adopt': method({
    params: z
      .object({
        /** The relay's own pid: its stdin and stdout are read from /proc/PID/fd/0 and /1. */
        pid: z.number().int().min(2).max(2 ** 22),
        /** What the relay's fstat says its stdin and stdout are: the daemon takes them only when what it opened is the same pipe. */
        stdin: PipeIdentitySchema,
        stdout: PipeIdentitySchema,
      })
      .strict(),
    result: z.object({ client: z.string() }),
    cap: 'admin',
    doc: 'Takes over the caller’s stdin and stdout pipes as a client connection of their own (what `pane serve --stdio` asks, so its bytes skip a relay). The person’s own socket only; pipes only, checked by device and inode.',
  }),
};
