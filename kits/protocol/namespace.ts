// The /pane namespace over the protocol: list, stat, read and write files by
// path, and open handles (fids) for what needs state between calls — blocking
// reads of event/log, event interception, and new/ctl's "read back what I made".
import { z } from 'zod';
import { method } from './method';
import { lazySchema } from './lazySchema';

/** A namespace path, always absolute from the namespace root: /index, /3/body, /by-sig/com.pane.terminal/3/ctl. */
export const NsPathSchema = lazySchema(() => z
  .string()
  .min(1)
  .max(4096)
  .regex(/^\//, 'a namespace path starts with "/", e.g. /3/body or /index'));

/** A handle from ns/open; numbers are per connection. */
export const FidSchema = lazySchema(() => z.number().int().min(1));

/**
 * Largest read or write per call. Bodies are served in pieces of at most this,
 * so a 10,000-line scrollback never travels (or is built) as one reply.
 */
export const NS_MAX_COUNT = 1 << 20;

export const NsEntrySchema = lazySchema(() => z.object({
  name: z.string(),
  type: z.enum(['dir', 'file']),
  /** Unix permission bits as shown by ls (0o555 dirs, 0o444 read-only, 0o644 read-write, 0o222 write-only). */
  mode: z.number().int(),
  /** Bytes: the length so far for streams (event, log); 0 for files computed on read, like /proc. */
  size: z.number().int().min(0),
}));
export type NsEntry = z.infer<typeof NsEntrySchema>;

export const NsStatSchema = lazySchema(() => NsEntrySchema.extend({
  path: z.string(),
  /** event and log: a growing file; read through an open handle it blocks for more. */
  stream: z.boolean(),
  /** Milliseconds since the epoch: last append for streams, creation otherwise. */
  mtime: z.number(),
  /** The one-line doc of the file from the namespace table. */
  doc: z.string(),
}));
export type NsStat = z.infer<typeof NsStatSchema>;

const encoding = lazySchema(() => z.enum(['utf8', 'base64']));

export const namespaceMethods = {
  'ns/list': method({
    params: lazySchema(() => z.object({ path: NsPathSchema })),
    result: lazySchema(() => z.object({ path: z.string(), entries: z.array(NsEntrySchema) })),
    cap: 'read',
    doc: 'Lists a namespace directory (/, /3, /by-sig, ...).',
  }),
  'ns/stat': method({
    params: lazySchema(() => z.object({ path: NsPathSchema })),
    result: NsStatSchema,
    cap: 'read',
    doc: 'Describes one namespace file or directory.',
  }),
  'ns/open': method({
    params: lazySchema(() => z.object({
      path: NsPathSchema,
      /** r: read; w: write; rw: both. Opening event rw makes this client the pane’s interceptor (acme). */
      mode: z.enum(['r', 'w', 'rw']).default('r'),
    })),
    result: lazySchema(() => z.object({
      fid: FidSchema,
      path: z.string(),
      stream: z.boolean(),
      /** A stream’s length at the open: this handle’s blocking reads give what comes after it. */
      size: z.number().int().min(0),
    })),
    cap: 'read',
    doc: 'Opens a handle on a file; needed for blocking reads, event interception and new/ctl. Closed by ns/close or when the connection ends.',
  }),
  'ns/close': method({
    params: lazySchema(() => z.object({ fid: FidSchema })),
    result: lazySchema(() => z.object({ fid: FidSchema })),
    cap: 'read',
    doc: 'Closes a handle; a read blocked on it returns end of file.',
  }),
  'ns/read': method({
    params: lazySchema(() => z.object({
      path: NsPathSchema,
      /** Read through this handle (from ns/open of the same path). */
      fid: FidSchema.optional(),
      /**
       * Byte offset in the file as it stands. With a fid on a stream and `wait`
       * (or no offset): an offset in the handle’s own stream — the bytes since
       * its open — and absent means “what this handle has not read yet”.
       */
      offset: z.number().int().min(0).optional(),
      count: z.number().int().min(1).max(NS_MAX_COUNT).default(64 << 10),
      /** With a fid on a stream: wait for data rather than answer end of file (acme’s blocking read). */
      wait: z.boolean().default(false),
    })),
    result: lazySchema(() => z.object({
      /** The bytes, as UTF-8 text when they are whole characters, else base64. */
      data: z.string(),
      encoding,
      /** Offset of the first byte returned. */
      offset: z.number().int(),
      /** Bytes returned. */
      count: z.number().int(),
      /** Nothing more to read now (for a stream: until something happens). */
      eof: z.boolean(),
    })),
    cap: 'read',
    doc: 'Reads a piece of a namespace file by byte offset.',
  }),
  'ns/write': method({
    params: lazySchema(() => z.object({
      path: NsPathSchema,
      fid: FidSchema.optional(),
      data: z.string().max(4 * NS_MAX_COUNT),
      encoding: encoding.default('utf8'),
      /** Ignored by files whose writes append (tag, body) or are messages (ctl, event, attrs, input). */
      offset: z.number().int().min(0).optional(),
    })),
    result: lazySchema(() => z.object({
      count: z.number().int(),
      /** new/ctl: the pane the write created, and its ctl line (id first). */
      pane: z.number().int().optional(),
      ctl: z.string().optional(),
    })),
    cap: 'write',
    doc: 'Writes to a namespace file: ctl commands, tag and body appends, input bytes, attrs, event write-backs, new/ctl programs.',
  }),
};
