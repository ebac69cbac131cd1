// Protocol error codes as errno values for FUSE: the one place that decides
// what `cat`, `ls` and `echo >` report. Ordinary mistakes never become EIO.

/** Linux errno numbers (FUSE wants them negated). */
export const ERRNO = {
  EPERM: 1,
  ENOENT: 2,
  EIO: 5,
  EBADF: 9,
  EACCES: 13,
  EBUSY: 16,
  EEXIST: 17,
  ENOTDIR: 20,
  EISDIR: 21,
  EINVAL: 22,
  EFBIG: 27,
  ENOTCONN: 107,
} as const;

const BY_CODE: Record<string, keyof typeof ERRNO> = {
  'not-found': 'ENOENT',
  'pane-not-found': 'ENOENT',
  'session-not-found': 'ENOENT',
  'is-directory': 'EISDIR',
  'not-directory': 'ENOTDIR',
  'not-permitted': 'EACCES',
  denied: 'EACCES',
  unauthorized: 'EACCES',
  busy: 'EBUSY',
  'bad-request': 'EINVAL',
  // An operation the server refused on its merits (no edge to move, pane exited): the request was not valid now.
  failed: 'EINVAL',
  'too-large': 'EFBIG',
  'unknown-method': 'EINVAL',
};

/** The errno for a thrown value: its protocol code, ENOTCONN for a lost server, EIO only for the unexplained. */
export function errnoOf(e: unknown): number {
  const code = (e as { code?: unknown } | null)?.code;
  const message = (e as { message?: unknown } | null)?.message;
  if (typeof code === 'string' && BY_CODE[code]) {
    // A request that failed because the connection closed is not the caller's mistake.
    if (code === 'failed' && typeof message === 'string' && message.startsWith('connection closed')) return ERRNO.ENOTCONN;
    return ERRNO[BY_CODE[code]];
  }
  return ERRNO.EIO;
}
