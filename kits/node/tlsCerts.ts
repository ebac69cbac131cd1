// The certificates of a daemon's TLS door, made on first use (issue 26): apart from
// tlsFiles.ts because they load node-forge (pki.ts), which a daemon whose serve.json
// opens no door never needs: server/transport/tlsDoor.ts imports this module only
// when it opens one, and the daemon's start pays nothing for it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { certNames, issueServerCert, makeCa, MAX_CERT_NAMES, type KeyCert } from './pki';
import { ensurePrivateDir, readCertFile, readKeyFile, writePem } from './tlsFiles';

/** The per-user CA in `dir` (ca.pem, ca.key), made on first use. */
export function ensureCa(dir: string, cn: string): KeyCert {
  ensurePrivateDir(dir);
  const certPem = readCertFile(path.join(dir, 'ca.pem'));
  if (certPem !== null && fs.existsSync(path.join(dir, 'ca.key'))) return { certPem, keyPem: readKeyFile(path.join(dir, 'ca.key')) };
  const ca = makeCa(cn);
  // The key first: a ca.pem without its key is made again, never used half.
  writePem(dir, 'ca.key', ca.keyPem);
  writePem(dir, 'ca.pem', ca.certPem);
  return ca;
}

/**
 * The server certificate in `dir` (server.pem, server.key), issued again when it lacks
 * one of `names` or another CA signed it; with no names, one is issued for `fallback` only when there is none.
 */
export function ensureServerCert(dir: string, ca: KeyCert, names: readonly string[], fallback: readonly string[] = names): KeyCert {
  const certPem = readCertFile(path.join(dir, 'server.pem'));
  let have: string[] = [];
  if (certPem !== null && fs.existsSync(path.join(dir, 'server.key'))) {
    const ok = new crypto.X509Certificate(certPem).checkIssued(new crypto.X509Certificate(ca.certPem));
    have = ok ? certNames(certPem) : [];
    if (ok && names.every((n) => have.includes(n))) return { certPem, keyPem: readKeyFile(path.join(dir, 'server.key')) };
  }
  const all = [...new Set([...(names.length > 0 ? names : fallback), ...have])].slice(0, MAX_CERT_NAMES);
  const s = issueServerCert(ca, all);
  writePem(dir, 'server.key', s.keyPem);
  writePem(dir, 'server.pem', s.certPem);
  return s;
}

