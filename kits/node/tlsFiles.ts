// The files of a daemon's TLS door (issue 26): its per-user CA and server
// certificate under the state dir's tls/ (keys 0600 in a 0700 folder, written whole
// through safeFile), and serve.json in the config dir that says whether the door opens.
// A key file that is a link, not a regular file, not this user's, or readable by
// others is refused, as OpenSSH refuses such a private key. Making certificates is
// tlsCerts.ts's (it loads node-forge), so a daemon reading serve.json loads none of it.
import fs from 'node:fs';
import path from 'node:path';
import { ServeConfigSchema, type ServeConfig } from '../protocol/serve';
import { readBelow, writeBelow } from './safeFile';

/** Bytes of a PEM file read here: a 2048-bit RSA key or certificate is under 2 KiB. */
const MAX_PEM_BYTES = 64 * 1024;

/** The door's certificates: $XDG_STATE_HOME/pane/tls. */
export function tlsStateDir(stateDir: string): string {
  return path.join(stateDir, 'tls');
}

/** Makes `dir` 0700 and this user's, or says why it cannot be used. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory (a link?): remove it; pane keeps its TLS keys there`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new Error(`${dir} belongs to uid ${st.uid}, not you: remove it; pane keeps its TLS keys there`);
  if ((st.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}

/**
 * Reads a private key file, refusing one that is a link, not a regular file, someone
 * else's, or open to group or others (mode & 077): the fix is named.
 */
export function readKeyFile(file: string): string {
  const st = fs.lstatSync(file);
  if (st.isSymbolicLink()) throw new Error(`refused ${file}: a private key that is a symbolic link is not read (replace it with the file itself)`);
  if (!st.isFile()) throw new Error(`refused ${file}: a private key must be a regular file`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new Error(`refused ${file}: the private key belongs to uid ${st.uid}, not you`);
  if ((st.mode & 0o077) !== 0) throw new Error(`refused ${file}: the private key is readable by others (mode ${(st.mode & 0o777).toString(8)}); chmod 600 ${file}, or remove it and pair again`);
  const text = readBelow(path.dirname(file), path.basename(file), { maxBytes: MAX_PEM_BYTES, where: 'pane’s TLS folder' });
  if (text === null) throw new Error(`${file} is gone`);
  return text;
}

/** Reads a certificate file (no secret; still no link, bounded). */
export function readCertFile(file: string): string | null {
  return readBelow(path.dirname(file), path.basename(file), { maxBytes: MAX_PEM_BYTES, where: 'pane’s TLS folder' });
}

/** Writes a PEM file 0600, whole and durable, below `dir`. */
export function writePem(dir: string, name: string, pem: string): void {
  writeBelow(dir, name, pem, { mode: 0o600, durable: true, where: 'pane’s TLS folder' });
}

/** serve.json of `configDir`; {} when there is none. Throws naming the file and field when it does not read. */
export function readServeConfig(configDir: string): ServeConfig {
  const file = path.join(configDir, 'serve.json');
  const text = readBelow(configDir, 'serve.json', { where: 'pane’s config folder' });
  if (text === null) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not JSON (${(e as Error).message})`);
  }
  const r = ServeConfigSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new Error(`${file}: ${i?.path.join('.') || '(file)'}: ${i?.message ?? 'invalid'}`);
  }
  return r.data;
}

export function writeServeConfig(configDir: string, c: ServeConfig): void {
  fs.mkdirSync(configDir, { recursive: true, mode: 0o700 });
  writeBelow(configDir, 'serve.json', `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600 });
}
