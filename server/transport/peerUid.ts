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

/** The kernel's socket tables, IPv4 first: the hook door listens on 127.0.0.1, so its peers are there. */
export const SOCKET_TABLES = ['/proc/net/tcp', '/proc/net/tcp6'] as const;

/** Bytes asked for per read of a table (the kernel hands out at most a page of lines per read whatever is asked). */
const TABLE_READ_BYTES = 64 << 10;

/**
 * The uid owning the peer's end of `sock` (a connection accepted on a loopback
 * listener): the socket whose local port is our peer's port and whose remote port
 * is ours. `null` where the table cannot be read (not Linux); `undefined` where it
 * can but holds no such socket (the peer is in another network namespace, or gone).
 *
 * Each read of a table walks the kernel's whole established-connection hash to
 * find its next lines (262,144 buckets on a 24 GiB machine: ~3 ms a read), and the
 * read that says the table ended walks it again. So the table is read a read at a
 * time and left as soon as the peer's line is in: a hook's caller is found in one
 * walk instead of two (~3 ms of every HTTP hook's round trip, issue 35).
 */
export async function peerUid(sock: net.Socket, tables: readonly string[] = SOCKET_TABLES): Promise<number | null | undefined> {
  const theirs = sock.remotePort;
  const ours = sock.localPort;
  if (theirs === undefined || ours === undefined) return undefined;
  let read = false;
  for (let attempt = 0; attempt < PEER_LOOKUP_TRIES; attempt++) {
    for (const table of tables) {
      const found = await findIn(table, theirs, ours);
      if (found === null) continue;
      read = true;
      if (found !== undefined) return found;
    }
    if (!read || sock.destroyed) break;
  }
  return read ? undefined : null;
}

/** The uid on the line of `table` for a socket at local port `theirs` with remote port `ours`; undefined when none; null when it cannot be read. */
async function findIn(table: string, theirs: number, ours: number): Promise<number | null | undefined> {
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(table, 'r');
  } catch {
    return null;
  }
  try {
    const buf = Buffer.allocUnsafe(TABLE_READ_BYTES);
    let rest = '';
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      const lines = (rest + buf.toString('latin1', 0, bytesRead)).split('\n');
      // A line cut by the read's end waits for the rest of it; at the end of the table it is whole.
      rest = bytesRead === 0 ? '' : lines.pop()!;
      for (const line of lines) {
        const m = LINE.exec(line);
        if (m && parseInt(m[1]!, 16) === theirs && parseInt(m[2]!, 16) === ours) return Number(m[3]);
      }
      if (bytesRead === 0) return undefined;
    }
  } catch {
    return null;
  } finally {
    void fh.close().catch(() => undefined);
  }
}
