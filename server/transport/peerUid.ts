// Who is at the other end of a loopback TCP connection: the unix user that owns
// the peer's socket, read from the kernel's socket table (/proc/net/tcp and tcp6),
// as identd does. Loopback TCP has no peer credentials of its own; this is the fact
// the hook door learns a caller's user from before reading a byte of its request.
import fs from 'node:fs/promises';
import type net from 'node:net';

/** A socket-table line: `sl local rem st queues tr retrnsmt uid ...`; addresses are HEXIP:HEXPORT. */
const LINE = /^\s*\d+:\s+[0-9A-F]+:([0-9A-F]{4})\s+[0-9A-F]+:([0-9A-F]{4})\s+[0-9A-F]{2}\s+\S+\s+\S+\s+\S+\s+(\d+)/i;

/**
 * Reads of the socket table before a connection is taken for unknown. The table
 * is a seq_file read a page at a time: a socket that closes between two reads
 * shifts the rest, and a line can be skipped (seen here as a hook answered by a
 * closed connection while tests opened and closed hundreds of sockets). A live
 * peer is in every consistent read, so a second or third read finds it.
 */
const PEER_LOOKUP_TRIES = 3;

/**
 * The uid owning the peer's end of `sock` (a connection accepted on a loopback
 * listener): the socket whose local port is our peer's port and whose remote port
 * is ours. `null` where the table cannot be read (not Linux); `undefined` where it
 * can but holds no such socket (the peer is in another network namespace, or gone).
 */
export async function peerUid(sock: net.Socket): Promise<number | null | undefined> {
  const theirs = sock.remotePort;
  const ours = sock.localPort;
  if (theirs === undefined || ours === undefined) return undefined;
  let read = false;
  for (let attempt = 0; attempt < PEER_LOOKUP_TRIES; attempt++) {
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      let text: string;
      try {
        text = await fs.readFile(table, 'latin1');
      } catch {
        continue;
      }
      read = true;
      for (const line of text.split('\n')) {
        const m = LINE.exec(line);
        if (m && parseInt(m[1]!, 16) === theirs && parseInt(m[2]!, 16) === ours) return Number(m[3]);
      }
    }
    if (!read || sock.destroyed) break;
  }
  return read ? undefined : null;
}
