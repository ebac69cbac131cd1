// Reading a socket into a buffer of our own, reused for every read, instead of the
// fresh buffer Node allocates per read. Node's read buffer is a 64 KiB malloc, shrunk
// by a copy to what was read; the copy lives until the garbage collector frees its
// Buffer, which under a flood is late, and the heap is left in holes between
// survivors that glibc cannot give back (issue 35: 20 full panes' daemon held 30 MB
// of free heap pages, 21 of them returned only by a malloc_trim). With a buffer of
// our own a read allocates nothing; the callback sees a view valid only during the
// call, so a reader copies what it keeps.
import net from 'node:net';

/** The parts of a net.Socket that reading into a buffer reaches (Node's `onread` machinery, lib/net.js). */
type OnreadSocket = net.Socket & Record<symbol, unknown> & { _handle?: { useUserBuffer?: (b: Uint8Array) => void } | null };

/**
 * From the next read on, `sock`'s reads land in `buf` and are handed to `onRead` as
 * a view into it ('data' is no longer emitted; 'end', 'close', pause and resume work
 * as before). `onRead` returning false stops reading until the socket is resumed: a
 * socket read into its own buffer has no readable buffer to fill, so pause() alone
 * holds it only once it has begun reading (not before its first tick). It sets
 * what net.Socket's `onread` option sets, which a socket made by someone else
 * (a server's accepted socket, node-pty's) cannot be given. False, and
 * nothing changed, where this Node lacks the machinery or the socket reads already.
 */
export function readIntoOwnBuffer(sock: net.Socket, buf: Buffer, onRead: (chunk: Buffer) => boolean | void): boolean {
  const s = sock as OnreadSocket;
  const syms = Object.getOwnPropertySymbols(s);
  const sym = (d: string) => syms.find((x) => x.description === d);
  const [kBuffer, kBufferCb, kBufferGen] = [sym('kBuffer'), sym('kBufferCb'), sym('kBufferGen')];
  const handle = s._handle;
  if (!kBuffer || !kBufferCb || !kBufferGen || s[kBuffer] || s[kBufferGen] !== null || typeof handle?.useUserBuffer !== 'function') return false;
  s[kBufferCb] = (n: number, b: Buffer) => onRead(b.subarray(0, n));
  s[kBuffer] = buf;
  handle.useUserBuffer(buf);
  return true;
}
