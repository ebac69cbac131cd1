// stdio/adopt (decision 041): `pane serve --stdio` asks its daemon to take its stdin
// and stdout pipes over. Apart from kits/protocol/stdio.ts, which the CLI loads on
// its start-up path and which stays free of zod.
import { z } from 'zod';
import { method } from './method';
import { lazySchema } from './lazySchema';

/**
 * One end of a pipe, as fstat names it: device and inode, in decimal (an inode is a
 * 64-bit number, past what a JSON number holds exactly).
 */
export const PipeIdentitySchema = lazySchema(() => z
  .object({
    dev: z.string().regex(/^\d{1,20}$/, 'a device number in decimal'),
    ino: z.string().regex(/^\d{1,20}$/, 'an inode number in decimal'),
  })
  .strict());
export type PipeIdentity = z.infer<typeof PipeIdentitySchema>;

export const stdioMethods = {
  'stdio/adopt': method({
    params: lazySchema(() => z
      .object({
        /** The relay's own pid: its stdin and stdout are read from /proc/PID/fd/0 and /1. */
        pid: z.number().int().min(2).max(2 ** 22),
        /** What the relay's fstat says its stdin and stdout are: the daemon takes them only when what it opened is the same pipe. */
        stdin: PipeIdentitySchema,
        stdout: PipeIdentitySchema,
      })
      .strict()),
    result: lazySchema(() => z.object({ client: z.string() })),
    cap: 'admin',
    doc: 'Takes over the caller’s stdin and stdout pipes as a client connection of their own (what `pane serve --stdio` asks, so its bytes skip a relay). The person’s own socket only; pipes only, checked by device and inode.',
  }),
};
