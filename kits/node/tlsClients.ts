// The record of client certificates a machine's pair-serve issued (issue 26):
// $XDG_STATE_HOME/pane/tls/clients.json beside the CA. The TLS door takes a client
// only when its certificate chains to the CA *and* its fingerprint is here, not
// revoked (decision 038); `pane host revoke` and `pane host unpair` mark entries.
// Read as every state file is (no link, regular file, bounded); changed under a lock
// (proper-lockfile, as the daemon's state lock) and written whole and durable, so a
// pairing and a revocation at the same moment cannot undo each other.
import crypto from 'node:crypto';
import path from 'node:path';
import { ClientsFileSchema, MAX_CLIENT_NAME, MAX_CLIENTS_FILE_BYTES, MAX_ISSUED_CLIENTS, type IssuedClient } from '../protocol/serve';
import { lstatBelow, readBelow, writeBelow } from './safeFile';

export const CLIENTS_FILE = 'clients.json';
/** A lock older than this is a crashed writer's (proper-lockfile refreshes a live one every half of it). */
const CLIENTS_LOCK_STALE_MS = 10_000;
/** How long a change waits for another pair-serve or revoke to finish: each holds the lock for one small write. */
const CLIENTS_LOCK_RETRIES = { retries: 20, minTimeout: 50, maxTimeout: 500 };
/** Hex digits a fingerprint given by hand must have at least (`pane host clients` shows 16): fewer would match by accident. */
export const MIN_FINGERPRINT_PREFIX = 8;

const WHERE = 'pane’s TLS folder';

/** The record as read: its clients, or why it cannot be trusted (missing, not JSON, a bad field, refused path). */
export type ClientsRead = { ok: true; clients: IssuedClient[] } | { ok: false; missing: boolean; reason: string };

export function clientsFilePath(tlsDir: string): string {
  return path.join(tlsDir, CLIENTS_FILE);
}

/** Reads clients.json below `tlsDir`; never throws. */
export function readClients(tlsDir: string): ClientsRead {
  const file = clientsFilePath(tlsDir);
  let text: string | null;
  try {
    text = readBelow(tlsDir, CLIENTS_FILE, { maxBytes: MAX_CLIENTS_FILE_BYTES, where: WHERE });
  } catch (e) {
    return { ok: false, missing: false, reason: (e as Error).message };
  }
  if (text === null) return { ok: false, missing: true, reason: `${file} does not exist` };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, missing: false, reason: `${file}: not JSON (${(e as Error).message})` };
  }
  const r = ClientsFileSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    return { ok: false, missing: false, reason: `${file}: ${i?.path.join('.') || '(file)'}: ${i?.message ?? 'invalid'}` };
  }
  return { ok: true, clients: r.data.clients };
}

/** The file's identity (inode, size, mtime): a reader that keeps the record re-reads it when this changes. */
export function clientsStamp(tlsDir: string): string {
  try {
    const st = lstatBelow(tlsDir, CLIENTS_FILE);
    return st === null ? 'none' : `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch (e) {
    return `refused:${(e as Error).message}`;
  }
}

/** `AB:CD:…` to its first 8 bytes, as `pane host clients` shows it. */
export function shortFingerprint(fp: string): string {
  return fp.split(':').slice(0, 8).join(':');
}

/**
 * Why the TLS door must refuse the client certificate `fp` (named `cn`), or null to
 * admit it. Fails closed: no record, or one that does not read, refuses everyone, naming the file and the fix.
 */
export function clientVerdict(read: ClientsRead, tlsDir: string, fp: string, cn: string): string | null {
  const file = clientsFilePath(tlsDir);
  // Said to the machine that was refused (its link shows it) and logged here: pairing is done from that machine, naming this host as it calls it.
  const again = 'pair that machine again, from it: pane host pair HOST (HOST: the name this host has in its hosts/)';
  if (!read.ok && read.missing) return `client certificate ${shortFingerprint(fp)} (${cn}) refused: there is no record of issued client certificates (${file}); certificates issued before pane kept one are no longer honoured: ${again}`;
  if (!read.ok) return `client certificate ${shortFingerprint(fp)} (${cn}) refused: the record of issued client certificates does not read (${read.reason}); fix it, or remove it and pair every client again (pane host pair NAME there)`;
  const c = read.clients.find((x) => x.fingerprint === fp);
  if (c === undefined) return `client certificate ${shortFingerprint(fp)} (${cn}) refused: it is not in ${file} (issued before pane kept that record, or not by pane host pair-serve here): ${again}`;
  if (c.revokedAt !== undefined) return `client certificate ${shortFingerprint(fp)} (${c.name}) refused: revoked here at ${c.revokedAt} (pane host revoke / unpair): ${again}`;
  return null;
}

/** Entries matching what a person typed: a fingerprint (whole or at least MIN_FINGERPRINT_PREFIX hex digits, colons optional), else a name. */
export function matchClients(clients: readonly IssuedClient[], query: string): { by: 'fingerprint' | 'name'; clients: IssuedClient[] } {
  const hex = query.replace(/:/g, '').toUpperCase();
  if (/^[0-9A-F]+$/.test(hex) && hex.length >= MIN_FINGERPRINT_PREFIX) {
    const byFp = clients.filter((c) => c.fingerprint.replace(/:/g, '').startsWith(hex));
    if (byFp.length > 0) return { by: 'fingerprint', clients: byFp };
  }
  return { by: 'name', clients: clients.filter((c) => c.name === query) };
}

/** The record entry for a certificate pair-serve just signed. */
export function issuedEntry(certPem: string, name: string, now = new Date()): IssuedClient {
  const x = new crypto.X509Certificate(certPem);
  return { fingerprint: x.fingerprint256, name: name.slice(0, MAX_CLIENT_NAME) || 'pane client', issuedAt: now.toISOString(), expires: new Date(x.validTo).toISOString() };
}

/**
 * Changes the record under its lock: `change` gets the entries (none when there is no
 * file yet) and returns the new ones; expired entries are dropped (the handshake
 * refuses them anyway), and past MAX_ISSUED_CLIENTS the oldest revoked ones. A record
 * that does not read is not overwritten: the error names the file and the fix.
 */
export async function updateClients<T>(tlsDir: string, change: (clients: IssuedClient[]) => { clients: IssuedClient[]; result: T }): Promise<T> {
  const lockfile = (await import('proper-lockfile')).default;
  const release = await lockfile.lock(tlsDir, { lockfilePath: path.join(tlsDir, `${CLIENTS_FILE}.lock`), stale: CLIENTS_LOCK_STALE_MS, retries: CLIENTS_LOCK_RETRIES, realpath: false });
  try {
    const read = readClients(tlsDir);
    if (!read.ok && !read.missing) throw new Error(`${read.reason}; fix it, or remove it (every paired client then pairs again)`);
    const { clients, result } = change(read.ok ? read.clients : []);
    const now = Date.now();
    let kept = clients.filter((c) => Date.parse(c.expires) > now);
    while (kept.length > MAX_ISSUED_CLIENTS) {
      const i = kept.findIndex((c) => c.revokedAt !== undefined);
      if (i < 0) throw new Error(`${clientsFilePath(tlsDir)} holds ${MAX_ISSUED_CLIENTS} live client certificates (MAX_ISSUED_CLIENTS): revoke some first (pane host clients, pane host revoke)`);
      kept = [...kept.slice(0, i), ...kept.slice(i + 1)];
    }
    const text = `${JSON.stringify(ClientsFileSchema.parse({ clients: kept }), null, 2)}\n`;
    writeBelow(tlsDir, CLIENTS_FILE, text, { mode: 0o600, durable: true, where: WHERE });
    return result;
  } finally {
    await release();
  }
}
